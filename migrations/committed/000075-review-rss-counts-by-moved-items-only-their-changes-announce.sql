--! Previous: sha1:af3255731ab55f08061f6b0a5e0d3a40e60effb9
--! Hash: sha1:1dc670fb6e2b52254e0ffa7518ecdebd2bbb9b04
--! Message: Review: RSS counts by moved items only, their changes announced; p2000Dossiers makes each dossier's view once

-- Review of 000073 and 000074 (issue 33's ten-year table).

-- The RSS item counts: an UPDATE counts only the items whose feed it changed (a migration that
-- rewrites every item's text no longer builds arrays of every row), and the rows that reach zero
-- come from the upsert itself. A DBA's change to the counts clears cached answers, as every table
-- a public read reads does (migration 000070).
create or replace function app_hidden.tg_rss_feed_items__count() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  added uuid[] := '{}';
  removed uuid[] := '{}';
  emptied uuid[];
begin
  if tg_op = 'TRUNCATE' then
    delete from app_hidden.rss_feed_item_counts;
    return null;
  end if;
  -- A transition table exists only for the operations that have it, so each is read in its branch.
  if tg_op = 'INSERT' then
    added := array(select n.feed_uuid from new_items n);
  elsif tg_op = 'DELETE' then
    removed := array(select o.feed_uuid from old_items o);
  else
    added := array(select n.feed_uuid from new_items n join old_items o using (uuid) where n.feed_uuid <> o.feed_uuid);
    removed := array(select o.feed_uuid from new_items n join old_items o using (uuid) where n.feed_uuid <> o.feed_uuid);
  end if;
  -- The statement's change per feed, in feed order (so that two statements never wait for each
  -- other's rows in opposite orders); a feed left with no items loses its row.
  with changed as (
    insert into app_hidden.rss_feed_item_counts as c (feed_uuid, items)
    select x.feed_uuid, sum(x.n)
      from (select unnest(added) as feed_uuid, 1 as n union all select unnest(removed), -1) x
     group by x.feed_uuid having sum(x.n) <> 0 order by x.feed_uuid
    on conflict (feed_uuid) do update set items = c.items + excluded.items
    returning c.feed_uuid, c.items
  )
  select array_agg(feed_uuid) into emptied from changed where items = 0;
  if emptied is not null then
    delete from app_hidden.rss_feed_item_counts c where c.feed_uuid = any (emptied) and c.items = 0;
  end if;
  return null;
end;
$$;

drop trigger if exists _900_notify_data_changed on app_hidden.rss_feed_item_counts;
create trigger _900_notify_data_changed after insert or delete or update or truncate on app_hidden.rss_feed_item_counts
  for each statement execute function app_hidden.tg__notify_data_changed('rss');

-- p2000Dossiers: the dossier's view made once per row (a lateral call), not once per column as
-- `(f(d)).*` expands to; one statement, its ORDER BY chosen from the four the indexes serve.
create or replace function app_public.p2000_dossiers(
  first integer default 50, page integer default 1, filter app_public.p2000_dossier_filter default null
) returns setof app_public.p2000_dossier
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  one app_public.p2000_dossiers;
  order_by text := coalesce((filter).order_by, 'lastSendedDesc');
  -- Each order is the order of an index (lastSendedAsc reads p2000_dossiers_last_sended_idx
  -- backwards, so its tie-break is the uuid descending).
  order_sql text := case order_by
    when 'lastSendedDesc' then 'x.last_sended desc, x.uuid'
    when 'lastSendedAsc' then 'x.last_sended, x.uuid desc'
    when 'firstSendedDesc' then 'x.first_sended desc, x.last_sended desc, x.uuid'
    when 'messageCountDesc' then 'x.message_count desc, x.last_sended desc, x.uuid'
  end;
begin
  perform app_hidden.p2000_dossier_view(null, (filter).messages_order_by, (filter).timeline_order_by); -- checks the orders
  if (filter).message is not null or (filter).dossier is not null then
    one := app_hidden.p2000_referenced_dossier((filter).dossier, (filter).message);
    if one.uuid is not null and app_hidden.page_offset(first, page) = 0 then
      return next app_hidden.p2000_dossier_view(one, (filter).messages_order_by, (filter).timeline_order_by);
    end if;
    return;
  end if;
  if order_sql is null then
    raise exception 'orderBy must be lastSendedDesc, lastSendedAsc, firstSendedDesc or messageCountDesc (got "%").', (filter).order_by
      using errcode = 'XINPT';
  end if;
  return query execute format($q$
    select v.* from (select x.* from app_public.p2000_dossiers x order by %1$s limit $1 offset $2) x
      cross join lateral app_hidden.p2000_dossier_view(x, $3, $4) v
     order by %1$s$q$, order_sql)
    using app_hidden.page_limit(first), app_hidden.page_offset(first, page), (filter).messages_order_by, (filter).timeline_order_by;
end;
$$;
comment on function app_public.p2000_dossiers(integer, integer, app_public.p2000_dossier_filter) is '@notNull
Dossiers (incidents): an overview, or the one of a message or dossier.';
