--! Previous: sha1:20fb3eacb180109b382b2db10a51b80d4a58cbbc
--! Hash: sha1:a31e9b58bc981dd1d5f4df7d9e4cac855fc8b0f6
--! Message: AMBER alerts: a message without Sent keeps its first start

-- AMBER alerts: an alert message without Sent keeps the start first stored (it took the time it
-- was first seen), instead of moving its start to every poll's time.

create or replace function app_private.ingest_amber_alerts(alerts jsonb, source text) returns jsonb
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  started integer;
  updated integer;
  ended integer;
begin
  perform pg_advisory_xact_lock(hashtext('amber_alerts'));
  drop table if exists pg_temp.incoming_amber;
  -- A Cancel outranks an Alert of the same id in one document.
  create temporary table pg_temp.incoming_amber on commit drop as
    select distinct on (a.alert_id) a.*
      from jsonb_to_recordset(alerts) as a (alert_id text, level integer, type text, sent timestamptz, title text,
             description text, description_ext text, image_url text, read_more_url text)
     order by a.alert_id, a.type = 'cancel' desc;

  with written as (
    insert into app_public.amber_alerts as t (alert_id, level, started_at, title, description, description_ext, image_url, read_more_url)
    select a.alert_id, a.level, coalesce(a.sent, now()), a.title, a.description, a.description_ext, a.image_url, a.read_more_url
      from pg_temp.incoming_amber a where a.type = 'alert'
    on conflict (alert_id) do update set
      level = excluded.level, started_at = coalesce((select a.sent from pg_temp.incoming_amber a where a.alert_id = excluded.alert_id), t.started_at), ended_at = null, title = excluded.title,
      description = excluded.description, description_ext = excluded.description_ext, image_url = excluded.image_url,
      read_more_url = excluded.read_more_url, changed = now()
    where (t.level, t.started_at, t.ended_at, t.title, t.description, t.description_ext, t.image_url, t.read_more_url)
          is distinct from (excluded.level, coalesce((select a.sent from pg_temp.incoming_amber a where a.alert_id = excluded.alert_id), t.started_at), null::timestamptz, excluded.title, excluded.description,
                            excluded.description_ext, excluded.image_url, excluded.read_more_url)
    returning (xmax = 0) as was_inserted
  )
  select count(*) filter (where was_inserted), count(*) filter (where not was_inserted) into started, updated from written;

  -- A Cancel of an alert never seen running still belongs in the history.
  insert into app_public.amber_alerts (alert_id, level, started_at, ended_at)
  select a.alert_id, a.level, coalesce(a.sent, now()), now() from pg_temp.incoming_amber a where a.type = 'cancel'
  on conflict (alert_id) do nothing;

  with gone as (
    update app_public.amber_alerts t set ended_at = now(), title = null, description = null, description_ext = null,
           image_url = null, read_more_url = null, changed = now()
     where t.ended_at is null
       and not exists (select 1 from pg_temp.incoming_amber a where a.alert_id = t.alert_id and a.type = 'alert')
    returning 1
  )
  select count(*) into ended from gone;

  return jsonb_build_object('alerts', jsonb_array_length(alerts), 'started', started, 'updated', updated, 'ended', ended,
    'source', left(source, 200));
end;
$$;
