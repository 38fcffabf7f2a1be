--! Previous: sha1:2bf988bc91ce7a188db21effb6327b68a0d93fb4
--! Hash: sha1:5be522a26ee899b22917b3053a6ff90cc5de0016
--! Message: apiToken and apiScopes without a user: UNAUTHENTICATED

-- apiToken and apiScopes without a user: UNAUTHENTICATED like every account operation (apiToken's
-- strict SQL body skipped the check for a uuid that cannot match; apiScopes had none).
create or replace function app_public.api_token(uuid text) returns app_public.api_tokens
  language plpgsql stable strict parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  result app_public.api_tokens;
begin
  perform app_hidden.require_user_uuid();
  select t.* into result from app_public.api_tokens t
   where t.revoked_at is null and t.uuid = app_hidden.try_uuid(api_token.uuid);
  return result;
end;
$$;

create or replace function app_public.api_scopes() returns setof app_public.api_scopes
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select s.* from app_public.api_scopes s where app_hidden.require_user_uuid() is not null order by s.name
$$;
