--! Previous: sha1:4360ce9f5b8a6f310282a19db77828f47881a414
--! Hash: sha1:4a09888f6482d8055ffbaba3765befac86d374bc
--! Message: rssFeedItems over a million items: the filter resolved once, each page one statement planned with its own values

-- rssFeedItems over a million items: the filter is resolved once (the environment's feeds, the
-- text query) and the page is one plain statement the planner can shape: walking the newest items
-- by a sort-order index and stopping at the page's end when the words are common, or the GIN
-- index and a small sort when they are rare. (The first version gathered every matching item
-- before sorting: 0.5–1.3 s a call at a million items.)

drop function if exists app_hidden.rss_items_matching(app_public.rss_feed_item_filter);
drop function if exists app_hidden.rss_filter_resolved(app_public.rss_feed_item_filter);
drop index if exists app_public.rss_feed_items_sort_idx;

create index rss_feed_items_sort_idx on app_public.rss_feed_items (sort_at desc, uuid);

-- The filter as the statements use it: the feeds to read (the environment's, narrowed to a
-- monitor's or one URL), the text query, the lower time bound. Checks the arguments.
create function app_hidden.rss_filter_resolved(filter app_public.rss_feed_item_filter,
    out feed_uuids uuid[], out query tsquery, out since timestamptz)
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  monitor_uuid uuid;
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
  feed_uuids := array(select f from app_hidden.current_environment_rss_feeds(monitor_uuid) f
                       where (filter).feed is null or f = (select r.uuid from app_public.rss_feeds r where r.url = btrim((filter).feed)));
  since := (filter).since;
end;
$$;

-- EXECUTE plans each call with its own values: the planner's estimate of how common the words
-- are (from the search column's statistics) picks the sort-order walk or the GIN index; a cached
-- generic plan could not.
create or replace function app_public.rss_feed_items(first integer default null, page integer default null,
    filter app_public.rss_feed_item_filter default null) returns setof app_public.rss_feed_item
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  w record;
begin
  select * into w from app_hidden.rss_filter_resolved(filter);
  return query execute format($q$
    select i.uuid, f.url, f.title, i.guid, i.title, i.link, i.summary, i.published_at, i.latitude, i.longitude, i.first_seen_at
      from (select x.* from app_public.rss_feed_items x
             where x.feed_uuid = any ($1) %s %s
             order by x.sort_at desc, x.uuid limit $4 offset $5) i
      join app_public.rss_feeds f on f.uuid = i.feed_uuid
     order by i.sort_at desc, i.uuid$q$,
    case when w.query is not null then 'and x.search @@ $2' else '' end,
    case when w.since is not null then 'and x.sort_at >= $3' else '' end)
  using w.feed_uuids, w.query, w.since, app_hidden.page_limit(first, 100, 20), app_hidden.page_offset(first, page, 100, 20);
end;
$$;

create or replace function app_public.rss_feed_items_count(filter app_public.rss_feed_item_filter default null) returns integer
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  w record;
  n integer;
begin
  select * into w from app_hidden.rss_filter_resolved(filter);
  execute format('select count(*)::integer from app_public.rss_feed_items x where x.feed_uuid = any ($1) %s %s',
    case when w.query is not null then 'and x.search @@ $2' else '' end,
    case when w.since is not null then 'and x.sort_at >= $3' else '' end)
  into n using w.feed_uuids, w.query, w.since;
  return n;
end;
$$;
