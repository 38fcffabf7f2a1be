--! Previous: sha1:b9921ff57d2423624389f90a23367df357aff5be
--! Hash: sha1:11c62475c79decfacd76697af4d08665cc7e3347
--! Message: The other per-row helpers without their own search_path (observations' station name, warning events' province, fire vehicles, monitors, road prefixes, aircraft routes, users' e-mail, sessions)

-- The other per-row helpers without their own search_path, for the reason migration 000039 gives
-- (a SQL function with a SET clause is a separate call for every row and is never inlined): a
-- station's day of observations called meteo_observations_station_name 144 times a request.
-- Their bodies name every table and function by schema. users_has_password is SECURITY DEFINER
-- and keeps its setting. test/db/roles-and-rls.test.ts holds every per-row SQL helper of
-- app_public that is not SECURITY DEFINER to this.
alter function app_public.users_email(app_public.users) reset search_path;
alter function app_public.sessions_is_current(app_public.sessions) reset search_path;
alter function app_public.monitors_location(app_public.monitors) reset search_path;
alter function app_public.monitors_query(app_public.monitors) reset search_path;
alter function app_public.monitors_notification_rules(app_public.monitors) reset search_path;
alter function app_public.monitors_channels(app_public.monitors) reset search_path;
alter function app_public.fire_vehicles_name_format(app_public.fire_vehicles) reset search_path;
alter function app_public.fire_vehicles_number(app_public.fire_vehicles) reset search_path;
alter function app_public.fire_vehicles_station(app_public.fire_vehicles) reset search_path;
alter function app_public.fire_vehicles_type(app_public.fire_vehicles) reset search_path;
alter function app_public.fire_vehicles_type_name(app_public.fire_vehicles) reset search_path;
alter function app_public.road_prefixes_roads(app_public.road_prefixes) reset search_path;
alter function app_public.road_prefixes_road_count(app_public.road_prefixes) reset search_path;
alter function app_public.meteo_observations_station_name(app_public.meteo_observations) reset search_path;
alter function app_public.meteo_warning_events_region_code(app_public.meteo_warning_events) reset search_path;
alter function app_public.meteo_warning_events_region_name(app_public.meteo_warning_events) reset search_path;
alter function app_public.aircraft_routes_points(app_public.aircraft_routes) reset search_path;
alter function app_public.aircraft_routes_log(app_public.aircraft_routes) reset search_path;
alter function app_public.aircraft_routes_path(app_public.aircraft_routes) reset search_path;
