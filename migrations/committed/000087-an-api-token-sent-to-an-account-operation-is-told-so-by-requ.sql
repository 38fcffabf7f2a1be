--! Previous: sha1:975609dca323257bffcf73130a1b372c04a713c3
--! Hash: sha1:088af9ba01a456ea54975c5a4161797702a03592
--! Message: An API token sent to an account operation is told so by require_user_uuid itself

-- Issue 44's message for an API token sent to an account operation, said where the refusal is
-- made: every account operation (and app_accounts.logout) asks require_user_uuid for its user, and
-- it knows whether the request came with an API token. It replaces a rewrite of the error text
-- in an execute middleware, which wrapped every API-token request's result to look for it. The
-- spec's text stays for a request without any token (spec §7).
create or replace function app_hidden.require_user_uuid() returns uuid
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  user_uuid uuid := app_hidden.current_user_uuid();
begin
  if user_uuid is null and app_hidden.current_api_token_uuid() is not null then
    raise exception 'This operation needs a user''s access token (from login); an API token cannot use it.' using errcode = 'XAUTH';
  elsif user_uuid is null then
    raise exception 'Not authenticated. Send Authorization: Bearer <token>.' using errcode = 'XAUTH';
  end if;
  return user_uuid;
end;
$$;
comment on function app_hidden.require_user_uuid() is 'The user of this request, or the UNAUTHENTICATED error every account operation answers without one: for a request that sent an API token, that the operation needs a user''s access token; for one without any token, the spec''s "Not authenticated" text.';
