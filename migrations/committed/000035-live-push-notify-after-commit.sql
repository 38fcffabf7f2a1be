--! Previous: sha1:85365b1a17a9a80155fd08c53ed4c8ad2493ba3c
--! Hash: sha1:cc33e779274b60e13938115731fe6524d0abd14a
--! Message: Live push: NOTIFY after commit for new P2000 messages (one per 200 of a statement), dossier changes, weather regions, traffic incidents opened or closed, NL-Alerts, AMBER alerts and aircraft; p2000_messages_of_batch for the p2000Messages subscription

-- Live push (GraphQL subscriptions, plugins/subscriptions.ts): the database announces what changed
-- on PostgreSQL NOTIFY channels, so every API instance hears it whatever path stored the data
-- (GraphQL, the FLEX reader, importers, a DBA's insert). A notification is sent at commit and
-- identical ones within a transaction are delivered once, so a batch insert is one notification
-- per channel (or per 200 new messages), not one per row.
--
-- Channels:
-- - p2000_messages: {"uuids": [...]}, the new messages of a statement that were sent in the last
--   hour (the window in which monitors match live too: an import of history is not news).
-- - p2000_dossier:<dossier uuid>: a dossier got a message, or its urgency or GRIP was raised.
-- - meteo_regions: a province's warning level or phenomena changed (a warning event).
-- - traffic_incidents: an incident was opened or closed.
-- - nl_alerts, amber_alerts: an alert was issued or changed (stopped, ended, updated text).
-- - aircraft:<icao> and aircraft:<registration, lower case>: an aircraft's state or position.

-- Re-runnable while it is current.sql (graphile-migrate watch).
drop trigger if exists _950_notify_subscribers on app_public.p2000_messages;
drop trigger if exists _950_notify_subscribers on app_public.p2000_dossier_events;
drop trigger if exists _950_notify_subscribers on app_public.meteo_warning_events;
drop trigger if exists _950_notify_subscribers_on_insert on app_public.traffic_incidents;
drop trigger if exists _950_notify_subscribers_on_update on app_public.traffic_incidents;
drop trigger if exists _950_notify_subscribers on app_public.nl_alerts;
drop trigger if exists _950_notify_subscribers on app_public.amber_alerts;
drop trigger if exists _950_notify_subscribers_on_insert on app_public.aircraft_states;
drop trigger if exists _950_notify_subscribers_on_update on app_public.aircraft_states;
drop function if exists app_hidden.tg_p2000_messages__notify_subscribers();
drop function if exists app_hidden.tg_p2000_dossier_events__notify_subscribers();
drop function if exists app_hidden.tg__notify_channel();
drop function if exists app_hidden.tg_traffic_incidents__notify_subscribers();
drop function if exists app_hidden.tg_aircraft_states__notify_subscribers();
drop function if exists app_public.p2000_messages_of_batch(uuid[], app_public.p2000_message_filter);

-- New messages, a notification per 200 (a payload must stay under 8,000 bytes).
create function app_hidden.tg_p2000_messages__notify_subscribers() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  perform pg_notify('p2000_messages', json_build_object('uuids', array_agg(c.uuid order by c.sended, c.uuid))::text)
     from (select n.uuid, n.sended, (row_number() over (order by n.sended, n.uuid) - 1) / 200 as chunk
             from inserted n where n.sended between now() - interval '1 hour' and now() + interval '1 hour') c
    group by c.chunk;
  return null;
end;
$$;
create trigger _950_notify_subscribers after insert on app_public.p2000_messages
  referencing new table as inserted for each statement execute function app_hidden.tg_p2000_messages__notify_subscribers();

-- Dossier events are written per message by the messages' row trigger: the same notification
-- for a dossier is sent once per transaction, so a batch makes one per dossier it touched.
create function app_hidden.tg_p2000_dossier_events__notify_subscribers() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  perform pg_notify('p2000_dossier:' || d.dossier_uuid, '') from (select distinct e.dossier_uuid from new_events e) d;
  return null;
end;
$$;
create trigger _950_notify_subscribers after insert on app_public.p2000_dossier_events
  referencing new table as new_events for each statement execute function app_hidden.tg_p2000_dossier_events__notify_subscribers();

-- A feed whose subscribers read the query's answer again: the channel is the trigger's argument.
create function app_hidden.tg__notify_channel() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  perform pg_notify(tg_argv[0], '');
  return null;
end;
$$;
create trigger _950_notify_subscribers after insert on app_public.meteo_warning_events
  for each statement execute function app_hidden.tg__notify_channel('meteo_regions');
create trigger _950_notify_subscribers after insert or update or delete on app_public.nl_alerts
  for each statement execute function app_hidden.tg__notify_channel('nl_alerts');
create trigger _950_notify_subscribers after insert or update or delete on app_public.amber_alerts
  for each statement execute function app_hidden.tg__notify_channel('amber_alerts');

-- Traffic: only an incident opened or closed (a new version of a running one is not news here).
create function app_hidden.tg_traffic_incidents__notify_subscribers() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  if tg_op = 'INSERT' or exists (select 1 from new_incidents n join old_incidents o on o.uuid = n.uuid
                                  where (n.closed_at is null) <> (o.closed_at is null)) then
    perform pg_notify('traffic_incidents', '');
  end if;
  return null;
end;
$$;
create trigger _950_notify_subscribers_on_insert after insert on app_public.traffic_incidents
  referencing new table as new_incidents for each statement execute function app_hidden.tg_traffic_incidents__notify_subscribers();
create trigger _950_notify_subscribers_on_update after update on app_public.traffic_incidents
  referencing old table as old_incidents new table as new_incidents
  for each statement execute function app_hidden.tg_traffic_incidents__notify_subscribers();

-- Aircraft: by ICAO address and by registration, the two ways aircraftLive names one.
create function app_hidden.tg_aircraft_states__notify_subscribers() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  perform pg_notify('aircraft:' || k.name, '')
     from (select distinct lower(x.name) as name
             from new_states s join app_public.aircraft_fleet f on f.icao = s.icao,
                  lateral (values (f.icao), (f.registration)) x (name)) k;
  return null;
end;
$$;
create trigger _950_notify_subscribers_on_insert after insert on app_public.aircraft_states
  referencing new table as new_states for each statement execute function app_hidden.tg_aircraft_states__notify_subscribers();
create trigger _950_notify_subscribers_on_update after update on app_public.aircraft_states
  referencing new table as new_states for each statement execute function app_hidden.tg_aircraft_states__notify_subscribers();

-- What a p2000Messages subscriber receives of one notification: those of its messages that pass
-- the subscription's filter, the filter read exactly as p2000Messages reads it
-- (app_hidden.p2000_message_conditions), oldest first. Not a Query field: subscriptions only.
create function app_public.p2000_messages_of_batch(message_uuids uuid[], filter app_public.p2000_message_filter default null)
  returns setof app_public.p2000_messages
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  if cardinality(message_uuids) > 200 then
    raise exception 'A batch names at most 200 messages.' using errcode = 'XINPT';
  end if;
  return query execute format(
    'select m.* from app_public.p2000_messages m where m.uuid = any ($2) and %s order by m.sended, m.uuid',
    app_hidden.p2000_message_conditions(filter))
  using filter, message_uuids;
end;
$$;
comment on function app_public.p2000_messages_of_batch(uuid[], app_public.p2000_message_filter) is
  E'@behavior -queryField\nThe messages of one p2000_messages notification that pass a filter (the p2000Messages subscription).';
grant execute on function app_public.p2000_messages_of_batch(uuid[], app_public.p2000_message_filter) to app_visitor;
