--! Previous: sha1:af72d61187eecd2832b333b50746df864c322a8f
--! Hash: sha1:55688eb19b7fb74d0863d9add744adf24052fea7
--! Message: aircraft_routes_path keeps its search_path (SECURITY DEFINER)

-- Migration 000040 took the search_path setting off aircraft_routes_path, which is SECURITY
-- DEFINER (it writes the route's path cache) and must keep it: a definer function without a fixed
-- search_path would resolve names through the caller's. Set back as it was.
alter function app_public.aircraft_routes_path(app_public.aircraft_routes) set search_path to pg_catalog, public, pg_temp;
