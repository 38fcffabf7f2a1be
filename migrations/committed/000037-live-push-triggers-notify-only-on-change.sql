--! Previous: sha1:eeb51c74126112dd166b0c6ac28e803fc35c60f2
--! Hash: sha1:40e33d314950e01f2766ac16c6f896dfe23f0d93
--! Message: Review mends of the live push triggers: traffic incidents stored again (the insert trigger named old_incidents) and notified only when opened or closed; alerts and weather notify only when rows changed; p2000Messages by time range alone as static SQL

-- Review mends of migration 000035 (test/api/live-feeds.test.ts), and a static p2000Messages path.
-- 1. Traffic incidents: the insert trigger shared a function that named old_incidents, which an
--    INSERT trigger does not have, so every publication was refused; and a statement trigger fires
--    on an upsert that inserted nothing. Now: an insert notifies when it inserted rows, an update
--    when an incident was closed or reopened.
-- 2. NL-Alerts, AMBER alerts and weather events notified after every statement, also one that
--    changed no row (every poll of an unchanged list). Now only when rows changed: a transition
--    table per event (PostgreSQL allows them on single-event triggers only).

-- Re-runnable while it is current.sql (graphile-migrate watch).
drop trigger if exists _950_notify_subscribers on app_public.meteo_warning_events;
drop trigger if exists _950_notify_subscribers on app_public.nl_alerts;
drop trigger if exists _950_notify_subscribers on app_public.amber_alerts;
drop trigger if exists _950_notify_subscribers_on_insert on app_public.nl_alerts;
drop trigger if exists _950_notify_subscribers_on_update on app_public.nl_alerts;
drop trigger if exists _950_notify_subscribers_on_delete on app_public.nl_alerts;
drop trigger if exists _950_notify_subscribers_on_insert on app_public.amber_alerts;
drop trigger if exists _950_notify_subscribers_on_update on app_public.amber_alerts;
drop trigger if exists _950_notify_subscribers_on_delete on app_public.amber_alerts;
drop function if exists app_hidden.tg__notify_channel();
drop function if exists app_hidden.tg__notify_channel_when_changed();

create or replace function app_hidden.tg_traffic_incidents__notify_subscribers() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  if tg_op = 'INSERT' then
    if exists (select 1 from new_incidents) then
      perform pg_notify('traffic_incidents', '');
    end if;
  elsif exists (select 1 from new_incidents n join old_incidents o on o.uuid = n.uuid
                 where (n.closed_at is null) <> (o.closed_at is null)) then
    perform pg_notify('traffic_incidents', '');
  end if;
  return null;
end;
$$;

-- A feed whose subscribers read the query's answer again: the channel is the trigger's argument,
-- and the statement's changed rows (its transition table) must not be empty.
create function app_hidden.tg__notify_channel_when_changed() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  if exists (select 1 from changed_rows) then
    perform pg_notify(tg_argv[0], '');
  end if;
  return null;
end;
$$;
create trigger _950_notify_subscribers after insert on app_public.meteo_warning_events
  referencing new table as changed_rows for each statement execute function app_hidden.tg__notify_channel_when_changed('meteo_regions');
create trigger _950_notify_subscribers_on_insert after insert on app_public.nl_alerts
  referencing new table as changed_rows for each statement execute function app_hidden.tg__notify_channel_when_changed('nl_alerts');
create trigger _950_notify_subscribers_on_update after update on app_public.nl_alerts
  referencing new table as changed_rows for each statement execute function app_hidden.tg__notify_channel_when_changed('nl_alerts');
create trigger _950_notify_subscribers_on_delete after delete on app_public.nl_alerts
  referencing old table as changed_rows for each statement execute function app_hidden.tg__notify_channel_when_changed('nl_alerts');
create trigger _950_notify_subscribers_on_insert after insert on app_public.amber_alerts
  referencing new table as changed_rows for each statement execute function app_hidden.tg__notify_channel_when_changed('amber_alerts');
create trigger _950_notify_subscribers_on_update after update on app_public.amber_alerts
  referencing new table as changed_rows for each statement execute function app_hidden.tg__notify_channel_when_changed('amber_alerts');
create trigger _950_notify_subscribers_on_delete after delete on app_public.amber_alerts
  referencing old table as changed_rows for each statement execute function app_hidden.tg__notify_channel_when_changed('amber_alerts');

-- 3. p2000Messages with no filter but a time range and an exercise type (the feed's default view
-- and its days and months) ran as dynamic SQL, planned on every call. At ten years of history
-- (bench/p2000-history.ts) and 16 clients that planning was a fifth of PostgreSQL's time per
-- request. Now static SQL with its plan cached per connection, as one capcode and one monitor
-- already are; the other filters still build their conditions (app_hidden.p2000_message_conditions).
-- As in migration 000034, with the branch before the one for several capcodes.
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
    -- A time range alone (the newest messages, a day, a month): static SQL, so its plan is
    -- prepared once per connection instead of planned on every call, by the index of the
    -- exercise type and time.
    if (filter).monitor is null and (filter).capcodes is null and (filter).capcode is null then
      if exercise = 'all' then
        return query
          select m.* from app_public.p2000_messages m
           where m.sended between range_from and range_to
           order by m.sended desc, m.uuid
           limit page_size offset skip;
      else
        return query
          select m.* from app_public.p2000_messages m
           where m.exercise_type = exercise and m.sended between range_from and range_to
           order by m.sended desc, m.uuid
           limit page_size offset skip;
      end if;
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
