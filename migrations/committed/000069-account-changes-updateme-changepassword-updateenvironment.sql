--! Previous: sha1:a166708687e38a51076718a1d4ebd90a4ac1d0d9
--! Hash: sha1:ce20539007f4ba430d070504684eb493cdb44f93
--! Message: Account changes: updateMe, changePassword, updateEnvironment

-- Account changes for the web console (issue 32): updateMe, changePassword and updateEnvironment,
-- additions to spec 4.2 built as the other account mutations are (plugins/account-mutations.ts):
-- one SQL function of app_accounts run as the request's visitor, the caller checked first.

-- The name rules of an environment, shared by createEnvironment and updateEnvironment so that a
-- rename accepts exactly the names a creation does.
create or replace function app_hidden.checked_environment_name(name text) returns text
language plpgsql immutable
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  if name is null or length(btrim(name)) not between 1 and 200 then
    raise exception 'An environment name has 1 to 200 characters.' using errcode = 'XINPT';
  end if;
  return btrim(name);
end;
$$;
comment on function app_hidden.checked_environment_name(text) is 'The trimmed environment name, or BAD_USER_INPUT unless it has 1 to 200 characters: the one rule of createEnvironment and updateEnvironment (app_accounts.create_environment, app_accounts.update_environment).';

create or replace function app_accounts.create_environment(organization_uuid text, name text) returns uuid
language plpgsql security definer
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  target uuid := app_hidden.try_uuid(organization_uuid);
  environment_uuid uuid;
begin
  perform app_hidden.require_user_uuid();
  name := app_hidden.checked_environment_name(name);
  if target is null or target not in (select app_hidden.current_user_organization_uuids()) then
    raise exception 'Organization not found.' using errcode = 'XNOTF';
  end if;
  insert into app_public.environments (organization_uuid, name) values (target, name)
    returning uuid into environment_uuid;
  return environment_uuid;
end;
$$;
grant execute on function app_accounts.create_environment(text, text) to app_visitor;
comment on function app_accounts.create_environment(text, text) is 'createEnvironment: adds an environment to one of the calling user''s organizations. SECURITY DEFINER because the visitor may write no table; the caller is checked first and an organization not theirs answers NOT_FOUND. The name rules are app_hidden.checked_environment_name, shared with updateEnvironment.';

create or replace function app_accounts.update_environment(environment_uuid text, name text) returns uuid
language plpgsql security definer
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  target uuid := app_hidden.try_uuid(environment_uuid);
begin
  perform app_hidden.require_user_uuid();
  name := app_hidden.checked_environment_name(name);
  update app_public.environments e set name = update_environment.name
   where e.uuid = target and e.organization_uuid in (select app_hidden.current_user_organization_uuids());
  if not found then
    raise exception 'Environment not found.' using errcode = 'XNOTF';
  end if;
  return target;
end;
$$;
grant execute on function app_accounts.update_environment(text, text) to app_visitor;
comment on function app_accounts.update_environment(text, text) is 'updateEnvironment (issue 32, an addition to the spec): renames an environment of an organization the calling user belongs to, with createEnvironment''s name rules. Any other environment, or a malformed uuid (app_hidden.try_uuid), answers NOT_FOUND, as updateOrganization does, so the call reveals no environment the caller cannot see.';

create or replace function app_accounts.update_me(display_name text) returns uuid
language plpgsql security definer
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  me uuid := app_hidden.require_user_uuid();
begin
  if display_name is null or length(btrim(display_name)) not between 1 and 100
     or display_name ~ '[\u0001-\u001f\u007f-\u009f]' then
    raise exception 'displayName needs 1 to 100 characters (spaces around it are trimmed) and no control characters.'
      using errcode = 'XINPT';
  end if;
  update app_public.users u set display_name = btrim(update_me.display_name) where u.uuid = me;
  return me;
end;
$$;
grant execute on function app_accounts.update_me(text) to app_visitor;
comment on function app_accounts.update_me(text) is 'updateMe (issue 32, an addition to the spec): changes the calling user''s display name, trimmed, 1 to 100 characters without control characters (C0, DEL and C1), else BAD_USER_INPUT. The caller is checked first, so an anonymous call answers UNAUTHENTICATED. Names stored before (register allowed up to 200) stay as they are.';

create or replace function app_accounts.change_password(verified_hash text, new_hash text) returns integer
language plpgsql security definer
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  me uuid := app_hidden.require_user_uuid();
  address text := (select u.email_address::text from app_public.users u where u.uuid = me);
  changed integer;
begin
  insert into app_private.user_secrets as s (user_uuid, password_hash, password_changed_at)
  values (me, new_hash, now())
  on conflict (user_uuid) do update set password_hash = excluded.password_hash, password_changed_at = now()
   where s.password_hash is not distinct from verified_hash;
  get diagnostics changed = row_count;
  if changed = 0 then
    raise exception 'The password was changed meanwhile; try again.' using errcode = 'XCONF';
  end if;
  delete from app_private.login_failures f where f.email_address = address;
  update app_private.user_tokens t set used_at = now()
   where t.user_uuid = me and t.purpose = 'password_reset' and t.used_at is null;
  return app_accounts.delete_other_sessions();
end;
$$;
grant execute on function app_accounts.change_password(text, text) to app_visitor;
comment on function app_accounts.change_password(text, text) is 'changePassword''s write (issue 32, an addition to the spec; lib/accounts/flows.ts checked the current password with argon2 and made new_hash): stores the calling user''s new hash only while the stored one is still verified_hash (null for a magic-link-only account), so the visitor role cannot set a password without the hash Node verified against, and two concurrent changes cannot both win (CONFLICT). Then, as a reset does, clears the address''s failed logins and spends open reset links, and ends every other session of the user (app_accounts.delete_other_sessions; returns how many), the current one staying signed in.';
