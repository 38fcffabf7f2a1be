--! Previous: sha1:226bd4b5226f0b2b6eaa9d22ab55585e7c3e1c46
--! Hash: sha1:c6558bd05712457d57c8b8d6d3a509cdff87c776
--! Message: The aircraft monitors' partial index of 000023 dropped: read by nothing since 000101

-- The overhead trigger finds an aircraft monitor's reach through app_hidden.aircraft_monitor_criteria's
-- GiST index since migration 000101; the partial index of migration 000023 that it read before is
-- read by nothing now, and would only cost every write of a monitor.
drop index if exists app_public.monitors_aircraft_circles_idx;
