--! Previous: sha1:9cb243ac2fd8dcf5f0ebabc9758bdf330481cfa3
--! Hash: sha1:dc88084d0b533f618fbef8fa386e4b2d5088b717
--! Message: Receivers (issue 48): a receiver registered in an environment with a token that publishes pages only (p2000:publish), its copies of the pages it heard with the cleanest kept, its counts per minute for its health, and receiver_silence monitors

-- Receivers (issue 48): a radio receiver (an SDR and multimon-ng) is a thing the service knows. An
-- administrator registers it in an environment; its API token has the scope p2000:publish and no
-- other, and publishes pages (publishP2000Lines, createP2000Message) and reads nothing. Each page a
-- receiver publishes is kept as its copy (who heard it, when, the text as heard), the stored text
-- is the cleanest copy, and per receiver and minute the service counts lines, pages, malformed and
-- garbled lines, for its health (p2000ReceiverStatistics) and the silence alert.

insert into app_public.api_scopes (name, description) values
  ('p2000:publish', 'Publish the P2000 pages a receiver hears (publishP2000Lines, createP2000Message). Only a receiver''s token (createP2000Receiver) has it; it reads nothing.')
on conflict (name) do nothing;

create table app_public.p2000_receivers (
  uuid uuid primary key default gen_random_uuid(),
  environment_uuid uuid not null references app_public.environments on delete cascade,
  name text not null check (length(btrim(name)) between 1 and 100 and name = btrim(name)),
  description text not null default '' check (length(description) <= 1000),
  api_token_uuid uuid unique references app_public.api_tokens on delete set null,
  created timestamptz not null default now(),
  unique (environment_uuid, name)
);
create index p2000_receivers_environment_uuid_idx on app_public.p2000_receivers (environment_uuid);
alter table app_public.p2000_receivers enable row level security;
create policy select_member_environment on app_public.p2000_receivers for select to app_visitor
  using (environment_uuid = (select app_hidden.current_member_environment_uuid()));
grant select on app_public.p2000_receivers to app_visitor;
comment on table app_public.p2000_receivers is E'Radio receivers that publish P2000 pages (createP2000Receiver): each with its own API token (scope p2000:publish), visible to the members of its environment. Its name is shown with the copies of the pages it heard (P2000Message.copies), so it is public.';
comment on column app_public.p2000_receivers.api_token_uuid is E'@behavior -*\nThe receiver''s API token; null once the token is gone (the receiver can publish no more).';
comment on column app_public.p2000_receivers.environment_uuid is '@behavior -*';
comment on constraint p2000_receivers_environment_uuid_fkey on app_public.p2000_receivers is '@behavior -*';
comment on constraint p2000_receivers_api_token_uuid_fkey on app_public.p2000_receivers is '@behavior -*';
create trigger _900_notify_data_changed after insert or update or delete or truncate on app_public.p2000_receivers
  for each statement execute function app_hidden.tg__notify_data_changed('p2000');

-- The copies of a page: which receiver heard it, when, and the text as it heard it.
create table app_hidden.p2000_receptions (
  message_uuid uuid not null references app_public.p2000_messages on delete cascade,
  receiver_uuid uuid not null references app_public.p2000_receivers on delete cascade,
  -- Kept with the copy: a copy is public (P2000Message.copies), the receivers table is not.
  receiver_name text not null,
  received_at timestamptz not null default now(),
  message text not null,
  garbled boolean not null,
  primary key (message_uuid, receiver_uuid)
);
create index p2000_receptions_receiver_received_idx on app_hidden.p2000_receptions (receiver_uuid, received_at desc);
alter table app_hidden.p2000_receptions enable row level security;
create trigger _900_notify_data_changed after insert or update or delete or truncate on app_hidden.p2000_receptions
  for each statement execute function app_hidden.tg__notify_data_changed('p2000');
comment on table app_hidden.p2000_receptions is 'Each receiver''s copy of a P2000 page it published: the text as it heard it (garbled or not), and when. Read through app_public.p2000_messages_copies; the stored message text is the cleanest copy.';

-- Per receiver and minute: what it sent.
create table app_hidden.p2000_receiver_minutes (
  receiver_uuid uuid not null references app_public.p2000_receivers on delete cascade,
  minute timestamptz not null,
  lines integer not null default 0,
  pages integer not null default 0,
  skipped integer not null default 0,
  malformed integer not null default 0,
  garbled integer not null default 0,
  primary key (receiver_uuid, minute)
);
alter table app_hidden.p2000_receiver_minutes enable row level security;
comment on table app_hidden.p2000_receiver_minutes is 'Per receiver and minute (UTC, truncated): lines it sent, pages among them, lines skipped (numeric and tone pages), malformed lines, garbled pages. Kept 30 days.';

-- The batches a receiver sent, by its own id: a batch sent again (its answer was lost) is answered
-- as before and not stored twice.
create table app_hidden.p2000_receiver_batches (
  receiver_uuid uuid not null references app_public.p2000_receivers on delete cascade,
  batch_id text not null check (length(batch_id) between 1 and 100),
  received timestamptz not null default now(),
  result jsonb not null,
  primary key (receiver_uuid, batch_id)
);
alter table app_hidden.p2000_receiver_batches enable row level security;
comment on table app_hidden.p2000_receiver_batches is 'The batches each receiver published (publishP2000Lines batchId) and their answers, so that a batch sent again is not stored twice. Kept 7 days.';

-- The monitor type that tells its channels when a receiver has gone quiet, and when it is back.
insert into app_public.monitor_types (name, description) values
  ('receiver_silence', 'A receiver of this environment hearing nothing for a while when others do, and when it is heard again')
on conflict (name) do nothing;

-- How readable a copy is: unreadable characters (multimon-ng's <NUL>-style names of control
-- characters, the replacement character, control characters) count against it; words the plain-
-- words list knows and capcodes the capcode list knows count for it.
create function app_hidden.p2000_unreadable_count(message text) returns integer
  language sql immutable parallel safe
as $$
  select (select count(*) from regexp_matches(message, '<[A-Z]{2,3}>|' || chr(65533) || '|[[:cntrl:]]', 'g'))::integer
$$;
comment on function app_hidden.p2000_unreadable_count(text) is 'How many unreadable characters a page''s text has: multimon-ng''s names of control characters (<NUL>, <ETX>), the replacement character and control characters. A page with any is garbled.';

create function app_hidden.p2000_copy_score(message text, capcodes text[]) returns integer
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select -10 * app_hidden.p2000_unreadable_count(message)
         + (select count(*) from regexp_split_to_table(lower(message), '[^[:alnum:]]+') w
             where length(w) >= 2 and exists (select 1 from app_public.p2000_plain_words p where p.literal = w))::integer
         + (select count(*) from app_public.p2000_capcodes c
             where c.name = any (app_hidden.p2000_clean_capcodes(capcodes)) and c.description is not null)::integer
$$;
comment on function app_hidden.p2000_copy_score(text, text[]) is 'How good a copy of a page is: 10 points off per unreadable character, a point per word the plain-words list knows and per capcode with a known description. The stored text of a page heard by several receivers is the copy with the highest score.';

-- The earlier copy of a page within 10 seconds: the same text, or (a garbled copy) a text like it
-- sent to a capcode it was sent to.
create function app_hidden.p2000_earlier_copy(message text, sended timestamptz, capcodes text[]) returns uuid
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select x.uuid from app_public.p2000_messages x
   where x.sended between p2000_earlier_copy.sended - interval '10 seconds' and p2000_earlier_copy.sended + interval '10 seconds'
     and (x.message = btrim(p2000_earlier_copy.message)
          or (x.capcode_names && app_hidden.p2000_clean_capcodes(p2000_earlier_copy.capcodes)
              and similarity(x.message, btrim(p2000_earlier_copy.message)) >= 0.5))
   order by x.message = btrim(p2000_earlier_copy.message) desc, x.sended
   limit 1
$$;
comment on function app_hidden.p2000_earlier_copy(text, timestamptz, text[]) is 'The message a receiver''s page is a copy of: one stored within 10 seconds of it with the same text, or sent to one of its capcodes with a text at least half alike (pg_trgm similarity), which is how a garbled copy of the same page looks.';

-- The receiver of the request's API token (a receiver's token has the scope p2000:publish).
create function app_hidden.current_p2000_receiver() returns app_public.p2000_receivers
  language plpgsql stable security definer
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  receiver app_public.p2000_receivers;
begin
  select r.* into receiver from app_public.p2000_receivers r
   where r.api_token_uuid = app_hidden.current_api_token_uuid() and 'p2000:publish' = any (app_hidden.current_api_scopes());
  if receiver.uuid is null then
    raise exception 'Only a receiver''s API token (createP2000Receiver) publishes pages.' using errcode = 'XFORB';
  end if;
  return receiver;
end;
$$;
comment on function app_hidden.current_p2000_receiver() is 'The receiver whose API token (scope p2000:publish) made the request; FORBIDDEN for any other caller.';

-- One page a receiver heard: stored through the path every ingestion takes, or merged into the
-- earlier copy (the same text, or a garbled copy of it), whose text becomes the cleaner of the
-- two; the receiver's copy recorded. Returns the message's uuid.
create function app_hidden.publish_p2000_page(receiver_uuid uuid, message text, sended timestamptz, capcodes text[]) returns uuid
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  copy_of uuid := app_hidden.p2000_earlier_copy(message, sended, capcodes);
  stored uuid;
begin
  if message is null or length(btrim(message)) not between 1 and 2000 or sended is null then
    raise exception 'A page has a text of 1 to 2000 characters and a time.' using errcode = 'XINPT';
  end if;
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
comment on function app_hidden.publish_p2000_page(uuid, text, timestamptz, text[]) is 'Stores one page a receiver heard, or merges it into the earlier copy (app_hidden.p2000_earlier_copy) keeping the cleaner text (app_hidden.p2000_keep_cleaner_copy), and records the receiver''s copy.';

-- What a receiver sent in a minute, added to its counts.
create function app_hidden.count_p2000_receiver_minute(receiver_uuid uuid, lines integer, pages integer, skipped integer,
                                                       malformed integer, garbled integer) returns void
  language sql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
  insert into app_hidden.p2000_receiver_minutes as m (receiver_uuid, minute, lines, pages, skipped, malformed, garbled)
  values (receiver_uuid, date_trunc('minute', now()), lines, pages, skipped, malformed, garbled)
  on conflict (receiver_uuid, minute) do update
    set lines = m.lines + excluded.lines, pages = m.pages + excluded.pages, skipped = m.skipped + excluded.skipped,
        malformed = m.malformed + excluded.malformed, garbled = m.garbled + excluded.garbled
$$;
comment on function app_hidden.count_p2000_receiver_minute(uuid, integer, integer, integer, integer, integer) is 'Adds what a receiver sent to its counts of the current minute (app_hidden.p2000_receiver_minutes).';

-- Publishes a receiver's pages (parsed in Node from its lines: plugins/p2000-receivers.ts) and
-- counts its lines, as one transaction; a batch id already seen answers as before.
create function app_accounts.publish_p2000_pages(batch_id text, pages jsonb, lines integer, skipped integer, malformed integer)
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
comment on function app_accounts.publish_p2000_pages(text, jsonb, integer, integer, integer) is 'publishP2000Lines (plugins/p2000-receivers.ts) after Node parsed the receiver''s lines: only the token of a receiver (p2000:publish) may call it. Stores each page (app_hidden.publish_p2000_page: copies merged, the cleaner text kept, the receiver''s copy recorded) and counts the batch''s lines per minute, in one transaction. A batch id seen before answers as it did then (duplicate true) and stores nothing.';
grant execute on function app_accounts.publish_p2000_pages(text, jsonb, integer, integer, integer) to app_visitor;

-- The cleaner of a stored page and a new copy of it is kept, enriched anew for its text; the
-- capcodes are the union, as for copies with the same text.
create function app_hidden.p2000_keep_cleaner_copy(message_uuid uuid, copy text, capcodes text[]) returns void
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
end;
$$;
comment on function app_hidden.p2000_keep_cleaner_copy(uuid, text, text[]) is 'A receiver heard a copy of a stored page with another text: the page gets the union of the capcodes, and the copy''s text (enriched anew) when it scores higher (app_hidden.p2000_copy_score).';

-- createP2000Message: an administrator's access token as before, or a receiver's API token, whose
-- page is recorded as its copy and counted like its lines.
create or replace function app_accounts.create_p2000_message(message text, sended text, capcodes text[])
  returns uuid
  language plpgsql security definer
  set search_path to pg_catalog, public, pg_temp
  set "TimeZone" to 'UTC'
as $$
declare
  at timestamptz;
  receiver app_public.p2000_receivers;
  stored uuid;
begin
  if 'p2000:publish' = any (app_hidden.current_api_scopes()) then
    receiver := app_hidden.current_p2000_receiver();
  elsif not exists (select 1 from app_public.users u where u.uuid = app_hidden.require_user_uuid() and u.is_admin) then
    raise exception 'Only administrators and receivers (an API token made by createP2000Receiver) may add P2000 messages.' using errcode = 'XFORB';
  end if;
  if message is null or length(btrim(message)) not between 1 and 2000 then
    raise exception 'A message has 1 to 2000 characters.' using errcode = 'XINPT';
  end if;
  if sended !~ '^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?$' then
    raise exception 'sended must be an ISO-8601 date-time, e.g. 2026-11-21T14:03:00Z (got "%").', sended using errcode = 'XINPT';
  end if;
  begin
    at := sended::timestamptz;
  exception when others then
    raise exception 'sended must be an ISO-8601 date-time (got "%").', sended using errcode = 'XINPT';
  end;
  if exists (select 1 from unnest(coalesce(capcodes, '{}')) c where app_hidden.p2000_normalize_capcode(c) is null) then
    raise exception 'Capcodes are 1 to 9 digits.' using errcode = 'XINPT';
  end if;
  if cardinality(capcodes) > 100 then
    raise exception 'At most 100 capcodes per message.' using errcode = 'XINPT';
  end if;
  if receiver.uuid is not null then
    stored := app_hidden.publish_p2000_page(receiver.uuid, message, at, capcodes);
    perform app_hidden.count_p2000_receiver_minute(receiver.uuid, 1, 1, 0, 0, (app_hidden.p2000_unreadable_count(message) > 0)::integer);
    return stored;
  end if;
  return app_private.ingest_p2000_message(message, at, capcodes, 'api');
end;
$$;
comment on function app_accounts.create_p2000_message(message text, sended text, capcodes text[]) is 'createP2000Message (plugins/p2000-mutations.ts): an administrator''s access token, or a receiver''s API token (scope p2000:publish, whose page is its copy: app_accounts.publish_p2000_pages), since what they add becomes public data. Checks the text, the ISO-8601 time (UTC when it has no zone, like receivers'' timestamps) and the capcodes, then stores the message through app_private.ingest_p2000_message, the path every ingestion takes.';

-- The environment's receivers (the console's list), and registering and removing one.
create function app_public.p2000_receivers() returns setof app_public.p2000_receivers
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select r.* from app_public.p2000_receivers r
   where app_hidden.require_user_uuid() is not null and r.environment_uuid = app_hidden.current_member_environment_uuid()
   order by r.name
$$;
comment on function app_public.p2000_receivers() is E'@userToken\n@notNull\nThe P2000 receivers of the current environment (createP2000Receiver).';

create function app_accounts.create_p2000_receiver(name text, description text, secret_hash bytea, token_preview text) returns uuid
  language plpgsql volatile security definer
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  environment uuid := app_accounts.require_current_environment();
  token app_public.api_tokens;
  result uuid;
begin
  if not exists (select 1 from app_public.users u where u.uuid = app_hidden.require_user_uuid() and u.is_admin) then
    raise exception 'Only administrators register receivers: what a receiver publishes becomes public data.' using errcode = 'XFORB';
  end if;
  if name is null or length(btrim(name)) not between 1 and 100 then
    raise exception 'A receiver''s name has 1 to 100 characters.' using errcode = 'XINPT';
  end if;
  if length(coalesce(description, '')) > 1000 then
    raise exception 'A receiver''s description has at most 1000 characters.' using errcode = 'XINPT';
  end if;
  if exists (select 1 from app_public.p2000_receivers r where r.environment_uuid = environment and r.name = btrim(create_p2000_receiver.name)) then
    raise exception 'This environment has a receiver named "%" already.', btrim(name) using errcode = 'XINPT';
  end if;
  if (select count(*) from app_public.p2000_receivers r where r.environment_uuid = environment) >= 100 then
    raise exception 'An environment has at most 100 receivers.' using errcode = 'XINPT';
  end if;
  token := app_private.create_api_token(environment, 'Receiver ' || btrim(name), array['p2000:publish'], null, secret_hash, token_preview);
  insert into app_public.p2000_receivers (environment_uuid, name, description, api_token_uuid)
  values (environment, btrim(name), coalesce(description, ''), token.uuid)
  returning uuid into result;
  return result;
end;
$$;
comment on function app_accounts.create_p2000_receiver(text, text, bytea, text) is 'createP2000Receiver (plugins/p2000-receivers.ts, after Node made the token''s random secret): an administrator registers a receiver in the current environment, with an API token of the scope p2000:publish only (its secret stored as a hash).';
grant execute on function app_accounts.create_p2000_receiver(text, text, bytea, text) to app_visitor;

create function app_accounts.delete_p2000_receiver(receiver_uuid text) returns boolean
  language plpgsql volatile security definer
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  environment uuid := app_accounts.require_current_environment();
  gone app_public.p2000_receivers;
begin
  if not exists (select 1 from app_public.users u where u.uuid = app_hidden.require_user_uuid() and u.is_admin) then
    raise exception 'Only administrators remove receivers.' using errcode = 'XFORB';
  end if;
  delete from app_public.p2000_receivers r where r.uuid = app_hidden.try_uuid(receiver_uuid) and r.environment_uuid = environment
  returning * into gone;
  if gone.uuid is null then
    raise exception 'Receiver not found.' using errcode = 'XNOTF';
  end if;
  -- Its token goes with it: from now on it publishes nothing (every instance hears of it at once).
  delete from app_public.api_tokens t where t.uuid = gone.api_token_uuid;
  return true;
end;
$$;
comment on function app_accounts.delete_p2000_receiver(text) is 'deleteP2000Receiver: an administrator removes a receiver of the current environment and its API token (revoked at once on every instance); its copies and counts go with it, the pages it published stay.';
grant execute on function app_accounts.delete_p2000_receiver(text) to app_visitor;

-- Health: per receiver of the environment over the last minutes.
create type app_public.p2000_receiver_region as (name text, pages integer);
comment on type app_public.p2000_receiver_region is E'@typeName P2000ReceiverRegion\nA region a receiver''s pages came from, with how many.';
create type app_public.p2000_receiver_health as (
  receiver_uuid uuid,
  name text,
  last_heard_at timestamptz,
  window_minutes integer,
  lines integer,
  pages integer,
  pages_per_minute double precision,
  skipped integer,
  malformed integer,
  garbled integer,
  malformed_share double precision,
  garbled_share double precision,
  regions app_public.p2000_receiver_region[]
);
comment on type app_public.p2000_receiver_health is E'@typeName P2000ReceiverStatistics\nA receiver''s health over a window: when it was last heard (a line of any kind), lines, pages a minute, the share of its lines that were malformed and of its pages that were garbled (unreadable characters), and the regions its pages came from, most first.';

-- Security definer: it reads the counts and copies (app_hidden), of the caller's environment's receivers only.
create function app_public.p2000_receiver_statistics(minutes integer default 60) returns setof app_public.p2000_receiver_health
  language plpgsql stable parallel safe security definer
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  if minutes is null or minutes < 1 or minutes > 43200 then
    raise exception 'minutes must be from 1 to 43200 (30 days) (got %).', minutes using errcode = 'XINPT';
  end if;
  return query
  select r.uuid, r.name,
         (select max(m.minute) + interval '1 minute' from app_hidden.p2000_receiver_minutes m where m.receiver_uuid = r.uuid and m.lines > 0),
         minutes, coalesce(w.lines, 0), coalesce(w.pages, 0), coalesce(w.pages, 0)::double precision / minutes,
         coalesce(w.skipped, 0), coalesce(w.malformed, 0), coalesce(w.garbled, 0),
         case when w.lines > 0 then w.malformed::double precision / w.lines end,
         case when w.pages > 0 then w.garbled::double precision / w.pages end,
         array(select row(g.name, count(*))::app_public.p2000_receiver_region
                 from app_hidden.p2000_receptions x
                 join app_public.p2000_messages pm on pm.uuid = x.message_uuid
                 join app_public.p2000_regions g on g.uuid = pm.region_uuid
                where x.receiver_uuid = r.uuid and x.received_at > now() - make_interval(mins => minutes)
                group by g.name order by count(*) desc, g.name)
    from app_public.p2000_receivers r
    left join lateral (
      select sum(m.lines)::integer as lines, sum(m.pages)::integer as pages, sum(m.skipped)::integer as skipped,
             sum(m.malformed)::integer as malformed, sum(m.garbled)::integer as garbled
        from app_hidden.p2000_receiver_minutes m
       where m.receiver_uuid = r.uuid and m.minute > now() - make_interval(mins => minutes)
    ) w on true
   where app_hidden.require_user_uuid() is not null and r.environment_uuid = app_hidden.current_member_environment_uuid()
   order by r.name;
end;
$$;
comment on function app_public.p2000_receiver_statistics(integer) is E'@userToken\n@notNull\nThe health of the current environment''s receivers over the last minutes (default 60, at most 30 days).';

-- The copies of a page: each receiver that heard it, when, and its text as heard.
create type app_public.p2000_message_copy as (receiver_name text, received_at timestamptz, message text, garbled boolean);
comment on type app_public.p2000_message_copy is E'@typeName P2000MessageCopy\nOne receiver''s copy of a page: the receiver''s name, when it was received, the text as that receiver heard it, and whether it was garbled.';
create function app_public.p2000_messages_copies(m app_public.p2000_messages) returns setof app_public.p2000_message_copy
  language sql stable parallel safe security definer
  set search_path to pg_catalog, public, pg_temp
as $$
  select x.receiver_name, x.received_at, x.message, x.garbled
    from app_hidden.p2000_receptions x
   where x.message_uuid = m.uuid
   order by x.received_at, x.receiver_name
$$;
comment on function app_public.p2000_messages_copies(app_public.p2000_messages) is E'@cacheReads app_hidden.p2000_receptions\n@notNull\nThe copies of this page the service''s receivers heard (empty for pages from elsewhere): the stored text is the cleanest of them.';

-- Silence is an alert: receiver_silence monitors.
insert into app_hidden.monitor_query_fields (monitor_type, field, kind, required, choices, description) values
  ('receiver_silence', 'receivers', 'strings', false, null, 'names of this environment''s receivers to watch; empty = all of them'),
  ('receiver_silence', 'minutes', 'integer', false, null, 'how long a receiver may hear nothing while pages arrive from elsewhere (default 10, at least 1)');

create table app_hidden.p2000_receiver_silences (
  monitor_uuid uuid not null references app_public.monitors on delete cascade,
  receiver_uuid uuid not null references app_public.p2000_receivers on delete cascade,
  silent_since timestamptz not null,
  event_uuid uuid not null default gen_random_uuid(),
  primary key (monitor_uuid, receiver_uuid)
);
alter table app_hidden.p2000_receiver_silences enable row level security;
comment on table app_hidden.p2000_receiver_silences is 'The receivers a receiver_silence monitor has said are quiet (since when they were last heard), until they are heard again.';

create function app_hidden.receiver_silence_subject(receiver_uuid uuid, receiver_name text, last_heard timestamptz, minutes integer, back boolean)
  returns app_hidden.notification_subject
  language sql stable
  set search_path to pg_catalog, public, pg_temp
as $$
  select row(
    case when back then 'Receiver ' || receiver_name || ' is heard again'
         else 'Receiver ' || receiver_name || ' has heard nothing for ' || minutes || ' minutes' end,
    array[case when back then 'Quiet since ' else 'Last heard ' end
            || coalesce(to_char(last_heard at time zone 'Europe/Amsterdam', 'YYYY-MM-DD HH24:MI'), 'never') || ' (Europe/Amsterdam)',
          case when back then 'It publishes pages again.' else 'Pages arrived from elsewhere meanwhile.' end],
    case when back then 'p2000.receiver.back' else 'p2000.receiver.silent' end,
    jsonb_build_object('receiver', jsonb_build_object('uuid', receiver_uuid, 'name', receiver_name),
                       'lastHeardAt', last_heard, 'minutes', minutes))::app_hidden.notification_subject
$$;
comment on function app_hidden.receiver_silence_subject(uuid, text, timestamptz, integer, boolean) is 'What a receiver_silence notification says: the receiver has gone quiet (heard nothing for the monitor''s minutes while pages arrived from elsewhere), or is heard again.';

create function app_private.watch_p2000_receivers() returns integer
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  w record;
  event uuid;
  queued integer := 0;
begin
  for w in
    with watched as (
      select mo.uuid as monitor_uuid, r.uuid as receiver_uuid, r.name as receiver_name,
             greatest(1, coalesce((mo.query->>'minutes')::integer, 10)) as minutes,
             coalesce((select max(m.minute) + interval '1 minute' from app_hidden.p2000_receiver_minutes m
                        where m.receiver_uuid = r.uuid and m.lines > 0), r.created) as last_heard
        from app_public.monitors mo
        join app_public.p2000_receivers r on r.environment_uuid = mo.environment_uuid
       where mo.type = 'receiver_silence' and mo.active
         and (coalesce(jsonb_array_length(mo.query->'receivers'), 0) = 0
              or r.name in (select jsonb_array_elements_text(mo.query->'receivers')))
    )
    select wt.*, s.silent_since, s.event_uuid,
           wt.last_heard < now() - make_interval(mins => wt.minutes)
             and exists (select 1 from app_public.p2000_messages x where x.sended > now() - make_interval(mins => wt.minutes)
                          and x.sended <= now() + interval '1 minute') as silent
      from watched wt
      left join app_hidden.p2000_receiver_silences s on s.monitor_uuid = wt.monitor_uuid and s.receiver_uuid = wt.receiver_uuid
  loop
    if w.silent and w.silent_since is null then
      insert into app_hidden.p2000_receiver_silences (monitor_uuid, receiver_uuid, silent_since)
      values (w.monitor_uuid, w.receiver_uuid, w.last_heard) returning event_uuid into event;
      queued := queued + app_private.notify_feed_event('receiver_silent', event, array[w.monitor_uuid],
        app_hidden.receiver_silence_subject(w.receiver_uuid, w.receiver_name, w.last_heard, w.minutes, false));
    elsif w.silent_since is not null and w.last_heard > w.silent_since then
      delete from app_hidden.p2000_receiver_silences s where s.monitor_uuid = w.monitor_uuid and s.receiver_uuid = w.receiver_uuid;
      queued := queued + app_private.notify_feed_event('receiver_back', w.event_uuid, array[w.monitor_uuid],
        app_hidden.receiver_silence_subject(w.receiver_uuid, w.receiver_name, w.silent_since, w.minutes, true));
    end if;
  end loop;
  return queued;
end;
$$;
comment on function app_private.watch_p2000_receivers() is 'Task receivers__watch_silence (every minute): for each active receiver_silence monitor and each receiver it watches, says once when the receiver has heard nothing for the monitor''s minutes while pages arrived from elsewhere (receiver_silent), and once when it is heard again (receiver_back), through app_private.notify_feed_event.';
