--! Previous: sha1:1212ad54c0fccc9789087567c9fc10dcc950406d
--! Hash: sha1:5dd800d2e5d8cf295aec1b0361475134fcd1943b
--! Message: A demo page says it is one; an organization left unnamed at registration takes the person's name

-- Issue 44: what a newcomer stumbled on.

-- A demo page is marked as one (the live demo's synthetic traffic and its three days of history,
-- stored with source 'demo' by lib/p2000/demo-data.ts), so the map can say so: a person used to
-- P2000 sites otherwise takes "A1 AMBU 13139 Emmastraat Diemen" for a real call.
create or replace function app_public.p2000_messages_is_demo(m app_public.p2000_messages) returns boolean
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select m.source = 'demo'
$$;
grant execute on function app_public.p2000_messages_is_demo(app_public.p2000_messages) to app_visitor, app_analyst;
comment on function app_public.p2000_messages_is_demo(app_public.p2000_messages) is '@notNull
True for the demo''s synthetic pages (DEMO_DATA), which no pager sent.';

-- Register's organization is named after the person when they leave it empty ("Eva de Vries's
-- organization"), not after their e-mail address's local part ("eva.devries's organization");
-- cut to fit the organization's 200 characters.
create or replace function app_private.register_user(email text, display_name text, password_hash text, organization_name text, environment_name text, request_uuid uuid, out user_uuid uuid, out organization_uuid uuid, out environment_uuid uuid)
  returns record
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  address citext := lower(btrim(email));
  person text := coalesce(nullif(btrim(display_name), ''), split_part(lower(btrim(email)), '@', 1));
begin
  if address is null or length(address) > 320 or address !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    raise exception 'That is not an e-mail address.' using errcode = 'XINPT';
  end if;
  if exists (select 1 from app_public.users u where u.email_address = address) then
    raise exception 'An account with this e-mail address already exists; log in or reset the password.' using errcode = 'XCONF';
  end if;
  insert into app_public.users (display_name, email_address)
    values (person, address)
    returning uuid into user_uuid;
  insert into app_private.user_secrets (user_uuid, password_hash, password_changed_at)
    values (user_uuid, password_hash, case when password_hash is not null then now() end);
  insert into app_public.organizations (name)
    values (coalesce(nullif(btrim(organization_name), ''), left(person, 185) || '''s organization'))
    returning uuid into organization_uuid;
  insert into app_hidden.organization_memberships (organization_uuid, user_uuid, role)
    values (organization_uuid, user_uuid, 'owner');
  insert into app_public.environments (organization_uuid, name)
    values (organization_uuid, coalesce(nullif(btrim(environment_name), ''), 'production'))
    returning uuid into environment_uuid;
  insert into app_private.request_identities (request_uuid, user_uuid) values (request_uuid, user_uuid);
end;
$$;
comment on function app_private.register_user(email text, display_name text, password_hash text, organization_name text, environment_name text, request_uuid uuid, out user_uuid uuid, out organization_uuid uuid, out environment_uuid uuid) is 'register''s SQL step: creates the user (its argon2 hash, if any, in user_secrets), an organization it owns (named "<display name>''s organization" when no name is given) and an environment, and records the request''s identity (app_private.request_identities) so the same answer can show them. It refuses a malformed address and one that already has an account.';
