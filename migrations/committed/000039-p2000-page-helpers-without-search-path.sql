--! Previous: sha1:6ed37cd717cf508063b8eecfe0e5bf2b0a49fc77
--! Hash: sha1:b9921ff57d2423624389f90a23367df357aff5be
--! Message: The per-row helpers of P2000 pages without their own search_path (inlinable capcodes, no per-row setting)

-- The per-row helpers of P2000 pages without their own search_path. A SQL function with a SET
-- clause is called as a separate function call for every row (PostgreSQL applies and undoes the
-- setting each time) and can never be inlined: a page of 50 messages with their capcodes made 50
-- such calls, 1.01 ms of the page's 1.01 ms statement against 0.63 ms without the SET
-- (docs/benchmarks.md, the request path). Their bodies name every table and function by schema
-- and pg_catalog is always searched first, so they need no setting; as in migration 000017.
-- test/db/roles-and-rls.test.ts holds them so: no setting, and valid with an empty search_path.
alter function app_public.p2000_messages_capcodes(app_public.p2000_messages) reset search_path;
alter function app_public.p2000_messages_dossier(app_public.p2000_messages) reset search_path;
alter function app_public.p2000_dossier_category(app_public.p2000_dossier) reset search_path;
alter function app_public.p2000_dossier_discipline(app_public.p2000_dossier) reset search_path;
alter function app_public.p2000_dossier_region(app_public.p2000_dossier) reset search_path;
alter function app_public.p2000_dossier_urgency(app_public.p2000_dossier) reset search_path;
alter function app_public.p2000_dossier_messages(app_public.p2000_dossier) reset search_path;
alter function app_public.p2000_dossier_timeline_entries(app_public.p2000_dossier) reset search_path;
