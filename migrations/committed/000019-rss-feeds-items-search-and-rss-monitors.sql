--! Previous: sha1:676c9c130967e50df901ab5d28fe92184a347797
--! Hash: sha1:cc30b041aad95e2aebc46a591a06465363bd1e06
--! Message: RSS: followed feeds, their items once per feed with Dutch and English search, rssFeedItems and rssFeedItemsCount for the caller's environment, rss monitors

-- RSS: the feeds that rss monitors follow (one row per distinct URL, whatever number of monitors
-- follow it), their items stored once per feed (by guid, else link, else title and time) with a
-- Dutch and English text-search vector, rssFeedItems and rssFeedItemsCount (the caller's
-- environment's feeds only: a feed URL is an environment's own, possibly private, choice), and
-- rss monitors on the shared mechanism: a new item with one of a monitor's keywords notifies once.
-- Feeds are fetched and parsed in lib/feeds/rss/ (task rss__poll).

drop table if exists app_hidden.rss_monitor_criteria, app_public.rss_feed_items, app_public.rss_feeds cascade;
drop function if exists app_public.rss_feed_items(integer, integer, app_public.rss_feed_item_filter);
drop function if exists app_public.rss_feed_items_count(app_public.rss_feed_item_filter);
drop function if exists app_hidden.rss_items_matching(app_public.rss_feed_item_filter);
drop function if exists app_hidden.current_environment_rss_feeds(uuid);
drop function if exists app_hidden.is_current_environment_rss_monitor(uuid);
drop function if exists app_hidden.sync_rss_monitor(app_public.monitors);
drop function if exists app_private.ingest_rss_items(uuid, text, jsonb);
drop function if exists app_private.match_rss_item(uuid);
drop function if exists app_hidden.rss_notification_subject(app_public.rss_feed_items);
drop function if exists app_hidden.rss_criteria_of(app_public.monitors);
drop trigger if exists _500_rss_criteria on app_public.monitors;
drop function if exists app_hidden.tg_monitors__rss_criteria();
drop function if exists app_hidden.tg_rss_feed_items__queue_matching() cascade;
drop type if exists app_public.rss_feed_item_filter, app_public.rss_feed_item;

create table app_public.rss_feeds (
  uuid uuid primary key default uuidv7(),
  url text not null unique check (length(url) <= 2000 and url ~ '^https?://'),
  title text check (length(title) <= 500),
  -- When the poller fetches it next: now for a feed a monitor just named.
  next_poll_at timestamptz not null default now(),
  created timestamptz not null default now()
);
comment on table app_public.rss_feeds is E'@behavior -*\nThe feeds rss monitors follow, one row per URL. Fetch state (validators, failures) is in app_hidden.feed_status as rss:<uuid>.';
create index rss_feeds_due_idx on app_public.rss_feeds (next_poll_at);
alter table app_public.rss_feeds enable row level security;
create policy select_all on app_public.rss_feeds for select to app_analyst using (true);
grant select on app_public.rss_feeds to app_analyst, app_visitor;

create table app_public.rss_feed_items (
  uuid uuid primary key default uuidv7(),
  feed_uuid uuid not null references app_public.rss_feeds on delete cascade,
  -- The item's identity within its feed: its guid, else its link, else its title and time.
  item_key text not null check (length(item_key) <= 2000),
  guid text check (length(guid) <= 2000),
  title text check (length(title) <= 1000),
  link text check (length(link) <= 2000),
  summary text check (length(summary) <= 10000),
  published_at timestamptz,
  latitude double precision check (latitude between -90 and 90),
  longitude double precision check (longitude between -180 and 180),
  first_seen_at timestamptz not null default now(),
  sort_at timestamptz generated always as (coalesce(published_at, first_seen_at)) stored,
  -- Dutch and English stemming of title (weighted higher) and summary: q matches either language.
  search tsvector generated always as (
    setweight(to_tsvector('pg_catalog.dutch', coalesce(title, '')), 'A') || setweight(to_tsvector('pg_catalog.dutch', coalesce(summary, '')), 'B') ||
    setweight(to_tsvector('pg_catalog.english', coalesce(title, '')), 'A') || setweight(to_tsvector('pg_catalog.english', coalesce(summary, '')), 'B')) stored,
  unique (feed_uuid, item_key)
);
create index rss_feed_items_feed_sort_idx on app_public.rss_feed_items (feed_uuid, sort_at desc, uuid);
create index rss_feed_items_search_idx on app_public.rss_feed_items using gin (search);
comment on table app_public.rss_feed_items is E'@behavior -*\nItems of the followed feeds, once per feed.';
comment on column app_public.rss_feed_items.search is 'Dutch and English text-search vector of title and summary (rssFeedItems q).';
alter table app_public.rss_feed_items enable row level security;
create policy select_all on app_public.rss_feed_items for select to app_analyst using (true);
grant select on app_public.rss_feed_items to app_analyst, app_visitor;

create type app_public.rss_feed_item as (
  uuid uuid, feed_url text, feed_title text, guid text, title text, link text, summary text, published_at timestamptz,
  latitude double precision, longitude double precision, first_seen_at timestamptz
);
comment on type app_public.rss_feed_item is 'An item of a feed the environment''s rss monitors follow.';
comment on column app_public.rss_feed_item.uuid is E'@notNull';
comment on column app_public.rss_feed_item.feed_url is E'@notNull';
comment on column app_public.rss_feed_item.first_seen_at is E'@notNull\nWhen the service first read it.';
comment on column app_public.rss_feed_item.summary is 'The description or summary as plain text.';

create type app_public.rss_feed_item_filter as (monitor app_public.monitor_ref, feed text, q text, since timestamptz);
comment on type app_public.rss_feed_item_filter is E'monitor: that rss monitor''s feeds; feed: one feed URL; q: words (Dutch and English stemming); since: published (or first seen) from then on.';

-- The feeds the request's environment follows (security definer: API tokens read no monitor rows).
create function app_hidden.current_environment_rss_feeds(monitor_uuid uuid default null) returns setof uuid
  language sql stable security definer parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select distinct f.uuid
    from app_public.monitors mo
    cross join lateral jsonb_array_elements_text(coalesce(mo.query->'feeds', '[]')) u (url)
    join app_public.rss_feeds f on f.url = u.url
   where mo.type = 'rss' and mo.environment_uuid = app_hidden.current_environment_uuid()
     and (current_environment_rss_feeds.monitor_uuid is null or mo.uuid = current_environment_rss_feeds.monitor_uuid)
$$;

create function app_hidden.is_current_environment_rss_monitor(monitor_uuid uuid) returns boolean
  language sql stable security definer parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select exists (select 1 from app_public.monitors mo where mo.uuid = is_current_environment_rss_monitor.monitor_uuid
                   and mo.type = 'rss' and mo.environment_uuid = app_hidden.current_environment_uuid())
$$;

-- A request sees the feeds, and their items, that its environment follows.
create policy select_followed on app_public.rss_feeds for select to app_visitor
  using (uuid in (select app_hidden.current_environment_rss_feeds()));
create policy select_followed on app_public.rss_feed_items for select to app_visitor
  using (feed_uuid in (select app_hidden.current_environment_rss_feeds()));

-- The items a filter selects, as (uuid, sort_at): one definition for the list and its count.
create function app_hidden.rss_items_matching(filter app_public.rss_feed_item_filter)
  returns table (uuid uuid, sort_at timestamptz)
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  monitor_uuid uuid;
  query tsquery;
begin
  if (filter).monitor is not null then
    monitor_uuid := app_hidden.try_uuid(((filter).monitor).uuid);
    if monitor_uuid is null or not app_hidden.is_current_environment_rss_monitor(monitor_uuid) then
      raise exception 'RSS monitor not found in this environment.' using errcode = 'XNOTF';
    end if;
  end if;
  if length(btrim(coalesce((filter).q, ''))) > 200 then
    raise exception 'Argument "q" is too long: at most 200 characters.' using errcode = 'XINPT';
  end if;
  if btrim(coalesce((filter).q, '')) <> '' then
    query := websearch_to_tsquery('pg_catalog.dutch', (filter).q) || websearch_to_tsquery('pg_catalog.english', (filter).q);
  end if;
  return query
    select i.uuid, i.sort_at from app_public.rss_feed_items i
     where i.feed_uuid in (select f from app_hidden.current_environment_rss_feeds(monitor_uuid) f)
       and ((filter).feed is null or i.feed_uuid = (select r.uuid from app_public.rss_feeds r where r.url = btrim((filter).feed)))
       and (query is null or i.search @@ query)
       and ((filter).since is null or i.sort_at >= (filter).since);
end;
$$;

create function app_public.rss_feed_items(first integer default null, page integer default null,
    filter app_public.rss_feed_item_filter default null) returns setof app_public.rss_feed_item
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select i.uuid, f.url, f.title, i.guid, i.title, i.link, i.summary, i.published_at, i.latitude, i.longitude, i.first_seen_at
    from (select m.uuid, m.sort_at from app_hidden.rss_items_matching(filter) m
           order by m.sort_at desc, m.uuid
           limit app_hidden.page_limit(first, 100, 20) offset app_hidden.page_offset(first, page, 100, 20)) picked
    join app_public.rss_feed_items i on i.uuid = picked.uuid
    join app_public.rss_feeds f on f.uuid = i.feed_uuid
   order by picked.sort_at desc, picked.uuid
$$;
comment on function app_public.rss_feed_items(integer, integer, app_public.rss_feed_item_filter) is
  E'@notNull\nItems of the feeds this environment''s rss monitors follow, newest first (first: default 20, at most 100).';

create function app_public.rss_feed_items_count(filter app_public.rss_feed_item_filter default null) returns integer
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select count(*)::integer from app_hidden.rss_items_matching(filter)
$$;
comment on function app_public.rss_feed_items_count(app_public.rss_feed_item_filter) is E'@notNull\nHow many items rssFeedItems selects with this filter.';

-- The poller stores one fetched document of a feed: new items are inserted (a known item is never
-- rewritten). Items of a feed's first successful fetch are its baseline, not news: the trigger
-- that queues matching reads app.rss_notify.
create function app_private.ingest_rss_items(feed uuid, feed_title text, items jsonb) returns jsonb
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  inserted integer;
begin
  perform pg_advisory_xact_lock(hashtext('rss:' || feed));
  perform set_config('app.rss_notify', exists (select 1 from app_hidden.feed_status s
    where s.feed = 'rss:' || ingest_rss_items.feed and s.last_success_at is not null)::text, true);
  update app_public.rss_feeds f set title = coalesce(left(feed_title, 500), f.title) where f.uuid = ingest_rss_items.feed;
  with written as (
    insert into app_public.rss_feed_items (feed_uuid, item_key, guid, title, link, summary, published_at, latitude, longitude)
    select ingest_rss_items.feed, i.item_key, i.guid, i.title, i.link, i.summary, i.published_at, i.latitude, i.longitude
      from jsonb_to_recordset(items) as i (item_key text, guid text, title text, link text, summary text, published_at timestamptz,
             latitude double precision, longitude double precision)
    on conflict (feed_uuid, item_key) do nothing
    returning 1
  )
  select count(*) into inserted from written;
  return jsonb_build_object('items', jsonb_array_length(items), 'inserted', inserted);
end;
$$;

--------------------------------------------------------------------------------------------------
-- rss monitors

create table app_hidden.rss_monitor_criteria (
  monitor_uuid uuid primary key references app_public.monitors on delete cascade,
  feed_uuids uuid[] not null,
  keywords text[] not null,
  -- Items first seen before the monitor existed are not news to it.
  since timestamptz not null
);
alter table app_hidden.rss_monitor_criteria enable row level security;

-- A monitor's feeds (created when new, due now so the poller fetches them within a minute) and
-- its criteria: one definition for the trigger and the backfill of monitors made before.
create function app_hidden.sync_rss_monitor(mo app_public.monitors) returns void
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  delete from app_hidden.rss_monitor_criteria c where c.monitor_uuid = mo.uuid;
  if mo.type <> 'rss' then
    return;
  end if;
  insert into app_public.rss_feeds (url)
  select distinct u from jsonb_array_elements_text(coalesce(mo.query->'feeds', '[]')) u
  on conflict (url) do nothing;
  if mo.active then
    insert into app_hidden.rss_monitor_criteria (monitor_uuid, feed_uuids, keywords, since)
    values (mo.uuid,
            array(select f.uuid from app_public.rss_feeds f where f.url in (select jsonb_array_elements_text(coalesce(mo.query->'feeds', '[]')))),
            array(select lower(k) from jsonb_array_elements_text(coalesce(mo.query->'keywords', '[]')) k),
            mo.created);
  end if;
end;
$$;

create function app_hidden.tg_monitors__rss_criteria() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  perform app_hidden.sync_rss_monitor(new);
  return null;
end;
$$;
create trigger _500_rss_criteria after insert or update on app_public.monitors
  for each row execute function app_hidden.tg_monitors__rss_criteria();
select app_hidden.sync_rss_monitor(m) from app_public.monitors m where m.type = 'rss';

create function app_hidden.rss_notification_subject(i app_public.rss_feed_items) returns app_hidden.notification_subject
  language sql stable
  set search_path to pg_catalog, public, pg_temp
as $$
  select row(
    left(coalesce(i.title, i.link, 'Nieuw bericht'), 200),
    array[
      format('Feed: %s', coalesce(f.title, f.url)),
      format('Link: %s', coalesce(i.link, '-')),
      format('Published: %s (Europe/Amsterdam)', to_char(i.sort_at at time zone 'Europe/Amsterdam', 'YYYY-MM-DD HH24:MI')),
      left(coalesce(i.summary, ''), 300)],
    'rss.item',
    jsonb_build_object('item', jsonb_build_object('uuid', i.uuid, 'feedUrl', f.url, 'feedTitle', f.title, 'guid', i.guid,
      'title', i.title, 'link', i.link, 'summary', i.summary, 'publishedAt', i.published_at,
      'latitude', i.latitude, 'longitude', i.longitude)))::app_hidden.notification_subject
    from app_public.rss_feeds f where f.uuid = i.feed_uuid
$$;

-- The monitors that follow the item's feed, existed when it was first seen, and whose keywords
-- (any, case-insensitive, in title or summary) it holds; no keywords: every item.
create function app_private.match_rss_item(item_uuid uuid) returns integer
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  i app_public.rss_feed_items;
  text_lower text;
begin
  select * into i from app_public.rss_feed_items x where x.uuid = match_rss_item.item_uuid;
  if i.uuid is null then
    return 0;
  end if;
  text_lower := lower(coalesce(i.title, '') || ' ' || coalesce(i.summary, ''));
  return app_private.notify_feed_event('rss', i.uuid, array(
    select c.monitor_uuid from app_hidden.rss_monitor_criteria c
     where i.feed_uuid = any (c.feed_uuids) and c.since <= i.first_seen_at
       and (cardinality(c.keywords) = 0 or exists (select 1 from unnest(c.keywords) k where strpos(text_lower, k) > 0))
     order by c.monitor_uuid), app_hidden.rss_notification_subject(i));
end;
$$;

create function app_hidden.tg_rss_feed_items__queue_matching() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  fresh uuid[];
begin
  if coalesce(current_setting('app.rss_notify', true), '') <> 'true' then
    return null;
  end if;
  fresh := array(select n.uuid from new_items n order by n.uuid);
  if cardinality(fresh) > 0 then
    perform graphile_worker.add_job('monitors__match_feed', json_build_object('feed', 'rss', 'uuids', fresh), max_attempts := 10);
  end if;
  return null;
end;
$$;
create trigger _600_queue_matching after insert on app_public.rss_feed_items
  referencing new table as new_items for each statement execute function app_hidden.tg_rss_feed_items__queue_matching();
