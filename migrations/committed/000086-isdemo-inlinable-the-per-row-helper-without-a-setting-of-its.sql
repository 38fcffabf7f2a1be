--! Previous: sha1:924179748f66f2922571005ff6cea648ed94cdb3
--! Hash: sha1:975609dca323257bffcf73130a1b372c04a713c3
--! Message: isDemo inlinable: the per-row helper without a setting of its own

-- p2000_messages_is_demo (000084) without a setting of its own, as every per-row helper: a
-- function with `set search_path` is never inlined, so it would be a call per row of every list
-- that asks isDemo (test/db/roles-and-rls.test.ts holds the helpers to this). Its body names no
-- object, so it needs no search_path.
create or replace function app_public.p2000_messages_is_demo(m app_public.p2000_messages) returns boolean
  language sql stable parallel safe
as $$
  select m.source = 'demo'
$$;
