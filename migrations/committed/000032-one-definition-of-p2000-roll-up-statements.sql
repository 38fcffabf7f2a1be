--! Previous: sha1:19f064c9a9dbefefa03b32302ef7ae9d27187e76
--! Hash: sha1:310e58544b98bf7e195fe907ec378937b4244256
--! Message: One definition of the P2000 roll-up statements for the insert and the update/delete triggers

-- One definition of the P2000 roll-ups: the insert trigger (000008) and the update/delete trigger
-- (000029) each had their own copy of the three upserts. They now build them from one function
-- and run them in their own context (transition tables are visible only to the trigger function's
-- own statements, so a called function cannot run them itself).
create or replace function app_hidden.p2000_rollup_statements(changes text) returns text[]
  language sql immutable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select array[
    format($f$
      insert into app_hidden.p2000_hourly_counts as h
        (hour, region_uuid, discipline_uuid, urgency_uuid, category_uuid, exercise_type, road, messages)
      select date_trunc('hour', c.sended), c.region_uuid, c.discipline_uuid, c.urgency_uuid, c.category_uuid, c.exercise_type, c.road, sum(c.sign)
        from (%s) c group by 1, 2, 3, 4, 5, 6, 7 having sum(c.sign) <> 0 order by 1, 2, 3, 4, 5, 6, 7
      on conflict (hour, region_uuid, discipline_uuid, urgency_uuid, category_uuid, exercise_type, road)
      do update set messages = h.messages + excluded.messages$f$, changes),
    format($f$
      insert into app_hidden.p2000_hourly_urgency_counts as u (hour, exercise_type, urgency_uuid, messages)
      select date_trunc('hour', c.sended), c.exercise_type, c.urgency_uuid, sum(c.sign)
        from (%s) c group by 1, 2, 3 having sum(c.sign) <> 0 order by 1, 2, 3
      on conflict (hour, exercise_type, urgency_uuid) do update set messages = u.messages + excluded.messages$f$, changes),
    format($f$
      insert into app_hidden.p2000_daily_counts as d (day, exercise_type, dimension, key, messages)
      select (c.sended at time zone 'Europe/Amsterdam')::date, c.exercise_type, x.dimension, x.key, sum(c.sign)
        from (%s) c,
             lateral (values ('total', ''), ('discipline', c.discipline_uuid::text), ('region', c.region_uuid::text),
                             ('urgency', c.urgency_uuid::text), ('category', c.category_uuid::text), ('road', c.road)) as x (dimension, key)
       where x.key is not null
       group by 1, 2, 3, 4 having sum(c.sign) <> 0 order by 1, 2, 3, 4
      on conflict (day, exercise_type, dimension, key) do update set messages = d.messages + excluded.messages$f$, changes)
  ]
$$;
comment on function app_hidden.p2000_rollup_statements(text) is
  'The statements that add rows (a query of message rows with a sign column, +1 or -1) to the hourly, hourly-urgency and daily roll-ups.';

create or replace function app_hidden.tg_p2000_messages__index() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  statement text;
begin
  perform app_hidden.p2000_create_capcodes(array(select distinct c from inserted i, unnest(i.capcode_names) c));
  insert into app_public.p2000_message_capcodes (message_uuid, capcode_uuid, sended)
  select i.uuid, c.uuid, i.sended from inserted i join app_public.p2000_capcodes c on c.name = any (i.capcode_names)
  on conflict do nothing;
  foreach statement in array app_hidden.p2000_rollup_statements('select i.*, 1 as sign from inserted i') loop
    execute statement;
  end loop;
  return null;
end;
$$;

create or replace function app_hidden.tg_p2000_messages__unroll() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  -- Transition tables are visible to EXECUTE; one text for both operations.
  changes text := case tg_op when 'DELETE' then 'select o.*, -1 as sign from old_rows o'
                  else 'select o.*, -1 as sign from old_rows o union all select n.*, 1 from new_rows n' end;
  statement text;
begin
  foreach statement in array app_hidden.p2000_rollup_statements(changes) loop
    execute statement;
  end loop;
  if tg_op = 'UPDATE' then
    update app_public.p2000_message_capcodes l set sended = n.sended
      from new_rows n where l.message_uuid = n.uuid and l.sended is distinct from n.sended;
  end if;
  -- Dossiers of the old and new rows: their message count and first and last times, recounted.
  execute format($f$
    update app_public.p2000_dossiers d
       set message_count = s.messages, first_sended = coalesce(s.first_sended, d.first_sended), last_sended = coalesce(s.last_sended, d.last_sended)
      from (select x.dossier_uuid, count(m.uuid)::integer as messages, min(m.sended) as first_sended, max(m.sended) as last_sended
              from (select distinct c.dossier_uuid from (%s) c where c.dossier_uuid is not null) x
              left join app_public.p2000_messages m on m.dossier_uuid = x.dossier_uuid
             group by x.dossier_uuid) s
     where d.uuid = s.dossier_uuid and (d.message_count, d.first_sended, d.last_sended)
           is distinct from (s.messages, coalesce(s.first_sended, d.first_sended), coalesce(s.last_sended, d.last_sended))$f$, changes);
  return null;
end;
$$;
