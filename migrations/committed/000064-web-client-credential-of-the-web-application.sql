--! Previous: sha1:3b2d0ab67e5d9faa2668e6ffa7dcd26bc930f9df
--! Hash: sha1:5910aedc091420cddd3d593d7e02844368f2f8a6
--! Message: Web-client credential of the web application

-- The web application's credential (issue 31, docs/web.md): an ordinary API token of the operator
-- environment, named web-client, holding the auth scopes only, whose plain secret every visitor's
-- page is given (GET /web/config.json). Its secret is public by design, so unlike every other
-- token's it is kept in the clear, where only the owner (the service) can read it. The service
-- makes it at its first start (app_private.ensure_web_client_token); the token CLI rotates and
-- revokes it; a revoked one is not made again at start, since an operator revoked it on purpose.

create table if not exists app_private.web_client_token (
  singleton boolean primary key default true check (singleton),
  -- Null once revoked through the CLI's web-client revoke, or once the purge of stale tokens
  -- deletes the revoked token: the row stays, so a later start knows the installation had one
  -- and makes no other. A secret left beside a revoked token is never handed out (see
  -- current_web_client_token).
  api_token_uuid uuid unique references app_public.api_tokens on delete set null,
  secret text check (secret ~ '^nlis_[0-9A-Za-z]{46}$'),
  changed timestamptz not null default now()
);
alter table app_private.web_client_token enable row level security;
comment on table app_private.web_client_token is 'One row once the installation has had a web-client credential: the API token every visitor''s web page reads with (docs/web.md), and its plain secret, public by design (every page is given it), so kept in the clear, readable by the owner only. No row: the service makes one at start. A row without a token: revoked by an operator, made again only by `npm run token -- web-client rotate`.';
comment on column app_private.web_client_token.singleton is 'Always true: the table holds at most one row.';
comment on column app_private.web_client_token.api_token_uuid is 'The web-client API token (named web-client, scopes auth:login, auth:register, auth:password_reset, in the operator environment); null once revoked.';
comment on column app_private.web_client_token.secret is 'The token''s plain secret, handed to every visitor''s page as apiToken by GET /web/config.json; null once revoked.';
comment on column app_private.web_client_token.changed is 'When the credential was last made, rotated or revoked.';

-- Makes a web-client token and keeps it as the credential; the one body of ensure and rotate.
-- The caller holds the table's lock.
create or replace function app_private.issue_web_client_token(secret text, secret_hash bytea, token_preview text)
  returns app_public.api_tokens
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  token app_public.api_tokens;
begin
  token := app_private.create_api_token(
    (select i.operator_environment_uuid from app_private.installation i),
    'web-client', array['auth:login', 'auth:register', 'auth:password_reset'], null, secret_hash, token_preview);
  insert into app_private.web_client_token as w (singleton, api_token_uuid, secret)
    values (true, token.uuid, issue_web_client_token.secret)
    on conflict (singleton) do update set api_token_uuid = excluded.api_token_uuid, secret = excluded.secret, changed = now();
  -- The trigger on api_tokens announces changes, not new tokens; every API instance rereads the
  -- credential on this announcement (lib/auth/web-client-token.ts), a new one included.
  perform pg_notify('api_token_changed', token.uuid::text);
  return token;
end;
$$;
comment on function app_private.issue_web_client_token(text, bytea, text) is 'Makes a new web-client API token (operator environment, auth scopes) with the given secret, keeps it as the installation''s web-client credential and announces it on api_token_changed, so every API instance hands it out at once. Called with app_private.web_client_token locked, by ensure_web_client_token and rotate_web_client_token.';

create or replace function app_private.ensure_web_client_token(secret text, secret_hash bytea, token_preview text)
  returns boolean
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  -- Serialises instances starting at once: the second sees the first's row and makes nothing.
  lock table app_private.web_client_token in exclusive mode;
  if exists (select 1 from app_private.web_client_token) then
    return false;
  end if;
  perform app_private.issue_web_client_token(secret, secret_hash, token_preview);
  return true;
end;
$$;
comment on function app_private.ensure_web_client_token(text, bytea, text) is 'Called by every API instance at start with a fresh secret: makes the web-client credential with it when the installation never had one (true), else changes nothing (false), not even when an operator revoked it. Safe with several instances starting at once (a table lock).';

create or replace function app_private.rotate_web_client_token(secret text, secret_hash bytea, token_preview text)
  returns app_public.api_tokens
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  old_token uuid;
begin
  lock table app_private.web_client_token in exclusive mode;
  select w.api_token_uuid into old_token from app_private.web_client_token w;
  if old_token is not null then
    perform app_private.revoke_api_token(old_token);
  end if;
  return app_private.issue_web_client_token(secret, secret_hash, token_preview);
end;
$$;
comment on function app_private.rotate_web_client_token(text, bytea, text) is '`npm run token -- web-client rotate`: revokes the web-client token at once (if any) and makes a new one with the given secret; also how a revoked credential comes back. Returns the new token.';

create or replace function app_private.revoke_web_client_token()
  returns app_public.api_tokens
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  token app_public.api_tokens;
begin
  lock table app_private.web_client_token in exclusive mode;
  select t.* into token
    from app_private.web_client_token w join app_public.api_tokens t on t.uuid = w.api_token_uuid;
  if token.uuid is not null then
    token := app_private.revoke_api_token(token.uuid);
  end if;
  -- A row without a token, even when there was none: the service then makes none at start.
  insert into app_private.web_client_token as w (singleton, api_token_uuid, secret) values (true, null, null)
    on conflict (singleton) do update set api_token_uuid = null, secret = null, changed = now();
  return token;
end;
$$;
comment on function app_private.revoke_web_client_token() is '`npm run token -- web-client revoke`: revokes the web-client token at once and forgets its secret, so pages get no credential; the service does not make another at start (rotate does). Returns the revoked token, or null when there was none.';

create or replace function app_private.current_web_client_token(out api_token_uuid uuid, out secret text)
  returns record
  language sql stable
  set search_path to pg_catalog, public, pg_temp
as $$
  select w.api_token_uuid, w.secret
    from app_private.web_client_token w join app_public.api_tokens t on t.uuid = w.api_token_uuid
   where t.revoked_at is null and (t.expires_at is null or t.expires_at > now())
$$;
comment on function app_private.current_web_client_token() is 'The live web-client token and its plain secret, or nulls (none yet, revoked, or revoked with the generic `token revoke`). Read by each API instance for GET /web/config.json and its request budgets (lib/auth/web-client-token.ts).';

-- The token check says whether the token is the web-client credential: WEB_REQUIRE_SIGN_IN
-- refuses it public reads, and its subscriptions count per client address (lib/auth/context.ts).
drop function if exists app_private.authenticate_api_token(bytea) cascade;
create function app_private.authenticate_api_token(secret_hash bytea)
  returns table (api_token_uuid uuid, environment_uuid uuid, scopes text[], expires_at timestamptz, web_client boolean)
  language plpgsql volatile security definer
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  return query
    update app_public.api_tokens t
       set last_used_at = now()
      from app_private.api_token_secrets s
     where s.secret_hash = authenticate_api_token.secret_hash
       and t.uuid = s.api_token_uuid
       and t.revoked_at is null
       and (t.expires_at is null or t.expires_at > now())
       -- Writing on every request would make a hot row; a minute's precision is enough.
       and (t.last_used_at is null or t.last_used_at < now() - interval '1 minute')
    returning t.uuid, t.environment_uuid, t.scopes, t.expires_at,
      exists (select 1 from app_private.web_client_token w where w.api_token_uuid = t.uuid);
  if not found then
    return query
      select t.uuid, t.environment_uuid, t.scopes, t.expires_at,
             exists (select 1 from app_private.web_client_token w where w.api_token_uuid = t.uuid)
        from app_public.api_tokens t
        join app_private.api_token_secrets s on s.api_token_uuid = t.uuid
       where s.secret_hash = authenticate_api_token.secret_hash
         and t.revoked_at is null
         and (t.expires_at is null or t.expires_at > now());
  end if;
end;
$$;
comment on function app_private.authenticate_api_token(bytea) is 'The valid (not revoked, not expired) API token with this secret hash, if any, when it expires, and whether it is the web-client credential (app_private.web_client_token).';
grant execute on function app_private.authenticate_api_token(bytea) to app_authenticator;
