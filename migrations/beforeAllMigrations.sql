-- Runs as the owner before any pending committed migration (graphile-migrate beforeAllMigrations).
-- Migrations and SQL functions may use only what every supported PostgreSQL (15 to 18) has; the
-- few newer built-ins we rely on get a stand-in here, created only where the server lacks them, so
-- on PostgreSQL 18 the built-in is what runs. Keep each stand-in idempotent and behaving exactly
-- as the built-in does.

-- uuidv7() (built in from PostgreSQL 18): RFC 9562 version 7 in the built-in's layout: 48 bits of
-- Unix milliseconds, the version, 12 bits of sub-millisecond fraction (so keys made in one
-- session sort by time to the microsecond, as the built-in's do), the variant, and 62 random bits.
do $$
begin
  if to_regprocedure('pg_catalog.uuidv7()') is null then
    create or replace function public.uuidv7() returns uuid
      language sql volatile parallel safe
    as $fn$
      select encode(
        overlay(
          overlay(uuid_send(gen_random_uuid())
            placing substring(int8send(floor(extract(epoch from now_ts) * 1000)::bigint) from 3 for 6) from 1 for 6)
          placing int2send((x'7000'::int | ((extract(microseconds from now_ts)::bigint % 1000) * 4096 / 1000)::int)::int2) from 7 for 2),
        'hex')::uuid
      from (select clock_timestamp() as now_ts) as t
    $fn$;
    comment on function public.uuidv7() is
      'Stand-in for PostgreSQL 18''s built-in uuidv7() on older servers (migrations/beforeAllMigrations.sql).';
  end if;
end
$$;
