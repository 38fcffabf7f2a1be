--! Previous: sha1:00b7eaa28e6750258aa572c85bc439055d77a4cf
--! Hash: sha1:a166708687e38a51076718a1d4ebd90a4ac1d0d9
--! Message: Live demo: the demo installation and its last tick

-- Live demo data (issue 31): a demo installation keeps receiving synthetic P2000 traffic and demo
-- helicopter positions every minute (task demo__tick), through the real ingestion paths. Whether
-- this installation is a demo one is decided once, when its first start (embedded, DEMO_DATA)
-- queues the demo load, and kept here with how far the live demo has got, so the ticks of several
-- workers, or of a worker restarted, store each minute once.

alter table app_private.installation add column if not exists demo_live_until timestamptz;
comment on column app_private.installation.demo_live_until is 'Null: not a demo installation (the demo__tick task stores nothing). Else: the end of the last minute the live demo stored (synthetic P2000 traffic and demo helicopter positions); set to the time of the demo load by the first start of the embedded default with DEMO_DATA, advanced by each tick.';

-- Installations that loaded the demo before this migration have the demo helicopter in their
-- fleet (a primary-key look-up, where looking for demo messages would read the whole table).
update app_private.installation
   set demo_live_until = now()
 where demo_live_until is null
   and exists (select 1 from app_public.aircraft_fleet f where f.icao = 'de0001');
