--! Previous: sha1:1022f1fa6a362ce3bbe4e1ae39f42a7c5e51c00d
--! Hash: sha1:0a991523f7ca8514cb50dcad8b608bbb10aab924
--! Message: A garbled copy is the same page with characters unreadable (app_hidden.p2000_same_page), not any text half like it: two rides paged at once to one capcode stay two pages

-- A garbled copy of a page is the same page with some characters unreadable, not any text like it:
-- two rides dispatched at once to one capcode ("A2 Ambu 17102 Rit 30001 Houten" and "… Rit 30002
-- Houten") are half alike and are two pages. A copy now matches a stored page when the two are
-- equal where both are readable: each unreadable character (multimon-ng's <NUL>, the replacement
-- character, a control character) stands for any one character.
create or replace function app_hidden.p2000_same_page(a text, b text) returns boolean
  language plpgsql immutable parallel safe
as $$
declare
  unreadable constant text := '<[A-Z]{2,3}>|' || chr(65533) || '|[[:cntrl:]]';
  garbled text;
  other text;
begin
  if a = b then
    return true;
  end if;
  -- The pattern is made from the copy with more unreadable characters.
  if app_hidden.p2000_unreadable_count(a) >= app_hidden.p2000_unreadable_count(b) then
    garbled := a;
    other := b;
  else
    garbled := b;
    other := a;
  end if;
  if app_hidden.p2000_unreadable_count(garbled) = 0 then
    return false;
  end if;
  return other ~ ('^' || regexp_replace(regexp_replace(garbled, '([.^$*+?()\[\]{}|\\])', '\\\1', 'g'), unreadable, '.', 'g') || '$');
end;
$$;
comment on function app_hidden.p2000_same_page(text, text) is 'Whether two texts are copies of one page: equal, or equal where both are readable, each unreadable character of the more garbled one (app_hidden.p2000_unreadable_count) standing for any one character.';

create or replace function app_hidden.p2000_earlier_copy(message text, sended timestamptz, capcodes text[]) returns uuid
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select x.uuid from app_public.p2000_messages x
   where x.sended between p2000_earlier_copy.sended - interval '10 seconds' and p2000_earlier_copy.sended + interval '10 seconds'
     and (x.message = btrim(p2000_earlier_copy.message)
          or (x.capcode_names && app_hidden.p2000_clean_capcodes(p2000_earlier_copy.capcodes)
              and length(x.message) between length(btrim(p2000_earlier_copy.message)) - 40 and length(btrim(p2000_earlier_copy.message)) + 40
              and app_hidden.p2000_same_page(x.message, btrim(p2000_earlier_copy.message))))
   order by x.message = btrim(p2000_earlier_copy.message) desc, x.sended
   limit 1
$$;
comment on function app_hidden.p2000_earlier_copy(text, timestamptz, text[]) is 'The message a receiver''s page is a copy of: one stored within 10 seconds of it with the same text, or sent to one of its capcodes with the same text where both are readable (app_hidden.p2000_same_page), which is how a garbled copy of the same page looks.';
