--! Previous: sha1:c0b01a53a7303466b0259486b7107eb7f5bf5e8b
--! Hash: sha1:1bb9591b947b1d7fd8dc1262866459edf1499ff7
--! Message: Subscriptions: the token's expiry for shared executions

-- Issue 33, live push for a crowd: subscribers of public feeds share one execution whatever their
-- API token (plugins/subscription-guard.ts), so an event is no longer read with each subscriber's
-- token, which used to end a subscription whose token had expired at its next event. Each
-- subscription now ends at its token's expiry by a timer, set from this.
create or replace function app_hidden.current_api_token_expires_at() returns timestamptz
  language sql stable parallel safe security definer
  set search_path to pg_catalog, public, pg_temp
as $$
  select t.expires_at from app_public.api_tokens t
   where t.uuid = nullif(current_setting('app.api_token_uuid', true), '')::uuid
$$;
grant execute on function app_hidden.current_api_token_expires_at() to app_visitor;
comment on function app_hidden.current_api_token_expires_at() is
  'When the request''s API token (app.api_token_uuid) expires; null when it does not (or there is none). Security definer: the visitor cannot read api_tokens with an API token. A subscription ends at this moment (plugins/subscription-guard.ts).';
