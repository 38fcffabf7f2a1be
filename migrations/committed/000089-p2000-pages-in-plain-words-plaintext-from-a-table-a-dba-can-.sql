--! Previous: sha1:6311432469e07e9ae5cbb63df78155cb2b3167af
--! Hash: sha1:77a7c51feea4726f386ece71b0b3ef151b239335
--! Message: P2000 pages in plain words: plainText from a table a DBA can extend, and in every notification

-- Issue 45, words a person understands: P2000Message.plainText(language) writes a page out in plain
-- Dutch or English ("P 1 BRT-01 BR woning Toscalaan Hoogvliet Rotterdam 173151" → "Prio 1 woningbrand,
-- Toscalaan, Rotterdam" / "Priority 1 house fire, Toscalaan, Rotterdam") from a table a DBA can extend,
-- loaded on start from data/p2000-plain-words.csv (sources in data/P2000-WORDS-SOURCES.md). Every
-- notification carries it, in its monitor's notificationRules.language (nl by default).

create table if not exists app_public.p2000_plain_words (
  term text primary key constraint p2000_plain_words_term_check check (length(btrim(term)) between 1 and 100 and term = btrim(term)),
  kind text not null constraint p2000_plain_words_kind_check check (kind in ('priority', 'incident', 'qualifier', 'service', 'noise')),
  nl text not null default '',
  en text not null default '',
  source text not null default 'local',
  shipped boolean not null default false,
  -- How the term is found: a whole word or phrase (# a number, @ a letter, a space one or more
  -- spaces), its text in group 2 so that its place in the page is known.
  pattern text not null generated always as (
    '(^|[^[:alnum:]])(' ||
    replace(replace(regexp_replace(regexp_replace(term, '([.^$*+?()\[\]{}|\\])', '\\\1', 'g'), '\s+', '\\s+', 'g'), '#', '[0-9]+'), '@', '[[:alpha:]]')
    || ')($|[^[:alnum:]])') stored,
  -- Terms in capitals of at most three letters (AL, TS, HV) are pager codes that are also Dutch
  -- words or parts of names ("al"): they count only as written, in capitals.
  match_case boolean not null generated always as (term ~ '^[A-Z]{1,3}$') stored,
  -- The term's first word up to a placeholder, lower-cased: a page without it cannot hold the term,
  -- so most terms are ruled out by strpos before any regular expression runs.
  literal text not null generated always as (lower(split_part(regexp_replace(term, '[#@[:space:]]', '#', 'g'), '#', 1))) stored
);
alter table app_public.p2000_plain_words enable row level security;
drop policy if exists select_all on app_public.p2000_plain_words;
create policy select_all on app_public.p2000_plain_words for select to app_visitor, app_analyst using (true);
grant select on app_public.p2000_plain_words to app_visitor, app_analyst;
comment on table app_public.p2000_plain_words is E'@behavior -*\nThe words of pager pages and what they mean in plain Dutch (nl) and English (en), for plainText. kind: priority (P 1, A1), incident (BR woning), qualifier (GRIP 1, DIA: ja), service (AMBU, TS) or noise (bon 12345: left out). Shipped rows (shipped) come from data/p2000-plain-words.csv and are rewritten on start when the file changes; a DBA adds rows of their own (shipped false, the default), and sets shipped to false on a shipped row to keep their own meaning of it.';
drop trigger if exists _900_notify_data_changed on app_public.p2000_plain_words;
create trigger _900_notify_data_changed after insert or update or delete or truncate on app_public.p2000_plain_words
  for each statement execute function app_hidden.tg__notify_data_changed('p2000');

create or replace function app_private.upsert_p2000_plain_words(rows jsonb) returns integer
  language sql
  set search_path to pg_catalog, public, pg_temp
as $$
  with upserted as (
    insert into app_public.p2000_plain_words as w (term, kind, nl, en, source, shipped)
    select r.term, r.kind, coalesce(r.nl, ''), coalesce(r.en, ''), r.source, true
      from jsonb_to_recordset(rows) as r (term text, kind text, nl text, en text, source text)
    on conflict (term) do update set kind = excluded.kind, nl = excluded.nl, en = excluded.en, source = excluded.source
    where w.shipped and (w.kind, w.nl, w.en, w.source) is distinct from (excluded.kind, excluded.nl, excluded.en, excluded.source)
    returning 1
  )
  select count(*)::integer from upserted
$$;
comment on function app_private.upsert_p2000_plain_words(rows jsonb) is 'Loads data/p2000-plain-words.csv on start: a shipped term is added, or rewritten when the file says otherwise; a DBA''s own rows (shipped false) are never touched. Returns how many rows changed.';

create or replace function app_hidden.p2000_plain_text(m app_public.p2000_messages, language text) returns text
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  english boolean;
  -- The page without its street and place, which the words of the table could be part of
  -- ("Buitenweg", "Heidelaan"): those are said from the enrichment's columns instead.
  rest text;
  found_priority text;
  incidents text[];
  words text[];
  road text;
  parts text[];
  result text;
begin
  if language is null or language not in ('nl', 'en') then
    raise exception 'language must be nl or en.' using errcode = 'XINPT';
  end if;
  if m.message is null then
    return null;
  end if;
  english := language = 'en';
  rest := m.message;
  if m.street is not null then
    rest := regexp_replace(rest, '\m' || regexp_replace(m.street, '([.^$*+?()\[\]{}|\\])', '\\\1', 'g') || '\M', ' ', 'i');
  end if;
  if m.city is not null then
    rest := regexp_replace(rest, '\m' || regexp_replace(m.city, '([.^$*+?()\[\]{}|\\])', '\\\1', 'g') || '\M', ' ', 'ig');
  end if;

  -- Each term where it stands (its first occurrence); a term inside a longer one found at the same
  -- place is that longer one ("BR woning", not "BR" and "woning").
  with found as (
    select w.kind, case when english then w.en else w.nl end as said,
           regexp_instr(rest, w.pattern, 1, 1, 0, case when w.match_case then 'c' else 'i' end, 2) as at,
           regexp_instr(rest, w.pattern, 1, 1, 1, case when w.match_case then 'c' else 'i' end, 2) as stop
      from app_public.p2000_plain_words w
     where strpos(case when w.match_case then rest else lower(rest) end,
                  case when w.match_case then w.term else w.literal end) > 0
  ), kept as (
    select f.* from found f
     where f.at > 0
       and not exists (select 1 from found g
                        where g.at > 0 and g.at <= f.at and g.stop >= f.stop and (g.stop - g.at) > (f.stop - f.at))
  )
  select (select k.said from kept k where k.kind = 'priority' order by k.at limit 1),
         array(select x.said from (select k.said, min(k.at) as at from kept k
                                    where k.kind = 'incident' and k.said <> '' group by k.said) x order by x.at),
         array(select x.said from (select k.said, min(k.at) as at,
                                          min(case k.kind when 'qualifier' then 1 else 2 end) as rank
                                     from kept k where k.kind in ('qualifier', 'service') and k.said <> ''
                                    group by k.said) x
                order by x.rank, x.at)
    into found_priority, incidents, words;

  if found_priority is null and cardinality(incidents) = 0 and cardinality(words) = 0 then
    return m.message;
  end if;
  if m.road is not null then
    road := concat_ws(' ', m.road,
      case m.carriageway when 'Li' then case when english then 'left-hand carriageway' else 'linkerrijbaan' end
                         when 'Re' then case when english then 'right-hand carriageway' else 'rechterrijbaan' end end,
      case when m.hectometer is not null then
        case when english then 'hectometre post ' || to_char(m.hectometer, 'FM9990.0')
             else 'hectometerpaal ' || replace(to_char(m.hectometer, 'FM9990.0'), '.', ',') end end);
  end if;
  -- "Prio 1 woningbrand, Toscalaan, Rotterdam": the priority with what happened, then the rest of
  -- what the table knows (qualifiers, services), the road, the street and the place.
  parts := array_remove(array[concat_ws(' ', found_priority, incidents[1])] || incidents[2:] || words
                        || array[road, m.street, m.city], null);
  parts := array_remove(parts, '');
  result := array_to_string(parts, ', ');
  return upper(left(result, 1)) || substr(result, 2);
end;
$$;
comment on function app_hidden.p2000_plain_text(m app_public.p2000_messages, language text) is 'A page in plain words (plainText): the priority and what happened, then qualifiers and services, in the order the page has them, from app_public.p2000_plain_words (each term where it stands, a longer term over the shorter ones inside it), then the road, street and place of the enrichment. The page as sent when the table knows none of its words. language nl or en; anything else is BAD_USER_INPUT.';

create or replace function app_public.p2000_messages_plain_text(m app_public.p2000_messages, language text default 'nl') returns text
  language sql stable parallel safe
as $$
  select app_hidden.p2000_plain_text(m, language)
$$;
comment on function app_public.p2000_messages_plain_text(m app_public.p2000_messages, language text) is 'The page in words a person understands, in Dutch (nl, the default) or English (en): "Prio 1 woningbrand, Toscalaan, Rotterdam" / "Priority 1 house fire, Toscalaan, Rotterdam". The priority spelled out, the pager''s abbreviations of incidents, qualifiers, services and units written in full (from a table a DBA can extend: docs/p2000.md#plain-words), then road, street and place. The raw text stays in message.';

drop function if exists app_private.notification_for_delivery(uuid);
create function app_private.notification_for_delivery(notification_uuid uuid)
 RETURNS TABLE(notification_uuid uuid, channel_type text, channel_name text, email_address text, phone_number text, url text, headers jsonb, chat_id text, signing_secret text, monitor_uuid uuid, monitor_name text, message_uuid uuid, message text, sended timestamp with time zone, urgency text, discipline text, region text, city text, street text, postcode text, latitude double precision, longitude double precision, dossier_uuid uuid, respond_token text, kind text, headline text, facts text[], event_type text, payload jsonb, channel_uuid uuid, server_url text, topic text, credentials jsonb, channel_disabled_at timestamp with time zone, plain_text text, language text)
 LANGUAGE sql
 STABLE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
  select n.uuid, c.type, c.name, c.email_address, c.phone_number, c.url,
         coalesce((select jsonb_agg(jsonb_build_object('name', h.name, 'value', h.value)) from unnest(c.headers) h), '[]'),
         c.chat_id, s.signing_secret, mo.uuid, mo.name, m.uuid, m.message, m.sended, u.code, d.name, g.name,
         m.city, m.street, m.postcode, m.latitude, m.longitude, m.dossier_uuid,
         case when m.uuid is not null then app_private.responder_token(n.uuid) end,
         coalesce(n.event_kind, 'p2000'), n.headline, n.facts, n.event_type, n.payload,
         c.uuid, c.server_url, c.topic, coalesce(k.credentials, '{}'), c.disabled_at,
         case when m.uuid is not null then app_hidden.p2000_plain_text(m, coalesce(mo.notification_rules->>'language', 'nl')) end,
         coalesce(mo.notification_rules->>'language', 'nl')
    from app_private.notifications n
    join app_public.channels c on c.uuid = n.channel_uuid
    left join app_public.monitors mo on mo.uuid = n.monitor_uuid
    left join app_public.p2000_messages m on m.uuid = n.message_uuid
    left join app_private.channel_secrets s on s.channel_uuid = c.uuid
    left join app_private.channel_credentials k on k.channel_uuid = c.uuid
    left join app_public.p2000_urgencies u on u.uuid = m.urgency_uuid
    left join app_public.p2000_disciplines d on d.uuid = m.discipline_uuid
    left join app_public.p2000_regions g on g.uuid = m.region_uuid
   where n.uuid = notification_for_delivery.notification_uuid and n.status = 'queued'
$function$;
comment on function app_private.notification_for_delivery(notification_uuid uuid) is 'What the task notifications__deliver (and sendTestNotification) needs to send one notification: channel (its server, topic, credentials and whether it is disabled) and signing secret, monitor (none for a test send), and subject (a P2000 message''s columns with its respond link and its plain text in the monitor''s language, or the headline, facts and payload a feed''s matcher or the test send rendered). No row once it is no longer queued, so a repeated job never sends twice.';

CREATE OR REPLACE FUNCTION app_hidden.validate_notification_rules(rules jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
declare
  unknown text;
begin
  if jsonb_typeof(rules) is distinct from 'object' then
    raise exception 'notificationRules must be a JSON object.' using errcode = 'XINPT';
  end if;
  select string_agg(k, ', ' order by k) into unknown from jsonb_object_keys(rules) k
   where k not in ('quietHours', 'minUrgency', 'maxPerDossier', 'maxPerPeriod', 'relatedSignals', 'language');
  if unknown is not null then
    raise exception 'notificationRules.%: unknown rule (rules: quietHours, minUrgency, maxPerDossier, maxPerPeriod, relatedSignals, language).', unknown
      using errcode = 'XINPT';
  end if;
  if rules ? 'quietHours' and (jsonb_typeof(rules->'quietHours') <> 'object'
      or coalesce(rules->'quietHours'->>'from', '') !~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'
      or coalesce(rules->'quietHours'->>'to', '') !~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'
      or exists (select 1 from jsonb_object_keys(rules->'quietHours') k where k not in ('from', 'to'))) then
    raise exception 'notificationRules.quietHours must be { "from": "HH:MM", "to": "HH:MM" } (Dutch time).' using errcode = 'XINPT';
  end if;
  if rules ? 'minUrgency' and not exists (select 1 from app_public.p2000_urgencies u where u.code = rules->>'minUrgency') then
    raise exception 'notificationRules.minUrgency must be an urgency code (A0, A1, A2, B1, B2, P1, P2, P3).' using errcode = 'XINPT';
  end if;
  if rules ? 'maxPerDossier' and coalesce(rules->>'maxPerDossier', '') !~ '^[1-9][0-9]{0,3}$' then
    raise exception 'notificationRules.maxPerDossier must be a whole number from 1 to 9999.' using errcode = 'XINPT';
  end if;
  if rules ? 'maxPerPeriod' and (jsonb_typeof(rules->'maxPerPeriod') <> 'object'
      or coalesce(rules->'maxPerPeriod'->>'count', '') !~ '^[1-9][0-9]{0,3}$'
      or coalesce(rules->'maxPerPeriod'->>'minutes', '') !~ '^[1-9][0-9]{0,4}$'
      or (rules->'maxPerPeriod'->>'minutes')::integer > 10080
      or exists (select 1 from jsonb_object_keys(rules->'maxPerPeriod') k where k not in ('count', 'minutes'))) then
    raise exception 'notificationRules.maxPerPeriod must be { "count": 1-9999, "minutes": 1-10080 }.' using errcode = 'XINPT';
  end if;
  if rules ? 'relatedSignals' and jsonb_typeof(rules->'relatedSignals') <> 'boolean' then
    raise exception 'notificationRules.relatedSignals must be true or false.' using errcode = 'XINPT';
  end if;
  if rules ? 'language' and coalesce(rules->>'language', '') not in ('nl', 'en') then
    raise exception 'notificationRules.language must be nl or en.' using errcode = 'XINPT';
  end if;
  return rules;
end;
$function$;
comment on function app_hidden.validate_notification_rules(rules jsonb) is 'Checks notificationRules: quietHours { from, to } (Dutch time, HH:MM), minUrgency (an urgency code), maxPerDossier (1-9999), maxPerPeriod { count, minutes }, relatedSignals (true: also tell when a signal of another feed joins a dossier already notified) and language (nl or en: the language of the plain text its notifications carry). Anything else is refused, and every error names the rule.';
