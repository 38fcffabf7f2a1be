--! Previous: sha1:11c62475c79decfacd76697af4d08665cc7e3347
--! Hash: sha1:af72d61187eecd2832b333b50746df864c322a8f
--! Message: Ten-year reads: counts of one capcode or monitor index-only, p2000Messages of disciplines by the discipline index, several capcodes read once

-- Reads that the ten-year bench (bench/p2000-history.ts, 10 million messages, 16 clients) still
-- found over 30 ms p99, because PostgreSQL did more than the answer needs:
-- 1. Counts of one capcode or one monitor without a range sum a daily roll-up row per day of the
--    decade (3,662 rows), and each row was read from the table: 3,600 buffers, 1.4 ms. The primary
--    keys now carry the count, so the sum is an index-only scan (0.7 ms).
alter table app_hidden.p2000_daily_capcode_counts
  drop constraint p2000_daily_capcode_counts_pkey,
  add constraint p2000_daily_capcode_counts_pkey primary key (capcode_uuid, day, exercise_type) include (messages);
alter table app_hidden.monitor_daily_counts
  drop constraint monitor_daily_counts_pkey,
  add constraint monitor_daily_counts_pkey primary key (monitor_uuid, day, exercise_type) include (messages);

-- 2. p2000Messages of some disciplines walked the time index and skipped the other disciplines'
--    messages: for a rare one (KNRM, 1% of messages) 6,000 rows and 1.4 ms a page. Now each
--    discipline's newest page + offset from the discipline index, then the newest of those
--    (0.14 ms), as for several capcodes.
-- 3. p2000Messages of several capcodes looked each message of those pages up twice (once to check
--    its exercise type, once for the answer): now once, duplicates (a message sent to two of the
--    capcodes) removed by DISTINCT ON. 4.5 → 2.6 ms for ten capcodes.
-- The disciplines a filter names (by uuid, name or slug), as p2000_message_conditions reads them.
create or replace function app_hidden.p2000_filter_discipline_uuids(disciplines text[]) returns uuid[]
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select array(select distinct d.uuid from app_public.p2000_disciplines d, unnest(disciplines) x
                where d.uuid = app_hidden.try_uuid(x) or lower(d.name) = lower(btrim(x)) or lower(d.slug) = lower(btrim(x)))
$$;

-- As in migration 000037, with the branch for disciplines and the capcodes' branch reading each message once.
create or replace function app_public.p2000_messages(first integer default null, page integer default null,
    filter app_public.p2000_message_filter default null)
  returns setof app_public.p2000_messages
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  single_capcode uuid := app_hidden.p2000_single_capcode(filter);
  conditions text := app_hidden.p2000_message_conditions(filter); -- also validates the filter
  exercise text := coalesce((filter).exercise_type, 'none');
  range_from timestamptz := coalesce(((filter).sended)."from", '-infinity');
  range_to timestamptz := coalesce(((filter).sended)."to", 'infinity');
  page_size integer := app_hidden.page_limit(first);
  skip integer := app_hidden.page_offset(first, page);
  capcode_uuids uuid[];
begin
  -- Disciplines, with a time range or not: each one's newest page + offset by the discipline
  -- index, then the newest of those (a message has one discipline, so none comes twice).
  if (filter).disciplines is not null and (filter).dossier is null and (filter).vehicle is null and (filter).monitor is null
     and (filter).capcodes is null and (filter).capcode is null then
    return query
      select t.* from unnest(app_hidden.p2000_filter_discipline_uuids((filter).disciplines)) u (discipline_uuid),
             lateral (select m.* from app_public.p2000_messages m
                       where m.discipline_uuid = u.discipline_uuid and m.sended between range_from and range_to
                         and (exercise = 'all' or m.exercise_type = exercise)
                       order by m.sended desc, m.uuid
                       limit page_size + skip) t
       order by t.sended desc, t.uuid
       limit page_size offset skip;
    return;
  end if;
  if (filter).dossier is null and (filter).disciplines is null and (filter).vehicle is null then
    -- One capcode and a time range: static SQL, so its plan is prepared once per connection.
    if single_capcode is not null and (filter).monitor is null then
      return query
        select m.* from app_public.p2000_message_capcodes mc join app_public.p2000_messages m on m.uuid = mc.message_uuid
         where mc.capcode_uuid = single_capcode and mc.sended between range_from and range_to
           and (exercise = 'all' or m.exercise_type = exercise)
         order by mc.sended desc, m.uuid
         limit page_size offset skip;
      return;
    end if;
    -- One monitor: its matches newest first (the monitor was checked by p2000_message_conditions).
    if (filter).monitor is not null and (filter).capcodes is null and (filter).capcode is null then
      return query
        select m.* from app_hidden.monitor_matches mm join app_public.p2000_messages m on m.uuid = mm.message_uuid
         where mm.monitor_uuid = app_hidden.try_uuid(((filter).monitor).uuid) and mm.sended between range_from and range_to
           and (exercise = 'all' or m.exercise_type = exercise)
         order by mm.sended desc, m.uuid
         limit page_size offset skip;
      return;
    end if;
    -- A time range alone (the newest messages, a day, a month): static SQL, so its plan is
    -- prepared once per connection instead of planned on every call, by the index of the
    -- exercise type and time.
    if (filter).monitor is null and (filter).capcodes is null and (filter).capcode is null then
      if exercise = 'all' then
        return query
          select m.* from app_public.p2000_messages m
           where m.sended between range_from and range_to
           order by m.sended desc, m.uuid
           limit page_size offset skip;
      else
        return query
          select m.* from app_public.p2000_messages m
           where m.exercise_type = exercise and m.sended between range_from and range_to
           order by m.sended desc, m.uuid
           limit page_size offset skip;
      end if;
      return;
    end if;
    -- Several capcodes, by uuid or by name (not both): each one's newest page + offset, then the
    -- newest of those (a message of the page is within the first page + offset of each of its capcodes).
    if (filter).monitor is null and ((filter).capcodes is null) <> ((filter).capcode is null) then
      capcode_uuids := case when (filter).capcodes is not null
        then array(select distinct app_hidden.try_uuid(c) from unnest((filter).capcodes) c)
        else array(select c.uuid from app_public.p2000_capcodes c
                    where c.name = any (array(select app_hidden.p2000_normalize_capcode(n) from unnest(((filter).capcode).names) n))) end;
      return query
        select distinct on (t.sended, t.uuid) t.* from unnest(capcode_uuids) u (capcode_uuid),
               lateral (select x.* from app_public.p2000_message_capcodes mc
                          join app_public.p2000_messages x on x.uuid = mc.message_uuid
                         where mc.capcode_uuid = u.capcode_uuid and mc.sended between range_from and range_to
                           and (exercise = 'all' or x.exercise_type = exercise)
                         order by mc.sended desc, x.uuid
                         limit page_size + skip) t
         order by t.sended desc, t.uuid
         limit page_size offset skip;
      return;
    end if;
  end if;
  return query execute format(
    'select m.* from app_public.p2000_messages m where %s order by m.sended desc, m.uuid limit %s offset %s',
    conditions, page_size, skip)
  using filter;
end;
$$;
