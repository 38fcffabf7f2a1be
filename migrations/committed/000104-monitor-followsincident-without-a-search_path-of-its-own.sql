--! Previous: sha1:070cf1003bb0032df1e39e592e2b3344c5fe6b56
--! Hash: sha1:41afea0281be484546a93ec403bd48b334fef9bf
--! Message: Monitor.followsIncident without a search_path of its own

-- A per-row helper of app_public (a computed field) has no setting of its own, so that it is
-- inlined into its caller's plan (migrations 000039 and 000040; test/db/roles-and-rls.test.ts):
-- Monitor.followsIncident (migration 000100) had a search_path. It names everything by schema.
create or replace function app_public.monitors_follows_incident(m app_public.monitors) returns uuid
  language sql stable
as $$
  select f.dossier_uuid from app_hidden.incident_follows f where f.monitor_uuid = m.uuid
$$;
comment on function app_public.monitors_follows_incident(m app_public.monitors) is 'The incident (dossier uuid) a monitor made by followIncident follows; null for every other monitor.';
