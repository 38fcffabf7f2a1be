-- Runs as the PostgreSQL superuser right after a database is created (graphile-migrate `reset`,
-- the shadow database of `commit`, and the bootstrap of the embedded default and of
-- ROOT_DATABASE_URL). The roles themselves are cluster-wide and created by lib/db/bootstrap.ts
-- before this file runs; here we only lock the new database down and add the extensions, which
-- must exist before the first migration.
begin;
revoke all on database :DATABASE_NAME from public;
grant connect on database :DATABASE_NAME to :DATABASE_OWNER, app_authenticator, app_analyst;
grant all on database :DATABASE_NAME to :DATABASE_OWNER;

-- Nobody but the owner may create objects in, or read from, the public schema.
alter schema public owner to :DATABASE_OWNER;
revoke all on schema public from public;
grant usage on schema public to app_visitor, app_analyst;

create extension if not exists pgcrypto with schema public;
create extension if not exists citext with schema public;
create extension if not exists pg_trgm with schema public;
create extension if not exists cube with schema public;
create extension if not exists earthdistance with schema public;
create extension if not exists btree_gist with schema public;
commit;
