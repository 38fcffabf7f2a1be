--! Previous: sha1:e8cb46e38c51982c79adc6a0e8a83d50d58d54a3
--! Hash: sha1:4c91c46e6ac07b9dd754095eec634f919ff8103b
--! Message: Timeline opened and message entries derived from the dossier's messages; only raises stored

-- A dossier's "opened" and "message" timeline entries are its messages (p2000_messages.dossier_uuid),
-- read as entries, not rows stored beside them (issue 27, FLEX ingestion over 2,000 messages a
-- second). Storing one p2000_dossier_events row per message cost the store about 90 µs a message:
-- the row and its three index entries, a foreign-key check on the dossier and a deferred one on the
-- message (each locking a row, with its WAL record), and two statement triggers for the one-row
-- INSERT inside the per-message dossier assignment. The table keeps what only it knows: the raises
-- of urgency and GRIP.

-- The rows that are now derived. The table's kind check still allows them: a service of the
-- previous version storing messages while this migration runs (rolling upgrades) may add a few
-- more, which the timeline does not read (app_hidden.p2000_dossier_timeline_rows reads the raises
-- only) and a later cleanup may delete. (At the ten-year history, 10 million rows: the delete takes
-- minutes; docs/migrations.md says how a DBA can delete them in batches before this migration.)
delete from app_public.p2000_dossier_events where kind in ('opened', 'message');
-- The table's comment is the API's description of a timeline entry, which is unchanged; that the
-- table stores the raises only is said by app_hidden.p2000_dossier_timeline_rows, which reads it.
comment on column app_public.p2000_dossier_events.kind is 'What happened: opened, message, urgency_raised or grip_raised.';

-- No SET clause: a SQL function without one is inlined into app_public.p2000_dossier_timeline_entries
-- and planned with the page's dossiers (migrations 000039 and 000040); the body names its schemas.
create or replace function app_hidden.p2000_dossier_timeline_rows(dossier uuid)
  returns setof app_public.p2000_dossier_events
  language sql stable parallel safe
as $$
  -- Each message of the dossier is an entry (its uuid the message's): the first (by sended, then
  -- by uuid: as stored) opened it, with the urgency it opened with (the first raise's previous
  -- value, else its own, which re-enrichment may have changed since); the rest are messages.
  -- Then the stored raises.
  select m.uuid, m.dossier_uuid, m.uuid, m.sended,
         case when m.uuid = opener.uuid then 'opened' else 'message' end,
         null::text,
         case when m.uuid = opener.uuid then
           coalesce((select e.previous_value from app_public.p2000_dossier_events e
                      where e.dossier_uuid = dossier and e.kind = 'urgency_raised'
                      order by e.sended, e.uuid limit 1),
                    (select u.code from app_public.p2000_urgencies u where u.uuid = m.urgency_uuid))
         end,
         m.created
    from app_public.p2000_messages m,
         lateral (select f.uuid from app_public.p2000_messages f where f.dossier_uuid = dossier
                   order by f.sended, f.uuid limit 1) opener
   where m.dossier_uuid = dossier
  union all
  select e.uuid, e.dossier_uuid, e.message_uuid, e.sended, e.kind, e.previous_value, e.new_value, e.created
    from app_public.p2000_dossier_events e
   where e.dossier_uuid = dossier and e.kind in ('urgency_raised', 'grip_raised')
$$;
grant execute on function app_hidden.p2000_dossier_timeline_rows(uuid) to app_analyst, app_visitor;
comment on function app_hidden.p2000_dossier_timeline_rows(uuid) is 'Every entry of a dossier''s timeline, unordered (app_public.p2000_dossier_events stores only the raises since migration 000080, and rows of other kinds left in it are not read): each of its messages (the first by sended, then by uuid, is "opened" with the urgency it opened with; the others "message"; the entry''s uuid is the message''s) and the stored raises of urgency and GRIP. Entries are ordered by sended, then uuid: uuids are uuidv7, so a message comes before the raise it caused and messages of one second in their stored order. The messages come from p2000_messages_dossier_idx, the raises from p2000_dossier_events_dossier_idx.';

create or replace function app_public.p2000_dossier_timeline(filter app_public.p2000_dossier_timeline_filter, first integer default 50, page integer default 1)
  returns setof app_public.p2000_dossier_events
  language plpgsql stable parallel safe
  set search_path to 'pg_catalog', 'public', 'pg_temp'
as $$
declare
  d app_public.p2000_dossiers;
begin
  if ((filter).dossier).uuid is not null and ((filter).message).uuid is not null then
    d := app_hidden.p2000_referenced_dossier((filter).dossier, null);
    if d.uuid is distinct from (app_hidden.p2000_referenced_dossier(null, (filter).message)).uuid then
      raise exception 'filter.message is not a message of filter.dossier.' using errcode = 'XINPT';
    end if;
  else
    d := app_hidden.p2000_referenced_dossier((filter).dossier, (filter).message);
  end if;
  if coalesce((filter).order_by, 'newestFirst') not in ('newestFirst', 'oldestFirst') then
    raise exception 'orderBy must be newestFirst or oldestFirst (got "%").', (filter).order_by using errcode = 'XINPT';
  end if;
  return query
    select e.* from app_hidden.p2000_dossier_timeline_rows(d.uuid) e
     order by case when (filter).order_by = 'oldestFirst' then e.sended end asc,
              case when (filter).order_by = 'oldestFirst' then e.uuid end asc,
              case when coalesce((filter).order_by, 'newestFirst') = 'newestFirst' then e.sended end desc,
              case when coalesce((filter).order_by, 'newestFirst') = 'newestFirst' then e.uuid end desc
     limit app_hidden.page_limit(first) offset app_hidden.page_offset(first, page);
end;
$$;

create or replace function app_public.p2000_dossier_timeline_entries(d app_public.p2000_dossier)
  returns setof app_public.p2000_dossier_events
  language sql stable parallel safe
as $$
  select e.* from app_hidden.p2000_dossier_timeline_rows(d.uuid) e
   order by case when d.timeline_order = 'oldestFirst' then e.sended end asc,
            case when d.timeline_order = 'oldestFirst' then e.uuid end asc,
            case when d.timeline_order <> 'oldestFirst' then e.sended end desc,
            case when d.timeline_order <> 'oldestFirst' then e.uuid end desc
   limit 500
$$;

-- The dossier's subscribers hear of each new message from the messages' statement trigger (the
-- events' trigger still tells of raises, and of rows a DBA writes).
create or replace function app_hidden.tg_p2000_messages__notify_subscribers()
  returns trigger
  language plpgsql
  set search_path to 'pg_catalog', 'public', 'pg_temp'
as $$
begin
  perform pg_notify('p2000_messages', json_build_object('uuids', array_agg(c.uuid order by c.sended, c.uuid))::text)
     from (select n.uuid, n.sended, (row_number() over (order by n.sended, n.uuid) - 1) / 200 as chunk
             from inserted n where n.sended between now() - interval '1 hour' and now() + interval '1 hour') c
    group by c.chunk;
  perform pg_notify('p2000_dossier:' || d.dossier_uuid, '')
     from (select distinct n.dossier_uuid from inserted n where n.dossier_uuid is not null) d;
  return null;
end;
$$;
comment on function app_hidden.tg_p2000_messages__notify_subscribers() is 'Trigger: NOTIFY p2000_messages with the uuids of a statement''s new messages that were sent within an hour of now (an import of history is not news), one notification per 200 so the payload stays under 8,000 bytes; and NOTIFY p2000_dossier:<uuid> for each dossier the statement''s messages joined or opened (its timeline grew). Both are sent at commit, so every API instance hears them whatever path stored the messages; identical notifications in a transaction are delivered once.';

create or replace function app_hidden.p2000_assign_dossier(m app_public.p2000_messages)
  returns uuid
  language plpgsql
  set search_path to 'pg_catalog', 'public', 'pg_temp'
  set plan_cache_mode to 'force_generic_plan'
as $$
declare
  d app_public.p2000_dossiers;
  new_rank smallint;
  old_rank smallint;
begin
  if m.exercise_type <> 'none' or coalesce(m.normalized_text, '') = '' then
    return null;
  end if;
  if m.incident_number is not null then
    select * into d from app_public.p2000_dossiers x
     where x.incident_number = m.incident_number and x.region_uuid is not distinct from m.region_uuid
       and x.last_sended > m.sended - interval '6 hours' and x.first_sended < m.sended + interval '1 hour'
     order by x.last_sended desc limit 1;
  end if;
  if d.uuid is null then
    select * into d from app_public.p2000_dossiers x
     where coalesce(x.region_uuid, app_hidden.no_region()) = coalesce(m.region_uuid, app_hidden.no_region())
       and md5(x.normalized_text) = md5(m.normalized_text) and x.normalized_text = m.normalized_text
       and x.discipline_uuid is not distinct from m.discipline_uuid
       and x.last_sended > m.sended - interval '2 hours' and x.first_sended < m.sended + interval '1 hour'
     order by x.last_sended desc limit 1;
  end if;
  if d.uuid is null and length(m.normalized_text) >= 12 then
    select * into d from app_public.p2000_dossiers x
     where coalesce(x.region_uuid, app_hidden.no_region()) = coalesce(m.region_uuid, app_hidden.no_region())
       and x.last_sended between m.sended - interval '30 minutes' and m.sended + interval '30 minutes'
       and length(x.normalized_text) >= 12
       and (m.normalized_text like x.normalized_text || '%' or x.normalized_text like m.normalized_text || '%')
     order by x.last_sended desc limit 1;
  end if;

  -- Opening a dossier or joining one is the message itself on the timeline
  -- (app_hidden.p2000_dossier_timeline_rows); only the raises are stored.
  if d.uuid is null then
    insert into app_public.p2000_dossiers (title, region_uuid, discipline_uuid, urgency_uuid, category_uuid, grip_level,
        exercise_type, incident_number, normalized_text, city, street, latitude, longitude, first_sended, last_sended, message_count)
    values (m.message, m.region_uuid, m.discipline_uuid, m.urgency_uuid, m.category_uuid, m.grip_level,
        m.exercise_type, m.incident_number, m.normalized_text, m.city, m.street, m.latitude, m.longitude, m.sended, m.sended, 1)
    returning * into d;
    return d.uuid;
  end if;

  select u.rank into new_rank from app_public.p2000_urgencies u where u.uuid = m.urgency_uuid;
  select u.rank into old_rank from app_public.p2000_urgencies u where u.uuid = d.urgency_uuid;
  if new_rank < coalesce(old_rank, 99) then
    insert into app_public.p2000_dossier_events (dossier_uuid, message_uuid, sended, kind, previous_value, new_value)
    values (d.uuid, m.uuid, m.sended, 'urgency_raised',
            (select u.code from app_public.p2000_urgencies u where u.uuid = d.urgency_uuid),
            (select u.code from app_public.p2000_urgencies u where u.uuid = m.urgency_uuid));
  end if;
  if m.grip_level > coalesce(d.grip_level, 0) then
    insert into app_public.p2000_dossier_events (dossier_uuid, message_uuid, sended, kind, previous_value, new_value)
    values (d.uuid, m.uuid, m.sended, 'grip_raised', d.grip_level::text, m.grip_level::text);
  end if;
  update app_public.p2000_dossiers x set
    last_sended = greatest(x.last_sended, m.sended),
    first_sended = least(x.first_sended, m.sended),
    message_count = x.message_count + 1,
    urgency_uuid = case when new_rank < coalesce(old_rank, 99) then m.urgency_uuid else x.urgency_uuid end,
    grip_level = greatest(x.grip_level, m.grip_level),
    incident_number = coalesce(x.incident_number, m.incident_number),
    category_uuid = coalesce(x.category_uuid, m.category_uuid),
    city = coalesce(x.city, m.city),
    street = coalesce(x.street, m.street),
    latitude = coalesce(x.latitude, m.latitude),
    longitude = coalesce(x.longitude, m.longitude)
   where x.uuid = d.uuid;
  return d.uuid;
end;
$$;
comment on function app_hidden.p2000_assign_dossier(m app_public.p2000_messages) is 'Puts a message into its dossier. The same incident number in the same region within 6 hours joins that dossier; otherwise the same text in the same region and discipline within 2 hours; otherwise a truncated retransmission within 30 minutes; otherwise it opens a new dossier. Urgency and GRIP only go up, and each raise is stored on the timeline (p2000_dossier_events); the message itself is the timeline''s opened or message entry (app_hidden.p2000_dossier_timeline_rows). The text rule reads the dossiers of the region with that text (p2000_dossiers_region_text_idx), the prefix rule the region''s dossiers of the hour around it (p2000_dossiers_region_recent_idx); neither reads the dossiers that come later, so a history loaded backwards (an older capture after newer traffic) is stored as fast as live traffic. force_generic_plan, as for the insert trigger that calls it per message.';
