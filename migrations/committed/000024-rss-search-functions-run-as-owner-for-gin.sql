--! Previous: sha1:8e8ca6b8af2bd7e55691ad811c23f6b61e0faada
--! Hash: sha1:1a6e2016c1186847a308316450a137760de69ae9
--! Message: rssFeedItems for rare words: the search functions run as their owner so the GIN index can serve @@, finer statistics on the search vector

-- rssFeedItems(q) for rare words: row-level security must run before any function that is not
-- leakproof, and the text match (@@) is not, so for app_visitor the GIN index could never be
-- used and a rare word walked the whole sort-order index (409 ms a call). The two functions run as
-- their owner instead: they read only the feeds app_hidden.rss_filter_resolved gives, which come
-- from the same function the policy uses (the environment's own feeds), so they show nothing the
-- policy would hide. A finer statistics target on the search vector lets the planner see that a
-- rare word is rare (estimated 1,539 items for 31 before).

alter function app_public.rss_feed_items(integer, integer, app_public.rss_feed_item_filter) security definer;
alter function app_public.rss_feed_items_count(app_public.rss_feed_item_filter) security definer;
alter table app_public.rss_feed_items alter column search set statistics 1000;
analyze app_public.rss_feed_items;
