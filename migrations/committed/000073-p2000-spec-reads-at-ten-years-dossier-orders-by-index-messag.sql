--! Previous: sha1:1bb9591b947b1d7fd8dc1262866459edf1499ff7
--! Hash: sha1:2bc9e04c89f093deaa93de298b231122bf46e0fd
--! Message: P2000 spec reads at ten years: dossier orders by index, message statistics from roll-ups

-- Spec reads at ten years (issue 33, part 5): the P2000 reads that sorted or scanned the history
-- read an index or the roll-ups instead.

-- p2000Dossiers: every order walks an index and stops after the page. The orders were CASE
-- expressions in one ORDER BY, which no index serves, so each page sorted every dossier (2.5 s at
-- 7.5 million). The tie-breaks are the ones the orders had: last_sended desc, then uuid.
create index if not exists p2000_dossiers_message_count_idx
  on app_public.p2000_dossiers (message_count desc, last_sended desc, uuid);
create index if not exists p2000_dossiers_first_sended_idx
  on app_public.p2000_dossiers (first_sended desc, last_sended desc, uuid);

create or replace function app_public.p2000_dossiers(
  first integer default 50, page integer default 1, filter app_public.p2000_dossier_filter default null
) returns setof app_public.p2000_dossier
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  one app_public.p2000_dossiers;
  order_by text := coalesce((filter).order_by, 'lastSendedDesc');
  page_limit integer := app_hidden.page_limit(first);
  page_offset integer := app_hidden.page_offset(first, page);
begin
  perform app_hidden.p2000_dossier_view(null, (filter).messages_order_by, (filter).timeline_order_by); -- checks the orders
  if (filter).message is not null or (filter).dossier is not null then
    one := app_hidden.p2000_referenced_dossier((filter).dossier, (filter).message);
    if one.uuid is not null and page_offset = 0 then
      return next app_hidden.p2000_dossier_view(one, (filter).messages_order_by, (filter).timeline_order_by);
    end if;
    return;
  end if;
  -- One static query per order, each the order of an index (lastSendedAsc reads
  -- p2000_dossiers_last_sended_idx backwards, so its tie-break is uuid descending).
  case order_by
    when 'lastSendedDesc' then
      return query select (app_hidden.p2000_dossier_view(d, (filter).messages_order_by, (filter).timeline_order_by)).*
        from (select * from app_public.p2000_dossiers x order by x.last_sended desc, x.uuid
               limit page_limit offset page_offset) d
       order by d.last_sended desc, d.uuid;
    when 'lastSendedAsc' then
      return query select (app_hidden.p2000_dossier_view(d, (filter).messages_order_by, (filter).timeline_order_by)).*
        from (select * from app_public.p2000_dossiers x order by x.last_sended, x.uuid desc
               limit page_limit offset page_offset) d
       order by d.last_sended, d.uuid desc;
    when 'firstSendedDesc' then
      return query select (app_hidden.p2000_dossier_view(d, (filter).messages_order_by, (filter).timeline_order_by)).*
        from (select * from app_public.p2000_dossiers x order by x.first_sended desc, x.last_sended desc, x.uuid
               limit page_limit offset page_offset) d
       order by d.first_sended desc, d.last_sended desc, d.uuid;
    when 'messageCountDesc' then
      return query select (app_hidden.p2000_dossier_view(d, (filter).messages_order_by, (filter).timeline_order_by)).*
        from (select * from app_public.p2000_dossiers x order by x.message_count desc, x.last_sended desc, x.uuid
               limit page_limit offset page_offset) d
       order by d.message_count desc, d.last_sended desc, d.uuid;
    else
      raise exception 'orderBy must be lastSendedDesc, lastSendedAsc, firstSendedDesc or messageCountDesc (got "%").', (filter).order_by
        using errcode = 'XINPT';
  end case;
end;
$$;
comment on function app_public.p2000_dossiers(integer, integer, app_public.p2000_dossier_filter) is '@notNull
Dossiers (incidents): an overview, or the one of a message or dossier.';

-- p2000MessageStatistics: the chart window's counts come from the roll-ups whenever the filter
-- allows it, and otherwise from one pass over the chosen messages. The per-day chart counted the
-- chosen messages once per day (30 passes) and every filter read messages: 2.7 s without a filter
-- at ten years. All three sources give rows of (day, discipline, urgency, region, messages,
-- counts_day), and one query shapes them, so the sources cannot disagree on the arrays' order or
-- on what they leave out:
-- * no filter but the exercise type: the daily roll-up (p2000_daily_counts). Its 'total' rows
--   count the day (counts_day); its 'discipline', 'urgency' and 'region' rows one dimension each.
-- * disciplines too: the hourly roll-up (p2000_hourly_counts), which has every dimension per row.
-- * anything else (capcodes, a monitor, a dossier, a vehicle, sended): the messages themselves.
create or replace function app_public.p2000_message_statistics(
  filter app_public.p2000_message_filter default null, chart_days integer default 30
) returns app_public.p2000_message_statistics
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  days integer := coalesce(chart_days, 30);
  since timestamptz;
  result app_public.p2000_message_statistics;
  conditions text := app_hidden.p2000_message_conditions(filter);
  source text;
begin
  if days < 1 or days > 90 then
    raise exception 'chartDays must be between 1 and 90 (got %).', days using errcode = 'XINPT';
  end if;
  since := ((now() at time zone 'Europe/Amsterdam')::date - (days - 1)) at time zone 'Europe/Amsterdam';
  result.chart_days := days;
  result.total := app_public.p2000_messages_count(filter);
  if (filter).capcodes is not null or (filter).capcode is not null or (filter).dossier is not null
     or (filter).vehicle is not null or (filter).monitor is not null or (filter).sended is not null then
    source := format($q$
      select (m.sended at time zone 'Europe/Amsterdam')::date as day, m.discipline_uuid, m.urgency_uuid, m.region_uuid,
             1 as messages, true as counts_day
        from app_public.p2000_messages m where %s and m.sended >= $2$q$, conditions);
  elsif (filter).disciplines is not null then
    source := $q$
      select (h.hour at time zone 'Europe/Amsterdam')::date as day, h.discipline_uuid, h.urgency_uuid, h.region_uuid,
             h.messages, true as counts_day
        from app_hidden.p2000_hourly_counts h
       where h.hour >= $2
         and (coalesce(($1).exercise_type, 'none') = 'all' or h.exercise_type = coalesce(($1).exercise_type, 'none'))
         and h.discipline_uuid = any ((select app_hidden.p2000_filter_discipline_uuids(($1).disciplines))::uuid[])$q$;
  else
    source := $q$
      select d.day,
             case when d.dimension = 'discipline' then d.key::uuid end as discipline_uuid,
             case when d.dimension = 'urgency' then d.key::uuid end as urgency_uuid,
             case when d.dimension = 'region' then d.key::uuid end as region_uuid,
             d.messages, d.dimension = 'total' as counts_day
        from app_hidden.p2000_daily_counts d
       where d.dimension in ('total', 'discipline', 'urgency', 'region')
         and d.day >= ($2 at time zone 'Europe/Amsterdam')::date
         and (coalesce(($1).exercise_type, 'none') = 'all' or d.exercise_type = coalesce(($1).exercise_type, 'none'))$q$;
  end if;
  execute format($q$
    with source as materialized (%s),
    by_day as (select s.day, sum(s.messages) filter (where s.counts_day) as n from source s group by s.day)
    select
      array(select row(g.day::date, coalesce(b.n, 0))::app_public.p2000_day_count
              from generate_series(($2 at time zone 'Europe/Amsterdam')::date, (now() at time zone 'Europe/Amsterdam')::date, interval '1 day') g (day)
              left join by_day b on b.day = g.day::date
             order by g.day),
      array(select row(d.uuid::text, d.name, c.n)::app_public.p2000_count
              from (select s.discipline_uuid, sum(s.messages) as n from source s group by 1) c
              join app_public.p2000_disciplines d on d.uuid = c.discipline_uuid
             where c.n <> 0 order by c.n desc, d.name),
      array(select row(u.code, u.name, c.n)::app_public.p2000_count
              from (select s.urgency_uuid, sum(s.messages) as n from source s group by 1) c
              join app_public.p2000_urgencies u on u.uuid = c.urgency_uuid
             where c.n <> 0 order by u.rank, u.code),
      array(select row(r.number, r.name, c.n)::app_public.p2000_count
              from (select s.region_uuid, sum(s.messages) as n from source s group by 1) c
              join app_public.p2000_regions r on r.uuid = c.region_uuid
             where c.n <> 0 order by c.n desc, r.number)
  $q$, source) into result.per_day, result.by_discipline, result.by_urgency, result.by_region using filter, since;
  return result;
end;
$$;
comment on function app_public.p2000_message_statistics(app_public.p2000_message_filter, integer) is '@notNull
Counts for a message filter (real alerts only by default); chartDays 1-90, default 30.';
