--! Previous: sha1:310e58544b98bf7e195fe907ec378937b4244256
--! Hash: sha1:5e91fd7773103ef9d7f593bfbdad1fdda5b33a53
--! Message: A revoked API token refused on the next request by every instance: each API-token request asserts the token is live in the statement that opens its transaction

-- A revoked API token is refused on the very next request by every API instance. Instances cache
-- token checks and forget a token when they hear of its revocation (LISTEN api_token_changed),
-- but a request can arrive before the announcement is read. So each request with an API token
-- also asserts, in the statement that opens its transaction (no extra round trip), that the token
-- is still live (lib/graphql/pg-request-adaptor.ts).
drop function if exists app_hidden.assert_api_token_live();

create function app_hidden.assert_api_token_live() returns void
  language plpgsql stable security definer parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  if not exists (select 1 from app_public.api_tokens t
                  where t.uuid = nullif(current_setting('app.api_token_uuid', true), '')::uuid
                    and t.revoked_at is null and (t.expires_at is null or t.expires_at > now())) then
    raise exception 'The API token is not valid (unknown, revoked or expired).' using errcode = 'XAUTH';
  end if;
end;
$$;
comment on function app_hidden.assert_api_token_live() is
  'Raises UNAUTHENTICATED unless the request''s API token (app.api_token_uuid) is live: run as each API-token request opens its transaction.';
grant execute on function app_hidden.assert_api_token_live() to app_visitor;
