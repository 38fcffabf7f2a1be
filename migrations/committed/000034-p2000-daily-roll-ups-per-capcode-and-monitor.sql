--! Previous: sha1:5e91fd7773103ef9d7f593bfbdad1fdda5b33a53
--! Hash: sha1:85365b1a17a9a80155fd08c53ed4c8ad2493ba3c
--! Message: Ten years of P2000 history: daily roll-ups per capcode and per monitor for p2000MessagesCount, p2000Messages paged from a monitor's matches and each capcode's links

-- Ten years of P2000 history (10 million messages, bench/p2000-history.ts): the counts that scanned.
--
-- p2000MessagesCount with one capcode or a monitor counted every message it selected (for one
-- capcode: every link, scattered over p2000_message_capcodes, then every message by key for its
-- exercise type). That grows with the history: at 10 million messages the busiest unit capcode
-- took 2-12 s, and a region monitor (1.4 million matches) or a group call capcode (5.6 million
-- messages) ran into the 15 s statement timeout. Counts without those filters already read the
-- daily roll-ups and stay flat; this gives the two filters roll-ups of their own:
-- 1. app_hidden.p2000_daily_capcode_counts (capcode, Dutch day, exercise type): one more statement
--    of app_hidden.p2000_rollup_statements, so the insert trigger, copy merging and a DBA's UPDATE
--    or DELETE keep it as they keep the others.
-- 2. app_hidden.monitor_daily_counts (monitor, Dutch day, exercise type), kept by statement
--    triggers on app_hidden.monitor_matches, which now carries its message's exercise type.
-- 3. p2000_messages_count reads them for whole Dutch days and counts the partial days at either end
--    from the index, as it does for the other roll-ups (app_hidden.amsterdam_whole_days, shared).
-- 4. p2000_message_statistics takes its all-time total from the count.
-- 5. p2000_messages pages one monitor from its matches and several capcodes from each one's links.
-- Several capcodes at once are still counted by scan: a message sent to two of them counts once,
-- which a sum of per-capcode counts cannot tell.

-- Re-runnable while it is current.sql (graphile-migrate watch).
drop trigger if exists _100_exercise_type on app_hidden.monitor_matches;
drop trigger if exists _300_count_inserted on app_hidden.monitor_matches;
drop trigger if exists _300_count_deleted on app_hidden.monitor_matches;
drop function if exists app_hidden.tg_monitor_matches__exercise_type();
drop function if exists app_hidden.tg_monitor_matches__count();
drop function if exists app_hidden.p2000_capcode_messages_count(uuid, timestamptz, timestamptz, text);
drop function if exists app_hidden.p2000_monitor_messages_count(uuid, timestamptz, timestamptz, text);
drop function if exists app_hidden.amsterdam_whole_days(timestamptz, timestamptz);
drop table if exists app_hidden.p2000_daily_capcode_counts;
drop table if exists app_hidden.monitor_daily_counts;
alter table app_hidden.monitor_matches drop column if exists exercise_type;

-- The whole Dutch days inside [range_from, range_to]: from the first midnight at or after
-- range_from to the last day that ends by range_to (first_day > last_day when there is none).
create function app_hidden.amsterdam_whole_days(range_from timestamptz, range_to timestamptz, out first_day date, out last_day date)
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select case when range_from = '-infinity' then '-infinity'::date
              else (range_from at time zone 'Europe/Amsterdam')::date
                   + case when (range_from at time zone 'Europe/Amsterdam')::time = '00:00' then 0 else 1 end end,
         case when range_to = 'infinity' then 'infinity'::date
              else ((range_to + interval '1 microsecond') at time zone 'Europe/Amsterdam')::date - 1 end
$$;
grant execute on function app_hidden.amsterdam_whole_days(timestamptz, timestamptz) to app_analyst, app_visitor;

-- 1. Messages per capcode and Dutch day.
create table app_hidden.p2000_daily_capcode_counts (
  capcode_uuid uuid not null,
  day date not null,
  exercise_type text not null,
  messages integer not null default 0,
  primary key (capcode_uuid, day, exercise_type)
);
alter table app_hidden.p2000_daily_capcode_counts enable row level security;
create policy select_all on app_hidden.p2000_daily_capcode_counts for select to app_analyst, app_visitor using (true);
grant select on app_hidden.p2000_daily_capcode_counts to app_analyst, app_visitor;
comment on table app_hidden.p2000_daily_capcode_counts is 'Messages per capcode, day (Europe/Amsterdam) and exercise type.';

insert into app_hidden.p2000_daily_capcode_counts (capcode_uuid, day, exercise_type, messages)
select c.uuid, (m.sended at time zone 'Europe/Amsterdam')::date, m.exercise_type, count(*)
  from app_public.p2000_messages m join app_public.p2000_capcodes c on c.name = any (m.capcode_names)
 group by 1, 2, 3;

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
      on conflict (day, exercise_type, dimension, key) do update set messages = d.messages + excluded.messages$f$, changes),
    -- The capcodes of a message are its capcode_names (created before this runs, as its links are).
    format($f$
      insert into app_hidden.p2000_daily_capcode_counts as k (capcode_uuid, day, exercise_type, messages)
      select p.uuid, (c.sended at time zone 'Europe/Amsterdam')::date, c.exercise_type, sum(c.sign)
        from (%s) c join app_public.p2000_capcodes p on p.name = any (c.capcode_names)
       group by 1, 2, 3 having sum(c.sign) <> 0 order by 1, 2, 3
      on conflict (capcode_uuid, day, exercise_type) do update set messages = k.messages + excluded.messages$f$, changes)
  ]
$$;
comment on function app_hidden.p2000_rollup_statements(text) is
  'The statements that add rows (a query of message rows with a sign column, +1 or -1) to the hourly, hourly-urgency, daily and daily-capcode roll-ups.';

-- 2. Matches per monitor and Dutch day. A match row keeps its message's exercise type (as it keeps
-- its time), so that removing it (the message deleted) needs no message.
alter table app_hidden.monitor_matches add column exercise_type text not null default 'none';
update app_hidden.monitor_matches mm set exercise_type = m.exercise_type
  from app_public.p2000_messages m where m.uuid = mm.message_uuid and m.exercise_type <> 'none';

create function app_hidden.tg_monitor_matches__exercise_type() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  new.exercise_type := coalesce((select m.exercise_type from app_public.p2000_messages m where m.uuid = new.message_uuid), 'none');
  return new;
end;
$$;
create trigger _100_exercise_type before insert on app_hidden.monitor_matches
  for each row execute function app_hidden.tg_monitor_matches__exercise_type();

create table app_hidden.monitor_daily_counts (
  monitor_uuid uuid not null references app_public.monitors (uuid) on delete cascade,
  day date not null,
  exercise_type text not null,
  messages integer not null default 0,
  primary key (monitor_uuid, day, exercise_type)
);
alter table app_hidden.monitor_daily_counts enable row level security;
create policy select_current_environment on app_hidden.monitor_daily_counts for select to app_visitor
  using (monitor_uuid in (select app_hidden.current_environment_monitor_uuids()));
grant select on app_hidden.monitor_daily_counts to app_visitor;
comment on table app_hidden.monitor_daily_counts is 'Matches per monitor, day (Europe/Amsterdam) and exercise type of the message.';

insert into app_hidden.monitor_daily_counts (monitor_uuid, day, exercise_type, messages)
select mm.monitor_uuid, (mm.sended at time zone 'Europe/Amsterdam')::date, mm.exercise_type, count(*)
  from app_hidden.monitor_matches mm group by 1, 2, 3;

create function app_hidden.tg_monitor_matches__count() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  if tg_op = 'INSERT' then
    insert into app_hidden.monitor_daily_counts as k (monitor_uuid, day, exercise_type, messages)
    select n.monitor_uuid, (n.sended at time zone 'Europe/Amsterdam')::date, n.exercise_type, count(*)
      from new_rows n group by 1, 2, 3 order by 1, 2, 3
    on conflict (monitor_uuid, day, exercise_type) do update set messages = k.messages + excluded.messages;
  else
    -- Only existing rows: when the monitor itself is deleted, its counts go by their own cascade.
    update app_hidden.monitor_daily_counts k set messages = k.messages - o.messages
      from (select o.monitor_uuid, (o.sended at time zone 'Europe/Amsterdam')::date as day, o.exercise_type, count(*)::integer as messages
              from old_rows o group by 1, 2, 3) o
     where k.monitor_uuid = o.monitor_uuid and k.day = o.day and k.exercise_type = o.exercise_type;
  end if;
  return null;
end;
$$;
create trigger _300_count_inserted after insert on app_hidden.monitor_matches
  referencing new table as new_rows for each statement execute function app_hidden.tg_monitor_matches__count();
create trigger _300_count_deleted after delete on app_hidden.monitor_matches
  referencing old table as old_rows for each statement execute function app_hidden.tg_monitor_matches__count();

-- 3. Counts of one capcode or one monitor from the roll-ups: whole Dutch days summed, the partial
-- days at either end of the range counted from the index (capcode, sended) or (monitor, sended).
create function app_hidden.p2000_capcode_messages_count(capcode uuid, range_from timestamptz, range_to timestamptz, exercise text)
  returns integer
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
  set plan_cache_mode to force_generic_plan
as $$
declare
  exercises text[] := case when exercise = 'all' then array['none', 'test', 'proefalarm', 'oefening'] else array[exercise] end;
  first_day date;
  last_day date;
  days_from timestamptz;
  days_to timestamptz;
  result integer := 0;
begin
  if range_from > range_to then
    return 0;
  end if;
  select w.first_day, w.last_day into first_day, last_day from app_hidden.amsterdam_whole_days(range_from, range_to) w;
  days_from := first_day::timestamp at time zone 'Europe/Amsterdam';
  days_to := (last_day + 1)::timestamp at time zone 'Europe/Amsterdam';
  if first_day > last_day then
    return (select count(*) from app_public.p2000_message_capcodes mc join app_public.p2000_messages m on m.uuid = mc.message_uuid
             where mc.capcode_uuid = capcode and mc.sended between range_from and range_to and m.exercise_type = any (exercises));
  end if;
  select coalesce(sum(k.messages), 0)::integer into result from app_hidden.p2000_daily_capcode_counts k
   where k.capcode_uuid = capcode and k.day between first_day and last_day and k.exercise_type = any (exercises);
  if range_from < days_from then
    result := result + (select count(*) from app_public.p2000_message_capcodes mc join app_public.p2000_messages m on m.uuid = mc.message_uuid
                         where mc.capcode_uuid = capcode and mc.sended >= range_from and mc.sended < days_from
                           and m.exercise_type = any (exercises));
  end if;
  if range_to >= days_to then
    result := result + (select count(*) from app_public.p2000_message_capcodes mc join app_public.p2000_messages m on m.uuid = mc.message_uuid
                         where mc.capcode_uuid = capcode and mc.sended >= days_to and mc.sended <= range_to
                           and m.exercise_type = any (exercises));
  end if;
  return result;
end;
$$;
grant execute on function app_hidden.p2000_capcode_messages_count(uuid, timestamptz, timestamptz, text) to app_analyst, app_visitor;

create function app_hidden.p2000_monitor_messages_count(monitor uuid, range_from timestamptz, range_to timestamptz, exercise text)
  returns integer
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
  set plan_cache_mode to force_generic_plan
as $$
declare
  exercises text[] := case when exercise = 'all' then array['none', 'test', 'proefalarm', 'oefening'] else array[exercise] end;
  first_day date;
  last_day date;
  days_from timestamptz;
  days_to timestamptz;
  result integer := 0;
begin
  if range_from > range_to then
    return 0;
  end if;
  select w.first_day, w.last_day into first_day, last_day from app_hidden.amsterdam_whole_days(range_from, range_to) w;
  days_from := first_day::timestamp at time zone 'Europe/Amsterdam';
  days_to := (last_day + 1)::timestamp at time zone 'Europe/Amsterdam';
  if first_day > last_day then
    return (select count(*) from app_hidden.monitor_matches mm
             where mm.monitor_uuid = monitor and mm.sended between range_from and range_to and mm.exercise_type = any (exercises));
  end if;
  select coalesce(sum(k.messages), 0)::integer into result from app_hidden.monitor_daily_counts k
   where k.monitor_uuid = monitor and k.day between first_day and last_day and k.exercise_type = any (exercises);
  if range_from < days_from then
    result := result + (select count(*) from app_hidden.monitor_matches mm
                         where mm.monitor_uuid = monitor and mm.sended >= range_from and mm.sended < days_from
                           and mm.exercise_type = any (exercises));
  end if;
  if range_to >= days_to then
    result := result + (select count(*) from app_hidden.monitor_matches mm
                         where mm.monitor_uuid = monitor and mm.sended >= days_to and mm.sended <= range_to
                           and mm.exercise_type = any (exercises));
  end if;
  return result;
end;
$$;
grant execute on function app_hidden.p2000_monitor_messages_count(uuid, timestamptz, timestamptz, text) to app_visitor;

-- As in migration 000008, with the two branches before the scan.
create or replace function app_public.p2000_messages_count(filter app_public.p2000_message_filter default null)
  returns integer
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
  set plan_cache_mode to force_generic_plan
as $$
declare
  exercise text := coalesce((filter).exercise_type, 'none');
  discipline_keys text[];
  range_from timestamptz;
  range_to timestamptz;
  first_day date;
  last_day date;
  whole_days integer;
  single_capcode uuid;
begin
  perform app_hidden.p2000_message_conditions(filter); -- validates the filter (and that the monitor is the environment's)
  range_from := coalesce(((filter).sended)."from", '-infinity');
  range_to := coalesce(((filter).sended)."to", 'infinity');
  if (filter).dossier is null and (filter).vehicle is null and (filter).disciplines is null then
    -- One capcode (by uuid or by name) or one monitor: their daily roll-ups.
    if (filter).monitor is null then
      single_capcode := app_hidden.p2000_single_capcode(filter);
      if single_capcode is not null then
        return app_hidden.p2000_capcode_messages_count(single_capcode, range_from, range_to, exercise);
      end if;
    elsif (filter).capcodes is null and (filter).capcode is null then
      return app_hidden.p2000_monitor_messages_count(app_hidden.try_uuid(((filter).monitor).uuid), range_from, range_to, exercise);
    end if;
  end if;
  if (filter).capcodes is not null or (filter).capcode is not null or (filter).dossier is not null
     or (filter).vehicle is not null or (filter).monitor is not null then
    return app_hidden.p2000_messages_count_by_scan(filter);
  end if;
  if (filter).disciplines is not null then
    discipline_keys := array(select d.uuid::text from app_public.p2000_disciplines d, unnest((filter).disciplines) x
      where d.uuid = app_hidden.try_uuid(x) or lower(d.name) = lower(btrim(x)) or lower(d.slug) = lower(btrim(x)));
  end if;
  -- Whole days: from the first midnight at or after range_from to the last day ending by range_to.
  select w.first_day, w.last_day into first_day, last_day from app_hidden.amsterdam_whole_days(range_from, range_to) w;
  if first_day > last_day then
    return app_hidden.p2000_messages_count_between(range_from, range_to, exercise, discipline_keys::uuid[]);
  end if;
  select coalesce(sum(d.messages), 0)::integer into whole_days from app_hidden.p2000_daily_counts d
   where d.day between first_day and last_day
     and (exercise = 'all' or d.exercise_type = exercise)
     and d.dimension = case when discipline_keys is null then 'total' else 'discipline' end
     and (discipline_keys is null or d.key = any (discipline_keys));
  if range_from <> '-infinity' and range_from < first_day::timestamp at time zone 'Europe/Amsterdam' then
    whole_days := whole_days + app_hidden.p2000_messages_count_between(range_from,
      (first_day::timestamp at time zone 'Europe/Amsterdam') - interval '1 microsecond', exercise, discipline_keys::uuid[]);
  end if;
  if range_to <> 'infinity' and range_to >= (last_day + 1)::timestamp at time zone 'Europe/Amsterdam' then
    whole_days := whole_days + app_hidden.p2000_messages_count_between(
      (last_day + 1)::timestamp at time zone 'Europe/Amsterdam', range_to, exercise, discipline_keys::uuid[]);
  end if;
  return whole_days;
end;
$$;

-- 4. p2000MessageStatistics: the all-time total through the count (roll-ups where it can).
create or replace function app_public.p2000_message_statistics(filter app_public.p2000_message_filter default null, chart_days integer default 30)
  returns app_public.p2000_message_statistics
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  days integer := coalesce(chart_days, 30);
  since timestamptz;
  result app_public.p2000_message_statistics;
  conditions text := app_hidden.p2000_message_conditions(filter);
begin
  if days < 1 or days > 90 then
    raise exception 'chartDays must be between 1 and 90 (got %).', days using errcode = 'XINPT';
  end if;
  since := ((now() at time zone 'Europe/Amsterdam')::date - (days - 1)) at time zone 'Europe/Amsterdam';
  result.chart_days := days;
  result.total := app_public.p2000_messages_count(filter);
  execute format($q$
    with chosen as (select m.* from app_public.p2000_messages m where %s and m.sended >= $2)
    select
      array(select row(day::date, (select count(*) from chosen c where (c.sended at time zone 'Europe/Amsterdam')::date = day::date))::app_public.p2000_day_count
              from generate_series(($2 at time zone 'Europe/Amsterdam')::date, (now() at time zone 'Europe/Amsterdam')::date, interval '1 day') day),
      array(select row(d.uuid::text, d.name, count(*))::app_public.p2000_count from chosen c join app_public.p2000_disciplines d on d.uuid = c.discipline_uuid
              group by d.uuid, d.name order by count(*) desc, d.name),
      array(select row(u.code, u.name, count(*))::app_public.p2000_count from chosen c join app_public.p2000_urgencies u on u.uuid = c.urgency_uuid
              group by u.code, u.name, u.rank order by u.rank, u.code),
      array(select row(r.number, r.name, count(*))::app_public.p2000_count from chosen c join app_public.p2000_regions r on r.uuid = c.region_uuid
              group by r.number, r.name order by count(*) desc, r.number)
  $q$, conditions) into result.per_day, result.by_discipline, result.by_urgency, result.by_region using filter, since;
  return result;
end;
$$;

-- 5. p2000Messages with one monitor or several capcodes: newest first from the index of the
-- monitor's matches (monitor, sended) or of each capcode's links (capcode, sended), as one
-- capcode already is, instead of every message the filter selects sorted (the 10 busiest
-- capcodes of a region: 16,000 messages fetched for a page of 50; a region monitor: a parallel
-- walk of all messages probing the matches, whose workers each cost more than the page).
-- As in migration 000007, with the two branches after the one for a single capcode.
create or replace function app_public.p2000_messages(first integer default null, page integer default null,
    filter app_public.p2000_message_filter default null)
  returns setof app_public.p2000_messages
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  single_capcode uuid := app_hidden.p2000_single_capcode(filter);
  conditions text := app_hidden.p2000_message_conditions(filter); -- also validates the filter
  exercise text := coalesce((filter).exercise_type, 'none');
  range_from timestamptz := coalesce(((filter).sended)."from", '-infinity');
  range_to timestamptz := coalesce(((filter).sended)."to", 'infinity');
  page_size integer := app_hidden.page_limit(first);
  skip integer := app_hidden.page_offset(first, page);
  capcode_uuids uuid[];
begin
  if (filter).dossier is null and (filter).disciplines is null and (filter).vehicle is null then
    -- One capcode and a time range: static SQL, so its plan is prepared once per connection.
    if single_capcode is not null and (filter).monitor is null then
      return query
        select m.* from app_public.p2000_message_capcodes mc join app_public.p2000_messages m on m.uuid = mc.message_uuid
         where mc.capcode_uuid = single_capcode and mc.sended between range_from and range_to
           and (exercise = 'all' or m.exercise_type = exercise)
         order by mc.sended desc, m.uuid
         limit page_size offset skip;
      return;
    end if;
    -- One monitor: its matches newest first (the monitor was checked by p2000_message_conditions).
    if (filter).monitor is not null and (filter).capcodes is null and (filter).capcode is null then
      return query
        select m.* from app_hidden.monitor_matches mm join app_public.p2000_messages m on m.uuid = mm.message_uuid
         where mm.monitor_uuid = app_hidden.try_uuid(((filter).monitor).uuid) and mm.sended between range_from and range_to
           and (exercise = 'all' or m.exercise_type = exercise)
         order by mm.sended desc, m.uuid
         limit page_size offset skip;
      return;
    end if;
    -- Several capcodes, by uuid or by name (not both): each one's newest page + offset, then the
    -- newest of those (a message of the page is within the first page + offset of each of its capcodes).
    if (filter).monitor is null and ((filter).capcodes is null) <> ((filter).capcode is null) then
      capcode_uuids := case when (filter).capcodes is not null
        then array(select distinct app_hidden.try_uuid(c) from unnest((filter).capcodes) c)
        else array(select c.uuid from app_public.p2000_capcodes c
                    where c.name = any (array(select app_hidden.p2000_normalize_capcode(n) from unnest(((filter).capcode).names) n))) end;
      return query
        select m.* from app_public.p2000_messages m
         where m.uuid in (select t.uuid from unnest(capcode_uuids) u (capcode_uuid),
                            lateral (select x.uuid from app_public.p2000_message_capcodes mc
                                       join app_public.p2000_messages x on x.uuid = mc.message_uuid
                                      where mc.capcode_uuid = u.capcode_uuid and mc.sended between range_from and range_to
                                        and (exercise = 'all' or x.exercise_type = exercise)
                                      order by mc.sended desc, x.uuid
                                      limit page_size + skip) t)
         order by m.sended desc, m.uuid
         limit page_size offset skip;
      return;
    end if;
  end if;
  return query execute format(
    'select m.* from app_public.p2000_messages m where %s order by m.sended desc, m.uuid limit %s offset %s',
    conditions, page_size, skip)
  using filter;
end;
$$;
