--! Previous: sha1:a31e9b58bc981dd1d5f4df7d9e4cac855fc8b0f6
--! Hash: sha1:d91e2c22b5b790e56d3af882ecd6b8b8850cd6eb
--! Message: nlAlerts faster: region numbers beside each alert, the page picked by index before one projection

-- nlAlerts, faster: each alert keeps its region numbers beside it (kept by the same function that
-- fills app_public.nl_alert_regions), and the query picks the page by the fitting index first and
-- shapes the rows in one projection, without a function call and a subquery per row.

alter table app_public.nl_alerts drop column if exists region_numbers;
alter table app_public.nl_alerts add column region_numbers text[] not null default '{}';
comment on column app_public.nl_alerts.region_numbers is 'The safety regions the areas cover (as app_public.nl_alert_regions holds them).';

create or replace function app_hidden.refresh_nl_alert_regions(alert_uuids uuid[]) returns void
  language sql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
  update app_public.nl_alerts a set region_numbers = app_hidden.nl_alert_region_numbers(a.areas)
   where alert_uuids is null or a.uuid = any (alert_uuids);
  delete from app_public.nl_alert_regions ar where alert_uuids is null or ar.alert_uuid = any (alert_uuids);
  insert into app_public.nl_alert_regions (alert_uuid, region_number, start_at)
  select a.uuid, n.number, a.start_at
    from app_public.nl_alerts a, unnest(a.region_numbers) n (number)
   where alert_uuids is null or a.uuid = any (alert_uuids);
$$;
select app_hidden.refresh_nl_alert_regions(null);

drop function if exists app_hidden.nl_alert_of(app_public.nl_alerts);

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
        -- With a region, the region's index gives its alerts in order; without, the alerts' own.
        -- Only one branch runs: the other's one-time filter is false.
        (select ar.alert_uuid as uuid, ar.start_at from app_public.nl_alert_regions ar join app_public.nl_alerts x on x.uuid = ar.alert_uuid
          where region is not null and ar.region_number = region and ar.start_at between from_at and to_at
            and (not only_active or x.stop_at is null or x.stop_at > now())
          order by ar.start_at desc, ar.alert_uuid limit page_size offset skip)
        union all
        (select x.uuid, x.start_at from app_public.nl_alerts x
          where region is null and x.start_at between from_at and to_at and (not only_active or x.stop_at is null or x.stop_at > now())
          order by x.start_at desc, x.uuid limit page_size offset skip)
      ) picked
      join app_public.nl_alerts a on a.uuid = picked.uuid
     order by picked.start_at desc, picked.uuid;
end;
$$;
