--! Previous: sha1:23b6b7c47c020270ded2edaccdf2fd07d4f512d6
--! Hash: sha1:d68e8249ffefee478bd9d78aab2e0d76765ddde6
--! Message: nlAlerts activeOnly by an index on the stop time

-- nlAlerts(activeOnly) without reading every alert of a region: the running alerts (no stop time,
-- or one in the future) are few at any moment, so an index on the stop time finds them all and
-- the region and the time window filter that handful.

drop index if exists app_public.nl_alerts_stop_idx;
create index nl_alerts_stop_idx on app_public.nl_alerts (stop_at);

create or replace function app_public.nl_alerts(first integer default null, page integer default null, since app_public.unix_time default null,
    until app_public.unix_time default null, region_number text default null, active_only boolean default null)
  returns setof app_public.nl_alert
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  from_at timestamptz;
  to_at timestamptz;
  region text;
  page_size integer := app_hidden.page_limit(first, 100);
  skip integer := app_hidden.page_offset(first, page, 100);
  only_active boolean := coalesce(active_only, false);
begin
  select w.from_at, w.to_at into from_at, to_at from app_hidden.time_window(since, until) w;
  if region_number is not null then
    select r.number into region from app_public.p2000_regions r
     where r.number = lpad(btrim(region_number), 2, '0') or r.code = upper(btrim(region_number));
    if region is null then
      raise exception 'Unknown region number "%": give a safety-region number from 01 to 25.', left(region_number, 20)
        using errcode = 'XINPT';
    end if;
  end if;
  return query
    select a.uuid, a.alert_id, a.message,
           -- The source writes the Dutch text, then ***, then the English one (if any).
           btrim(split_part(a.message, '***', 1)),
           case when strpos(a.message, '***') > 0 then nullif(btrim(substr(a.message, strpos(a.message, '***') + 3)), '') end,
           a.stop_at is null or a.stop_at > now(), app_hidden.to_unix_time(a.start_at), app_hidden.to_unix_time(a.stop_at),
           a.area_texts, a.region_numbers, a.resource_uri
      from (
        -- The page is picked by the index that fits; only one branch runs (the others' one-time
        -- filters are false). Running alerts: by their stop time.
        (select x.uuid, x.start_at from app_public.nl_alerts x
          where only_active and (x.stop_at is null or x.stop_at > now()) and (region is null or region = any (x.region_numbers))
            and x.start_at between from_at and to_at
          order by x.start_at desc, x.uuid limit page_size offset skip)
        union all
        -- A region's alerts: its index gives them in order.
        (select ar.alert_uuid, ar.start_at from app_public.nl_alert_regions ar
          where not only_active and region is not null and ar.region_number = region and ar.start_at between from_at and to_at
          order by ar.start_at desc, ar.alert_uuid limit page_size offset skip)
        union all
        (select x.uuid, x.start_at from app_public.nl_alerts x
          where not only_active and region is null and x.start_at between from_at and to_at
          order by x.start_at desc, x.uuid limit page_size offset skip)
      ) picked (uuid, start_at)
      join app_public.nl_alerts a on a.uuid = picked.uuid
     order by picked.start_at desc, picked.uuid;
end;
$$;
