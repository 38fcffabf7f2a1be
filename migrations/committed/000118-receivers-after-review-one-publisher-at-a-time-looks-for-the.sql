--! Previous: sha1:0a991523f7ca8514cb50dcad8b608bbb10aab924
--! Hash: sha1:561ede86fa985b7b0cb8589b0954b3201d574a03
--! Message: Receivers after review: one publisher at a time looks for the earlier copy and stores (two receivers at once stored a page twice), a cleaner copy matched against the monitors again, copies garbled in different places recognised

-- Receivers, after review (issue 48):
-- 1. Two receivers publishing one page at the same moment stored it twice: each transaction looked
--    for the earlier copy before the other's was committed. Publishing takes one lock for the
--    look-up and the store (P2000 is a few pages a second nationally; the lock is held for a
--    batch's statements only). The same lock makes a batch sent again while the first attempt is
--    still running wait for it, and then answer duplicate.
-- 2. A cleaner copy changes the page's text: the page is matched again against the monitors, so a
--    keyword or an urgency the garbled text hid still notifies (a monitor matched before is not
--    notified twice: matches are one per monitor and message).
-- 3. Two copies garbled in different places are copies too: both texts with each unreadable
--    character as one unknown character, of equal length, equal wherever both are readable.
create or replace function app_hidden.p2000_same_page(a text, b text) returns boolean
  language sql immutable parallel safe
as $$
  with marked as (
    -- Every unreadable character (multimon-ng's <NUL>-style names, control characters) as the
    -- replacement character: one unknown character each.
    select regexp_replace(a, '<[A-Z]{2,3}>|[[:cntrl:]]', chr(65533), 'g') as x,
           regexp_replace(b, '<[A-Z]{2,3}>|[[:cntrl:]]', chr(65533), 'g') as y
  )
  select a = b
      or (strpos(x || y, chr(65533)) > 0 and length(x) = length(y)
          and (select bool_and(substr(x, i, 1) = substr(y, i, 1) or substr(x, i, 1) = chr(65533) or substr(y, i, 1) = chr(65533))
                 from generate_series(1, length(x)) i)
          -- mostly readable: a page of unknown characters is a copy of nothing
          and length(replace(x, chr(65533), '')) * 2 > length(x))
    from marked
$$;
comment on function app_hidden.p2000_same_page(text, text) is 'Whether two texts are copies of one page: equal, or (one or both garbled) of equal length with each unreadable character (multimon-ng''s <NUL>-style names, the replacement character, control characters) as one unknown character, and equal wherever both are readable; a text mostly unreadable is a copy of nothing.';

create or replace function app_hidden.publish_p2000_page(receiver_uuid uuid, message text, sended timestamptz, capcodes text[]) returns uuid
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  copy_of uuid;
  stored uuid;
begin
  if message is null or length(btrim(message)) not between 1 and 2000 or sended is null then
    raise exception 'A page has a text of 1 to 2000 characters and a time.' using errcode = 'XINPT';
  end if;
  -- One publisher at a time looks for the earlier copy and stores: see the migration's note 1.
  perform pg_advisory_xact_lock(hashtext('p2000_publish'));
  copy_of := app_hidden.p2000_earlier_copy(message, sended, capcodes);
  if copy_of is not null and (select x.message from app_public.p2000_messages x where x.uuid = copy_of) <> btrim(message) then
    perform app_hidden.p2000_keep_cleaner_copy(copy_of, btrim(message), capcodes);
    stored := copy_of;
  else
    stored := app_private.ingest_p2000_message(message, sended, capcodes, 'receiver');
  end if;
  insert into app_hidden.p2000_receptions (message_uuid, receiver_uuid, receiver_name, message, garbled)
  select stored, r.uuid, r.name, btrim(message), app_hidden.p2000_unreadable_count(message) > 0
    from app_public.p2000_receivers r where r.uuid = publish_p2000_page.receiver_uuid
  on conflict on constraint p2000_receptions_pkey do nothing;
  return stored;
end;
$$;

create or replace function app_accounts.publish_p2000_pages(batch_id text, pages jsonb, lines integer, skipped integer, malformed integer)
  returns jsonb
  language plpgsql volatile security definer
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  receiver app_public.p2000_receivers := app_hidden.current_p2000_receiver();
  earlier jsonb;
  page record;
  result jsonb;
begin
  if batch_id is null or length(batch_id) not between 1 and 100 then
    raise exception 'batchId has 1 to 100 characters.' using errcode = 'XINPT';
  end if;
  if jsonb_array_length(pages) > 500 or lines > 500 then
    raise exception 'At most 500 lines per batch.' using errcode = 'XINPT';
  end if;
  -- Before the batch id is looked up: the same batch sent again while it is being stored waits,
  -- then answers duplicate (the migration's note 1).
  perform pg_advisory_xact_lock(hashtext('p2000_publish'));
  select b.result into earlier from app_hidden.p2000_receiver_batches b
   where b.receiver_uuid = receiver.uuid and b.batch_id = publish_p2000_pages.batch_id;
  if earlier is not null then
    return earlier || jsonb_build_object('duplicate', true);
  end if;
  -- In the order heard: a page may join the dossier of one before it.
  for page in select * from jsonb_to_recordset(pages) as p (message text, sended timestamptz, capcodes text[]) loop
    perform app_hidden.publish_p2000_page(receiver.uuid, page.message, page.sended, page.capcodes);
  end loop;
  perform app_hidden.count_p2000_receiver_minute(receiver.uuid, lines, jsonb_array_length(pages), skipped, malformed,
    (select count(*)::integer from jsonb_array_elements(pages) p where app_hidden.p2000_unreadable_count(p->>'message') > 0));
  result := jsonb_build_object('batchId', batch_id, 'lines', lines, 'pages', jsonb_array_length(pages),
                               'skipped', skipped, 'malformed', malformed, 'duplicate', false);
  insert into app_hidden.p2000_receiver_batches (receiver_uuid, batch_id, result) values (receiver.uuid, batch_id, result);
  -- What is older than the kept windows goes as the receiver sends more.
  delete from app_hidden.p2000_receiver_batches b where b.receiver_uuid = receiver.uuid and b.received < now() - interval '7 days';
  delete from app_hidden.p2000_receiver_minutes m where m.receiver_uuid = receiver.uuid and m.minute < now() - interval '30 days';
  return result;
end;
$$;

create or replace function app_hidden.p2000_keep_cleaner_copy(message_uuid uuid, copy text, capcodes text[]) returns void
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  m app_public.p2000_messages;
  all_capcodes text[];
  e app_hidden.p2000_enrichment;
begin
  select * into m from app_public.p2000_messages x where x.uuid = message_uuid for update;
  all_capcodes := array(select distinct c from unnest(m.capcode_names || app_hidden.p2000_clean_capcodes(capcodes)) c order by 1);
  perform app_hidden.p2000_create_capcodes(all_capcodes);
  insert into app_public.p2000_message_capcodes (message_uuid, capcode_uuid, sended)
  select m.uuid, c.uuid, m.sended from app_public.p2000_capcodes c where c.name = any (all_capcodes)
  on conflict do nothing;
  if app_hidden.p2000_copy_score(copy, all_capcodes) <= app_hidden.p2000_copy_score(m.message, all_capcodes) then
    if all_capcodes <> m.capcode_names then
      update app_public.p2000_messages x set capcode_names = all_capcodes where x.uuid = m.uuid;
    end if;
    return;
  end if;
  e := app_hidden.p2000_enrich(copy, all_capcodes);
  update app_public.p2000_messages x
     set message = copy, capcode_names = all_capcodes, urgency_uuid = e.urgency_uuid, discipline_uuid = e.discipline_uuid,
         region_uuid = e.region_uuid, category_uuid = e.category_uuid, street = e.street, postcode = e.postcode, city = e.city,
         place_uuid = e.place_uuid, latitude = e.latitude, longitude = e.longitude,
         position_precision = case when e.latitude is not null and e.longitude is not null then coalesce(e.position_precision, 'place') end,
         road = e.road, hectometer = e.hectometer, carriageway = e.carriageway, grip_level = e.grip_level,
         exercise_type = e.exercise_type, incident_number = e.incident_number, normalized_text = e.normalized_text,
         call_numbers = e.call_numbers
   where x.uuid = m.uuid;
  -- The new text is matched again (the migration's note 2), as a new live page is.
  if m.sended between now() - interval '1 hour' and now() + interval '1 hour' then
    perform graphile_worker.add_job('monitors__match_feed', json_build_object('feed', 'p2000', 'uuids', json_build_array(m.uuid)),
                                    max_attempts := 10);
  end if;
end;
$$;
comment on function app_hidden.p2000_keep_cleaner_copy(uuid, text, text[]) is 'A receiver heard a copy of a stored page with another text: the page gets the union of the capcodes, and the copy''s text (enriched anew, and matched against the monitors again when the page is live) when it scores higher (app_hidden.p2000_copy_score). Its dossier stays the one the first copy joined.';
