--! Previous: sha1:fd343345001b37fb53dfcb38180b176ad965f792
--! Hash: sha1:9128a27e1cc1580b61b34f82ea4ed04d0005261c
--! Message: Accounts: users, memberships, sessions, one-time tokens, e-mail outbox, rate limits

--! split: 0100-drop.sql
-- Idempotent while current: drop in reverse order of creation.
drop function if exists app_public.session_valid();
drop function if exists app_public.me();
drop function if exists app_public.my_sessions();
drop function if exists app_public.current_environment();
drop function if exists app_public.my_organizations();
drop function if exists app_public.api_tokens();
drop function if exists app_public.api_token(text);
drop function if exists app_public.api_scopes();
drop function if exists app_public.users_email(app_public.users);
drop function if exists app_public.users_has_password(app_public.users);
drop function if exists app_public.sessions_is_current(app_public.sessions);
drop type if exists app_public.user_email;
drop table if exists app_private.rate_limit_counters;
drop table if exists app_private.emails;
drop table if exists app_private.request_identities;
drop table if exists app_private.user_tokens;
drop table if exists app_private.refresh_tokens;
drop table if exists app_public.sessions cascade;
drop table if exists app_hidden.organization_memberships cascade;
drop table if exists app_private.user_secrets;
drop table if exists app_public.users cascade;
drop function if exists app_hidden.current_session_uuid() cascade;
drop function if exists app_hidden.current_user_uuid() cascade;
drop function if exists app_hidden.require_user_uuid() cascade;
drop function if exists app_hidden.current_user_organization_uuids() cascade;
drop function if exists app_hidden.assert_api_scope(text) cascade;
drop schema if exists app_accounts cascade;
drop function if exists app_private.hit_rate_limit(text, integer, interval);
drop function if exists app_private.queue_email(text, text, text);
drop function if exists app_private.register_user(text, text, text, text, text, uuid);
drop function if exists app_private.login_candidate(text);
drop function if exists app_private.login_failed(uuid);
drop function if exists app_private.create_session(uuid, bytea, text, text, uuid, interval);
drop function if exists app_private.rotate_refresh_token(bytea, bytea, interval);
drop function if exists app_private.reissue_refresh_token(uuid, bytea);
drop function if exists app_private.authenticate_session(uuid);
drop function if exists app_private.create_user_token(text, text, bytea, interval, text);
drop function if exists app_private.consume_user_token(bytea, text);
drop function if exists app_private.reset_password(bytea, text);
drop function if exists app_private.purge_expired_auth_data();

--! split: 0200-users-and-memberships.sql
create table app_public.users (
  uuid uuid primary key default gen_random_uuid(),
  display_name text not null check (length(btrim(display_name)) between 1 and 200),
  email_address citext not null unique
    check (length(email_address) <= 320 and email_address ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'),
  email_verified_at timestamptz,
  is_admin boolean not null default false,
  created timestamptz not null default now(),
  changed timestamptz not null default now()
);
comment on table app_public.users is 'People with an account.';
comment on column app_public.users.email_address is E'@behavior -*\nLogin e-mail address; exposed as email { address verified }.';
comment on column app_public.users.email_verified_at is E'@behavior -*\nWhen the address was proven (verification or magic link).';
comment on column app_public.users.is_admin is 'True for administrators of this installation.';
create trigger _100_set_changed before update on app_public.users
  for each row execute function app_hidden.tg__set_changed();
alter table app_public.users enable row level security;

create table app_private.user_secrets (
  user_uuid uuid primary key references app_public.users on delete cascade,
  -- argon2id encoded hash; null for accounts without a password (magic-link only).
  password_hash text,
  password_changed_at timestamptz,
  failed_login_count integer not null default 0,
  first_failed_login_at timestamptz,
  locked_until timestamptz
);
comment on table app_private.user_secrets is 'Password hash and failed-login counters of each user.';
alter table app_private.user_secrets enable row level security;

-- Memberships live in app_hidden: policies of the visitor need them, GraphQL does not show them.
create table app_hidden.organization_memberships (
  organization_uuid uuid not null references app_public.organizations on delete cascade,
  user_uuid uuid not null references app_public.users on delete cascade,
  role text not null default 'member' check (role in ('owner', 'member')),
  created timestamptz not null default now(),
  primary key (organization_uuid, user_uuid)
);
comment on table app_hidden.organization_memberships is 'Who belongs to which organization.';
create index organization_memberships_user_uuid_idx on app_hidden.organization_memberships (user_uuid);
alter table app_hidden.organization_memberships enable row level security;

--! split: 0300-sessions-and-tokens.sql
create table app_public.sessions (
  uuid uuid primary key default gen_random_uuid(),
  user_uuid uuid not null references app_public.users on delete cascade,
  environment_uuid uuid references app_public.environments on delete set null,
  ip_address text,
  user_agent text,
  created timestamptz not null default now(),
  last_activity_at timestamptz not null default now(),
  expires_at timestamptz not null,
  revoked_at timestamptz
);
comment on table app_public.sessions is 'A login of a user on one device; access tokens carry its uuid, so ending it ends them.';
comment on column app_public.sessions.user_uuid is '@behavior -*';
comment on column app_public.sessions.environment_uuid is E'@behavior -*\nThe environment the session acts in.';
comment on column app_public.sessions.revoked_at is E'@behavior -*\nWhen the session was ended (logout, deleteSession, password reset, refresh-token reuse).';
comment on column app_public.sessions.last_activity_at is 'Last request, to the minute (not written on every request).';
comment on constraint sessions_user_uuid_fkey on app_public.sessions is '@behavior -*';
comment on constraint sessions_environment_uuid_fkey on app_public.sessions is '@behavior -*';
create index sessions_user_uuid_idx on app_public.sessions (user_uuid);
create index sessions_environment_uuid_idx on app_public.sessions (environment_uuid);
alter table app_public.sessions enable row level security;

-- Refresh tokens rotate on every use; a session is one token family.
create table app_private.refresh_tokens (
  uuid uuid primary key default gen_random_uuid(),
  session_uuid uuid not null references app_public.sessions on delete cascade,
  token_hash bytea not null unique check (length(token_hash) = 32),
  created timestamptz not null default now(),
  used_at timestamptz
);
comment on table app_private.refresh_tokens is 'SHA-256 of each refresh token; a used one presented again ends its session.';
create index refresh_tokens_session_uuid_idx on app_private.refresh_tokens (session_uuid);
alter table app_private.refresh_tokens enable row level security;

-- E-mail verification, magic-link and password-reset tokens: single use, expiring, hashed.
create table app_private.user_tokens (
  uuid uuid primary key default gen_random_uuid(),
  user_uuid uuid not null references app_public.users on delete cascade,
  purpose text not null check (purpose in ('verify_email', 'magic_link', 'password_reset')),
  token_hash bytea not null unique check (length(token_hash) = 32),
  return_to text,
  created timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
comment on table app_private.user_tokens is 'One-time tokens sent by e-mail, stored only as SHA-256.';
create index user_tokens_user_uuid_idx on app_private.user_tokens (user_uuid);
alter table app_private.user_tokens enable row level security;

-- The request that logs a user in (login, register) may show that user in its own answer; the
-- server gives every request a random uuid (app.request_uuid) and the login records it here.
create table app_private.request_identities (
  request_uuid uuid primary key,
  user_uuid uuid not null references app_public.users on delete cascade,
  session_uuid uuid references app_public.sessions on delete cascade,
  created timestamptz not null default now()
);
comment on table app_private.request_identities is 'Who a request became by logging in or registering, for the rest of that request only.';
alter table app_private.request_identities enable row level security;

create table app_private.emails (
  uuid uuid primary key default gen_random_uuid(),
  to_address citext not null,
  subject text not null,
  -- Cleared once the mail has been handed to the SMTP server: its links are credentials.
  text_body text,
  status text not null default 'queued' check (status in ('queued', 'sent', 'outbox', 'failed')),
  created timestamptz not null default now(),
  sent_at timestamptz,
  last_error text
);
comment on table app_private.emails is 'Outgoing e-mail; without SMTP_URL it stays here (status outbox) for a local user to read.';
alter table app_private.emails enable row level security;

create table app_private.rate_limit_counters (
  bucket text not null,
  window_start timestamptz not null,
  hits integer not null default 0,
  primary key (bucket, window_start)
);
comment on table app_private.rate_limit_counters is 'Hits per rate-limit bucket (e.g. password_reset:address:…) and fixed time window.';
alter table app_private.rate_limit_counters enable row level security;

--! split: 0400-identity-helpers.sql
create function app_hidden.current_session_uuid() returns uuid
  language sql stable security definer parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select coalesce(
    nullif(current_setting('app.session_uuid', true), '')::uuid,
    (select r.session_uuid from app_private.request_identities r
      where r.request_uuid = nullif(current_setting('app.request_uuid', true), '')::uuid)
  )
$$;
comment on function app_hidden.current_session_uuid() is 'The session of this request: from the access token, or the one this request just created.';

create function app_hidden.current_user_uuid() returns uuid
  language sql stable security definer parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select coalesce(
    (select s.user_uuid from app_public.sessions s
      where s.uuid = app_hidden.current_session_uuid() and s.revoked_at is null and s.expires_at > now()),
    (select r.user_uuid from app_private.request_identities r
      where r.request_uuid = nullif(current_setting('app.request_uuid', true), '')::uuid)
  )
$$;
comment on function app_hidden.current_user_uuid() is 'The user of this request, read from the session row, so ending a session takes effect at once.';

create function app_hidden.require_user_uuid() returns uuid
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  user_uuid uuid := app_hidden.current_user_uuid();
begin
  if user_uuid is null then
    raise exception 'Not authenticated. Send Authorization: Bearer <token>.' using errcode = 'XAUTH';
  end if;
  return user_uuid;
end;
$$;
comment on function app_hidden.require_user_uuid() is 'The user of this request, or the UNAUTHENTICATED error every account operation answers without one.';

create function app_hidden.current_user_organization_uuids() returns setof uuid
  language sql stable security definer parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select m.organization_uuid from app_hidden.organization_memberships m where m.user_uuid = app_hidden.current_user_uuid()
$$;
comment on function app_hidden.current_user_organization_uuids() is 'Organizations the user of this request belongs to.';

-- An API token's environment (set by the server) or else the environment of the session.
create or replace function app_hidden.current_environment_uuid() returns uuid
  language sql stable security definer parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select coalesce(
    nullif(current_setting('app.environment_uuid', true), '')::uuid,
    (select s.environment_uuid from app_public.sessions s
      where s.uuid = app_hidden.current_session_uuid() and s.revoked_at is null and s.expires_at > now())
  )
$$;
comment on function app_hidden.current_environment_uuid() is 'The environment this request acts in: its API token''s, or its session''s.';

create function app_hidden.assert_api_scope(required text) returns void
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  if app_hidden.current_api_token_uuid() is null then
    raise exception 'This operation needs an API token with scope %: send Authorization: Bearer <API token>.', required
      using errcode = 'XAUTH';
  end if;
  if not required = any (app_hidden.current_api_scopes()) then
    raise exception 'This API token lacks the scope %.', required using errcode = 'XFORB';
  end if;
end;
$$;
comment on function app_hidden.assert_api_scope(text) is 'Raises unless the request carries an API token holding the scope.';

--! split: 0500-policies.sql
create policy select_self on app_public.users for select to app_visitor
  using (uuid = (select app_hidden.current_user_uuid()));
grant select on app_public.users to app_visitor;

create policy select_own on app_hidden.organization_memberships for select to app_visitor
  using (user_uuid = (select app_hidden.current_user_uuid()));
grant select on app_hidden.organization_memberships to app_visitor;

create policy select_own on app_public.sessions for select to app_visitor
  using (user_uuid = (select app_hidden.current_user_uuid()) and revoked_at is null and expires_at > now());
grant select on app_public.sessions to app_visitor;

-- Organizations and environments: members see theirs (an API token sees its own environment).
drop policy if exists select_member on app_public.organizations;
create policy select_member on app_public.organizations for select to app_visitor
  using (uuid in (select app_hidden.current_user_organization_uuids()));
drop policy if exists select_member on app_public.environments;
create policy select_member on app_public.environments for select to app_visitor
  using (organization_uuid in (select app_hidden.current_user_organization_uuids()));

-- API tokens: only members, and only those of the session's current environment.
drop policy if exists select_current_environment on app_public.api_tokens;
create policy select_current_environment on app_public.api_tokens for select to app_visitor
  using (environment_uuid = (select app_hidden.current_environment_uuid())
         and exists (select 1 from app_public.environments e
                      where e.uuid = environment_uuid
                        and e.organization_uuid in (select app_hidden.current_user_organization_uuids())));

comment on constraint environments_organization_uuid_fkey on app_public.environments is E'@fieldName organization\n@foreignFieldName environments';
comment on constraint api_tokens_environment_uuid_fkey on app_public.api_tokens is '@behavior -*';
comment on column app_public.api_tokens.environment_uuid is '@behavior -*';
comment on column app_public.api_tokens.revoked_at is '@behavior -*';
comment on column app_public.api_tokens.last_used_at is 'Last request with this token, to the minute.';
comment on column app_public.environments.organization_uuid is '@behavior -*';

--! split: 0600-account-reads.sql
create type app_public.user_email as (
  address text,
  verified boolean
);
comment on type app_public.user_email is 'A user''s login e-mail address and whether it has been verified.';

create function app_public.users_email(u app_public.users) returns app_public.user_email
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select row(u.email_address::text, u.email_verified_at is not null)::app_public.user_email
$$;
comment on function app_public.users_email(app_public.users) is E'@notNull\nThe login e-mail address.';

create function app_public.users_has_password(u app_public.users) returns boolean
  language sql stable security definer parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select exists (select 1 from app_private.user_secrets s where s.user_uuid = u.uuid and s.password_hash is not null)
$$;
comment on function app_public.users_has_password(app_public.users) is E'@notNull\nFalse for accounts that log in by magic link only.';

create function app_public.sessions_is_current(s app_public.sessions) returns boolean
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select s.uuid is not distinct from app_hidden.current_session_uuid()
$$;
comment on function app_public.sessions_is_current(app_public.sessions) is E'@notNull\nTrue for the session of this request.';

create function app_public.session_valid() returns boolean
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select app_hidden.current_user_uuid() is not null
$$;
comment on function app_public.session_valid() is E'@notNull\nTrue while the Bearer access token belongs to a live session.';

create function app_public.me() returns app_public.users
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select u.* from app_public.users u where u.uuid = app_hidden.current_user_uuid()
$$;
comment on function app_public.me() is 'The user of the Bearer access token; null without a valid one.';

create function app_public.my_sessions() returns setof app_public.sessions
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select s.* from app_public.sessions s
   where s.user_uuid = app_hidden.require_user_uuid() and s.revoked_at is null and s.expires_at > now()
   order by s.last_activity_at desc, s.uuid
$$;
comment on function app_public.my_sessions() is 'Live sessions of the current user, most recently active first.';

create function app_public.current_environment() returns app_public.environments
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select e.* from app_public.environments e
   where app_hidden.require_user_uuid() is not null and e.uuid = app_hidden.current_environment_uuid()
$$;
comment on function app_public.current_environment() is 'The environment bound to the session.';

create function app_public.my_organizations() returns setof app_public.organizations
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select o.* from app_public.organizations o
   where app_hidden.require_user_uuid() is not null and o.uuid in (select app_hidden.current_user_organization_uuids())
   order by o.name, o.uuid
$$;
comment on function app_public.my_organizations() is 'Organizations the current user belongs to, by name.';

create function app_public.api_tokens() returns setof app_public.api_tokens
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select t.* from app_public.api_tokens t
   where app_hidden.require_user_uuid() is not null and t.revoked_at is null
   order by t.created desc, t.uuid
$$;
comment on function app_public.api_tokens() is 'API tokens of the current environment (revoked ones are gone), newest first.';

create function app_public.api_token(uuid text) returns app_public.api_tokens
  language sql stable strict parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select t.* from app_public.api_tokens t
   where app_hidden.require_user_uuid() is not null and t.revoked_at is null and t.uuid = app_hidden.try_uuid(api_token.uuid)
$$;
comment on function app_public.api_token(text) is 'One API token of the current environment; null when there is none.';

create function app_public.api_scopes() returns setof app_public.api_scopes
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select s.* from app_public.api_scopes s order by s.name
$$;
comment on function app_public.api_scopes() is E'@notNull\nEvery scope an API token can hold, with what it allows.';

--! split: 0700-account-mutations.sql
-- Mutations that need only SQL. plugins/account-mutations.ts exposes them with the spec's
-- signatures; they run as the visitor, so RLS and require_user_uuid() hold.
create schema app_accounts;
comment on schema app_accounts is 'Account mutations run by the visitor (exposed by plugins/account-mutations.ts), and the privileged account steps run by the server''s owner pool.';
grant usage on schema app_accounts to app_visitor;

create function app_accounts.create_organization(name text) returns uuid
  language plpgsql volatile security definer
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  user_uuid uuid := app_hidden.require_user_uuid();
  organization_uuid uuid;
begin
  if name is null or length(btrim(name)) not between 1 and 200 then
    raise exception 'An organization name has 1 to 200 characters.' using errcode = 'XINPT';
  end if;
  insert into app_public.organizations (name) values (btrim(name)) returning uuid into organization_uuid;
  insert into app_hidden.organization_memberships (organization_uuid, user_uuid, role)
    values (organization_uuid, user_uuid, 'owner');
  return organization_uuid;
end;
$$;

create function app_accounts.update_organization(organization_uuid text, name text) returns uuid
  language plpgsql volatile security definer
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  target uuid := app_hidden.try_uuid(organization_uuid);
begin
  perform app_hidden.require_user_uuid();
  if name is null or length(btrim(name)) not between 1 and 200 then
    raise exception 'An organization name has 1 to 200 characters.' using errcode = 'XINPT';
  end if;
  update app_public.organizations o set name = btrim(update_organization.name)
   where o.uuid = target and o.uuid in (select app_hidden.current_user_organization_uuids());
  if not found then
    raise exception 'Organization not found.' using errcode = 'XNOTF';
  end if;
  return target;
end;
$$;

create function app_accounts.create_environment(organization_uuid text, name text) returns uuid
  language plpgsql volatile security definer
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  target uuid := app_hidden.try_uuid(organization_uuid);
  environment_uuid uuid;
begin
  perform app_hidden.require_user_uuid();
  if name is null or length(btrim(name)) not between 1 and 200 then
    raise exception 'An environment name has 1 to 200 characters.' using errcode = 'XINPT';
  end if;
  if target is null or target not in (select app_hidden.current_user_organization_uuids()) then
    raise exception 'Organization not found.' using errcode = 'XNOTF';
  end if;
  insert into app_public.environments (organization_uuid, name) values (target, btrim(name))
    returning uuid into environment_uuid;
  return environment_uuid;
end;
$$;

create function app_accounts.delete_session(session_uuid text) returns boolean
  language plpgsql volatile security definer
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  update app_public.sessions s set revoked_at = now()
   where s.uuid = app_hidden.try_uuid(session_uuid)
     and s.user_uuid = app_hidden.require_user_uuid()
     and s.revoked_at is null;
  if not found then
    raise exception 'Session not found.' using errcode = 'XNOTF';
  end if;
  return true;
end;
$$;

create function app_accounts.delete_other_sessions() returns integer
  language sql volatile security definer
  set search_path to pg_catalog, public, pg_temp
as $$
  with ended as (
    update app_public.sessions s set revoked_at = now()
     where s.user_uuid = app_hidden.require_user_uuid()
       and s.uuid is distinct from app_hidden.current_session_uuid()
       and s.revoked_at is null
    returning 1
  )
  select count(*)::integer from ended
$$;

create function app_accounts.logout() returns boolean
  language sql volatile security definer
  set search_path to pg_catalog, public, pg_temp
as $$
  update app_public.sessions s set revoked_at = now()
   where s.uuid = app_hidden.current_session_uuid() and s.user_uuid = app_hidden.require_user_uuid();
  select true
$$;

create function app_accounts.set_current_environment(environment_uuid text) returns uuid
  language plpgsql volatile security definer
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  target uuid := app_hidden.try_uuid(environment_uuid);
begin
  perform app_hidden.require_user_uuid();
  if not exists (select 1 from app_public.environments e
                  where e.uuid = target and e.organization_uuid in (select app_hidden.current_user_organization_uuids())) then
    raise exception 'Environment not found.' using errcode = 'XNOTF';
  end if;
  update app_public.sessions s set environment_uuid = target where s.uuid = app_hidden.current_session_uuid();
  return target;
end;
$$;

-- API tokens of the current environment, for members of its organization.
create function app_accounts.require_current_environment() returns uuid
  language plpgsql stable security definer
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  environment_uuid uuid;
begin
  perform app_hidden.require_user_uuid();
  select e.uuid into environment_uuid from app_public.environments e
   where e.uuid = app_hidden.current_environment_uuid()
     and e.organization_uuid in (select app_hidden.current_user_organization_uuids());
  if environment_uuid is null then
    raise exception 'The session has no current environment; call setCurrentEnvironment first.' using errcode = 'XCONF';
  end if;
  return environment_uuid;
end;
$$;

create function app_accounts.create_api_token(name text, scopes text[], valid_days integer, secret_hash bytea, token_preview text)
  returns uuid
  language sql volatile security definer
  set search_path to pg_catalog, public, pg_temp
as $$
  select (app_private.create_api_token(app_accounts.require_current_environment(), name, scopes, valid_days, secret_hash, token_preview)).uuid
$$;

create function app_accounts.update_api_token(token_uuid text, name text, scopes text[]) returns uuid
  language plpgsql volatile security definer
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  target uuid := app_hidden.try_uuid(token_uuid);
  unknown_scopes text;
begin
  if name is not null and length(btrim(name)) not between 1 and 200 then
    raise exception 'A token name has 1 to 200 characters.' using errcode = 'XINPT';
  end if;
  select string_agg(s, ', ' order by s) into unknown_scopes
    from unnest(coalesce(scopes, '{}')) s where not exists (select 1 from app_public.api_scopes a where a.name = s);
  if unknown_scopes is not null then
    raise exception 'Unknown scope(s): %. See apiScopes for the list.', unknown_scopes using errcode = 'XINPT';
  end if;
  update app_public.api_tokens t
     set name = coalesce(btrim(update_api_token.name), t.name),
         scopes = case when update_api_token.scopes is null then t.scopes
                       else coalesce((select array_agg(distinct s order by s) from unnest(update_api_token.scopes) s), '{}') end
   where t.uuid = target and t.environment_uuid = app_accounts.require_current_environment() and t.revoked_at is null;
  if not found then
    raise exception 'API token not found.' using errcode = 'XNOTF';
  end if;
  return target;
end;
$$;

create function app_accounts.delete_api_token(token_uuid text) returns boolean
  language plpgsql volatile security definer
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  update app_public.api_tokens t set revoked_at = now()
   where t.uuid = app_hidden.try_uuid(token_uuid)
     and t.environment_uuid = app_accounts.require_current_environment()
     and t.revoked_at is null;
  if not found then
    raise exception 'API token not found.' using errcode = 'XNOTF';
  end if;
  return true;
end;
$$;

grant execute on all functions in schema app_accounts to app_visitor;

--! split: 0800-privileged-account-steps.sql
-- Run by the server through the owner pool (lib/accounts.ts), never by the visitor: each commits
-- on its own, so counters and lockouts survive a request that fails afterwards.

-- Fixed-window rate limit: counts the hit, then raises RATE_LIMITED past max_hits.
create function app_private.hit_rate_limit(rate_bucket text, max_hits integer, per interval) returns void
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  hits_so_far integer;
begin
  insert into app_private.rate_limit_counters as c (bucket, window_start, hits)
  values (rate_bucket, date_bin(per, now(), timestamptz '2000-01-01'), 1)
  on conflict on constraint rate_limit_counters_pkey do update set hits = c.hits + 1
  returning c.hits into hits_so_far;
  if hits_so_far > max_hits then
    raise exception 'Too many requests; try again later.' using errcode = 'XRATE';
  end if;
end;
$$;

create function app_private.queue_email(to_address text, subject text, text_body text) returns uuid
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  email_uuid uuid;
begin
  insert into app_private.emails (to_address, subject, text_body) values (to_address, subject, text_body)
    returning uuid into email_uuid;
  perform graphile_worker.add_job('emails__send', json_build_object('uuid', email_uuid), max_attempts => 10);
  return email_uuid;
end;
$$;

create function app_private.register_user(
  email text, display_name text, password_hash text, organization_name text, environment_name text, request_uuid uuid,
  out user_uuid uuid, out organization_uuid uuid, out environment_uuid uuid
)
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  address citext := lower(btrim(email));
begin
  if address is null or length(address) > 320 or address !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    raise exception 'That is not an e-mail address.' using errcode = 'XINPT';
  end if;
  if exists (select 1 from app_public.users u where u.email_address = address) then
    raise exception 'An account with this e-mail address already exists; log in or reset the password.' using errcode = 'XCONF';
  end if;
  insert into app_public.users (display_name, email_address)
    values (coalesce(nullif(btrim(display_name), ''), split_part(address, '@', 1)), address)
    returning uuid into user_uuid;
  insert into app_private.user_secrets (user_uuid, password_hash, password_changed_at)
    values (user_uuid, password_hash, case when password_hash is not null then now() end);
  insert into app_public.organizations (name)
    values (coalesce(nullif(btrim(organization_name), ''), split_part(address, '@', 1) || '''s organization'))
    returning uuid into organization_uuid;
  insert into app_hidden.organization_memberships (organization_uuid, user_uuid, role)
    values (organization_uuid, user_uuid, 'owner');
  insert into app_public.environments (organization_uuid, name)
    values (organization_uuid, coalesce(nullif(btrim(environment_name), ''), 'production'))
    returning uuid into environment_uuid;
  insert into app_private.request_identities (request_uuid, user_uuid) values (request_uuid, user_uuid);
end;
$$;

create function app_private.login_candidate(email text, out user_uuid uuid, out password_hash text, out locked_until timestamptz)
  language sql stable
  set search_path to pg_catalog, public, pg_temp
as $$
  select u.uuid, s.password_hash, s.locked_until
    from app_public.users u left join app_private.user_secrets s on s.user_uuid = u.uuid
   where u.email_address = lower(btrim(email))
$$;

-- Five failures within 15 minutes lock the account for 15 minutes.
create function app_private.login_failed(user_uuid uuid) returns void
  language sql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
  update app_private.user_secrets s
     set failed_login_count = case when s.first_failed_login_at > now() - interval '15 minutes' then s.failed_login_count + 1 else 1 end,
         first_failed_login_at = case when s.first_failed_login_at > now() - interval '15 minutes' then s.first_failed_login_at else now() end,
         locked_until = case when s.first_failed_login_at > now() - interval '15 minutes' and s.failed_login_count + 1 >= 5
                             then now() + interval '15 minutes' else s.locked_until end
   where s.user_uuid = login_failed.user_uuid
$$;

-- A new session with its first refresh token; the environment is the given one or the user's first.
create function app_private.create_session(
  user_uuid uuid, refresh_token_hash bytea, ip_address text, user_agent text, request_uuid uuid, lifetime interval,
  out session_uuid uuid, out environment_uuid uuid, out expires_at timestamptz
)
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  update app_private.user_secrets s set failed_login_count = 0, first_failed_login_at = null, locked_until = null
   where s.user_uuid = create_session.user_uuid;
  select e.uuid into environment_uuid
    from app_public.environments e join app_hidden.organization_memberships m on m.organization_uuid = e.organization_uuid
   where m.user_uuid = create_session.user_uuid
   order by m.created, e.created, e.uuid limit 1;
  insert into app_public.sessions (user_uuid, environment_uuid, ip_address, user_agent, expires_at)
    values (user_uuid, environment_uuid, left(ip_address, 100), left(user_agent, 500), now() + lifetime)
    returning uuid, sessions.expires_at into session_uuid, expires_at;
  insert into app_private.refresh_tokens (session_uuid, token_hash) values (session_uuid, refresh_token_hash);
  insert into app_private.request_identities (request_uuid, user_uuid, session_uuid)
    values (request_uuid, user_uuid, session_uuid)
    on conflict on constraint request_identities_pkey
    do update set user_uuid = excluded.user_uuid, session_uuid = excluded.session_uuid;
end;
$$;

-- Rotation: the presented token is spent and a new one issued. A spent token presented again
-- means it was stolen (or raced): the whole session (token family) ends. The outcome is returned,
-- not raised, so that ending the session is committed although the request fails.
create function app_private.rotate_refresh_token(presented_hash bytea, new_hash bytea, lifetime interval,
  out outcome text, out session_uuid uuid, out user_uuid uuid)
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  token app_private.refresh_tokens;
begin
  select * into token from app_private.refresh_tokens t where t.token_hash = presented_hash for update;
  if not found then
    outcome := 'invalid';
    return;
  end if;
  if token.used_at is not null then
    update app_public.sessions s set revoked_at = coalesce(s.revoked_at, now()) where s.uuid = token.session_uuid;
    outcome := 'reused';
    return;
  end if;
  update app_private.refresh_tokens t set used_at = now() where t.uuid = token.uuid;
  update app_public.sessions s set expires_at = now() + lifetime, last_activity_at = now()
   where s.uuid = token.session_uuid and s.revoked_at is null and s.expires_at > now()
   returning s.uuid, s.user_uuid into session_uuid, user_uuid;
  if session_uuid is null then
    outcome := 'ended';
    return;
  end if;
  insert into app_private.refresh_tokens (session_uuid, token_hash) values (session_uuid, new_hash);
  outcome := 'rotated';
end;
$$;

-- switchEnvironment: bind the environment, spend the session's refresh tokens, issue a new one.
create function app_private.reissue_refresh_token(session_uuid uuid, new_hash bytea) returns void
  language sql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
  update app_private.refresh_tokens t set used_at = now() where t.session_uuid = reissue_refresh_token.session_uuid and t.used_at is null;
  insert into app_private.refresh_tokens (session_uuid, token_hash) values (session_uuid, new_hash);
$$;

-- Called by the authenticator for every request with a user access token (lib/auth-context.ts).
create function app_private.authenticate_session(session_uuid uuid)
  returns table (user_uuid uuid, environment_uuid uuid)
  language plpgsql volatile security definer
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  return query
    update app_public.sessions s set last_activity_at = now()
     where s.uuid = authenticate_session.session_uuid and s.revoked_at is null and s.expires_at > now()
       and s.last_activity_at < now() - interval '1 minute'
    returning s.user_uuid, s.environment_uuid;
  if not found then
    return query
      select s.user_uuid, s.environment_uuid from app_public.sessions s
       where s.uuid = authenticate_session.session_uuid and s.revoked_at is null and s.expires_at > now();
  end if;
end;
$$;
grant execute on function app_private.authenticate_session(uuid) to app_authenticator;

create function app_private.create_user_token(email text, purpose text, token_hash bytea, lifetime interval, return_to text default null)
  returns uuid
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  user_uuid uuid;
begin
  select u.uuid into user_uuid from app_public.users u where u.email_address = lower(btrim(email));
  if user_uuid is not null then
    insert into app_private.user_tokens (user_uuid, purpose, token_hash, expires_at, return_to)
      values (user_uuid, purpose, token_hash, now() + lifetime, return_to);
  end if;
  return user_uuid;
end;
$$;
comment on function app_private.create_user_token(text, text, bytea, interval, text) is 'Stores a one-time token for the user with this e-mail address; null (and nothing stored) when there is none.';

create function app_private.consume_user_token(token_hash bytea, purpose text, out user_uuid uuid, out return_to text)
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  update app_private.user_tokens t set used_at = now()
   where t.token_hash = consume_user_token.token_hash and t.purpose = consume_user_token.purpose
     and t.used_at is null and t.expires_at > now()
   returning t.user_uuid, t.return_to into user_uuid, return_to;
  if user_uuid is null then
    raise exception 'This link is invalid, expired or already used.' using errcode = 'XAUTH';
  end if;
  -- Following any e-mailed link proves the address.
  update app_public.users u set email_verified_at = coalesce(u.email_verified_at, now()) where u.uuid = user_uuid;
end;
$$;

create function app_private.reset_password(token_hash bytea, password_hash text) returns uuid
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  target_user uuid := (app_private.consume_user_token(token_hash, 'password_reset')).user_uuid;
begin
  update app_private.user_secrets s
     set password_hash = reset_password.password_hash, password_changed_at = now(),
         failed_login_count = 0, first_failed_login_at = null, locked_until = null
   where s.user_uuid = target_user;
  update app_public.sessions s set revoked_at = now() where s.user_uuid = target_user and s.revoked_at is null;
  update app_private.user_tokens t set used_at = now()
   where t.user_uuid = target_user and t.purpose = 'password_reset' and t.used_at is null;
  return target_user;
end;
$$;

create function app_private.purge_expired_auth_data() returns void
  language sql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
  delete from app_private.request_identities where created < now() - interval '1 hour';
  delete from app_private.rate_limit_counters where window_start < now() - interval '2 days';
  delete from app_private.user_tokens where expires_at < now() - interval '7 days';
  delete from app_public.sessions where coalesce(revoked_at, expires_at) < now() - interval '30 days';
  delete from app_private.emails where created < now() - interval '30 days';
$$;
comment on function app_private.purge_expired_auth_data() is 'Nightly clean-up of spent sessions, tokens, counters and old e-mail.';
