--! Previous: sha1:af5a3c2a05ed62330b8d20a9edd5fc91857a71d7
--! Hash: sha1:0ba2a348e7877aeb6eedf9a3c30eaeb6bb7fc854
--! Message: The P2000 criteria match is inlined again

-- app_hidden.p2000_criteria_match calls app_hidden.point_area_keys (migration 000094), which reads a
-- table and so is STABLE: an IMMUTABLE SQL function with a STABLE call in it is no longer inlined,
-- and every candidate monitor was checked through a function call (20 ms a message at 100,000
-- monitors instead of a few). STABLE is what it is; inlined again.
alter function app_hidden.p2000_criteria_match(c app_hidden.p2000_monitor_criteria, m app_public.p2000_messages) stable;
