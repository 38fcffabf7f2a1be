--! Previous: sha1:2bc9e04c89f093deaa93de298b231122bf46e0fd
--! Hash: sha1:af3255731ab55f08061f6b0a5e0d3a40e60effb9
--! Message: rssFeedItemsCount from kept per-feed counts

-- rssFeedItemsCount without a text query or a since: the sum of kept per-feed counts, not a count
-- of every item of the environment's feeds (1.1 million items: 280 ms; issue 33's ten-year table).

create table if not exists app_hidden.rss_feed_item_counts (
  feed_uuid uuid primary key,
  items bigint not null default 0
);
alter table app_hidden.rss_feed_item_counts enable row level security;
comment on table app_hidden.rss_feed_item_counts is
  'Items per RSS feed, kept by the statement triggers of app_public.rss_feed_items (no foreign key: a feed''s deletion deletes its items, whose trigger then removes the row). Read by rssFeedItemsCount (security definer) only.';

create or replace function app_hidden.tg_rss_feed_items__count() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  added uuid[] := '{}';
  removed uuid[] := '{}';
begin
  if tg_op = 'TRUNCATE' then
    delete from app_hidden.rss_feed_item_counts;
    return null;
  end if;
  -- A transition table exists only for the operations that have it, so each is read in its branch.
  if tg_op in ('INSERT', 'UPDATE') then
    added := array(select n.feed_uuid from new_items n);
  end if;
  if tg_op in ('DELETE', 'UPDATE') then
    removed := array(select o.feed_uuid from old_items o);
  end if;
  -- The statement's change per feed, in feed order (so that two statements never wait for each
  -- other's rows in opposite orders); an UPDATE that kept every item's feed changes nothing.
  insert into app_hidden.rss_feed_item_counts as c (feed_uuid, items)
  select x.feed_uuid, sum(x.n)
    from (select unnest(added) as feed_uuid, 1 as n union all select unnest(removed), -1) x
   group by x.feed_uuid having sum(x.n) <> 0 order by x.feed_uuid
  on conflict (feed_uuid) do update set items = c.items + excluded.items;
  delete from app_hidden.rss_feed_item_counts c where c.items = 0 and c.feed_uuid = any (removed);
  return null;
end;
$$;
comment on function app_hidden.tg_rss_feed_items__count() is
  'Keeps app_hidden.rss_feed_item_counts: items per feed after each INSERT, UPDATE, DELETE or TRUNCATE of RSS items.';

drop trigger if exists _500_count_inserted on app_public.rss_feed_items;
create trigger _500_count_inserted after insert on app_public.rss_feed_items
  referencing new table as new_items for each statement execute function app_hidden.tg_rss_feed_items__count();
drop trigger if exists _500_count_updated on app_public.rss_feed_items;
create trigger _500_count_updated after update on app_public.rss_feed_items
  referencing old table as old_items new table as new_items for each statement execute function app_hidden.tg_rss_feed_items__count();
drop trigger if exists _500_count_deleted on app_public.rss_feed_items;
create trigger _500_count_deleted after delete on app_public.rss_feed_items
  referencing old table as old_items for each statement execute function app_hidden.tg_rss_feed_items__count();
drop trigger if exists _500_count_truncated on app_public.rss_feed_items;
create trigger _500_count_truncated after truncate on app_public.rss_feed_items
  for each statement execute function app_hidden.tg_rss_feed_items__count();

-- The items already stored.
insert into app_hidden.rss_feed_item_counts (feed_uuid, items)
select feed_uuid, count(*) from app_public.rss_feed_items group by feed_uuid
on conflict (feed_uuid) do update set items = excluded.items;

create or replace function app_public.rss_feed_items_count(filter app_public.rss_feed_item_filter default null)
  returns integer
  language plpgsql stable parallel safe security definer
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  w record;
  n integer;
begin
  select * into w from app_hidden.rss_filter_resolved(filter);
  -- Every item of the chosen feeds: their kept counts.
  if w.query is null and w.since is null then
    select coalesce(sum(c.items), 0)::integer into n from app_hidden.rss_feed_item_counts c where c.feed_uuid = any (w.feed_uuids);
    return n;
  end if;
  execute format('select count(*)::integer from app_public.rss_feed_items x where x.feed_uuid = any ($1) %s %s',
    case when w.query is not null then 'and x.search @@ $2' else '' end,
    case when w.since is not null then 'and x.sort_at >= $3' else '' end)
  into n using w.feed_uuids, w.query, w.since;
  return n;
end;
$$;
comment on function app_public.rss_feed_items_count(app_public.rss_feed_item_filter) is '@notNull
How many items rssFeedItems selects with this filter.';
