--! Previous: sha1:e7ffed8b0453e04b057429d13224189eb7bc0bc9
--! Hash: sha1:c9e4ef4656671a42b48bc2a894a1d285771e9ca7
--! Message: Request budgets shared by API instances: add_rate_limit_hits

-- Request budgets shared by API instances (lib/http/rate-limiter.ts): each instance adds its new
-- hits per bucket once a second and learns every instance's total of the window.
drop function if exists app_private.add_rate_limit_hits(text[], integer[], timestamptz);

create function app_private.add_rate_limit_hits(buckets text[], hits integer[], window_start timestamptz)
  returns table (bucket text, total integer)
  language sql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
  -- Sorted, so two instances flushing the same buckets lock them in the same order (no deadlock).
  insert into app_private.rate_limit_counters as c (bucket, window_start, hits)
  select u.bucket, add_rate_limit_hits.window_start, u.hits
    from unnest(buckets, hits) as u (bucket, hits)
   where u.hits > 0
   order by u.bucket
  on conflict on constraint rate_limit_counters_pkey do update set hits = c.hits + excluded.hits
  returning c.bucket, c.hits
$$;
comment on function app_private.add_rate_limit_hits(text[], integer[], timestamptz) is
  'Adds an API instance''s hits per rate-limit bucket in one window and returns the totals of all instances.';
revoke all on function app_private.add_rate_limit_hits(text[], integer[], timestamptz) from public;
