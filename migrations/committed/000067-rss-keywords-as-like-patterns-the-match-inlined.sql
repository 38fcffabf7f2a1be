--! Previous: sha1:30aa98135f809c006336bc4e8ee8f50bb16d0f69
--! Hash: sha1:00b7eaa28e6750258aa572c85bc439055d77a4cf
--! Message: RSS keywords as LIKE patterns: the match inlined

-- monitorPreview of rss monitors at the benches' history sizes (bench/monitor-preview.ts): the
-- one definition of a match (app_hidden.rss_item_passes) tested the keywords with a sub-select
-- (exists over unnest), and a SQL function with a sub-select is never inlined: PostgreSQL called
-- it as a function for each of the tens of thousands of items in a monitor's window. The
-- criteria now carry their keywords as LIKE patterns too (app_hidden.contains_pattern, as P2000
-- monitors do), so the test is one expression (like any) and the definition is inlined into the statements that use it.

alter table app_hidden.rss_monitor_criteria add column if not exists keyword_patterns text[] not null default '{}';
comment on column app_hidden.rss_monitor_criteria.keyword_patterns is 'The keywords as LIKE patterns (%keyword%, with %, _ and the backslash escaped), so app_hidden.rss_item_passes tests them in one expression.';

create or replace function app_hidden.rss_criteria_of(mo app_public.monitors)
  returns app_hidden.rss_monitor_criteria
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select row(mo.uuid,
             array(select f.uuid from app_public.rss_feeds f where f.url in (select jsonb_array_elements_text(coalesce(mo.query->'feeds', '[]')))),
             array(select lower(k) from jsonb_array_elements_text(coalesce(mo.query->'keywords', '[]')) k),
             coalesce(mo.created, '-infinity'),
             array(select app_hidden.contains_pattern(lower(k)) from jsonb_array_elements_text(coalesce(mo.query->'keywords', '[]')) k)
            )::app_hidden.rss_monitor_criteria
$$;
comment on function app_hidden.rss_criteria_of(mo app_public.monitors) is 'An rss monitor''s criteria: the feeds of its query that are followed (by uuid), its keywords in lower case (and as LIKE patterns), and since its creation (an unsaved monitor, for monitorPreview, since ever). One definition for app_hidden.sync_rss_monitor and monitorPreview.';

-- The rows of active monitors made before the patterns.
update app_hidden.rss_monitor_criteria c
   set keyword_patterns = array(select app_hidden.contains_pattern(k) from unnest(c.keywords) k)
 where cardinality(c.keywords) <> cardinality(c.keyword_patterns);

create or replace function app_hidden.rss_item_passes(c app_hidden.rss_monitor_criteria, i app_public.rss_feed_items)
  returns boolean
  language sql immutable parallel safe
as $$
  select i.feed_uuid = any (c.feed_uuids) and c.since <= i.first_seen_at
     and (cardinality(c.keyword_patterns) = 0
          or pg_catalog.lower(coalesce(i.title, '') || ' ' || coalesce(i.summary, '')) like any (c.keyword_patterns))
$$;
comment on function app_hidden.rss_item_passes(c app_hidden.rss_monitor_criteria, i app_public.rss_feed_items) is 'Whether an RSS item reaches an rss monitor: of a feed it follows, first seen after the monitor was made, holding one of its keywords (case-insensitive, in title or summary) or it has none. One expression (no sub-select), so PostgreSQL inlines it, as the P2000 keywords are tested (app_hidden.contains_pattern). One definition for app_private.match_rss_item and monitorPreview.';
