--! Previous: sha1:17fd34b3f953dcb97ff49620a92524cc1680e8ed
--! Hash: sha1:f67f3e025648b7d2c63e7c482c5bb01c2b5699de
--! Message: Account mutations check the caller before they look for rows

-- logout and deleteSession filtered their UPDATE by require_user_uuid(); when the other condition
-- found no row, PostgreSQL never evaluated it, so an anonymous call could succeed (or answer
-- NOT_FOUND) instead of UNAUTHENTICATED. The check now comes first.
create or replace function app_accounts.logout() returns boolean
  language plpgsql volatile security definer
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  caller uuid := app_hidden.require_user_uuid();
begin
  update app_public.sessions s set revoked_at = now()
   where s.uuid = app_hidden.current_session_uuid() and s.user_uuid = caller;
  return true;
end;
$$;

create or replace function app_accounts.delete_session(session_uuid text) returns boolean
  language plpgsql volatile security definer
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  caller uuid := app_hidden.require_user_uuid();
begin
  update app_public.sessions s set revoked_at = now()
   where s.uuid = app_hidden.try_uuid(session_uuid)
     and s.user_uuid = caller
     and s.revoked_at is null;
  if not found then
    raise exception 'Session not found.' using errcode = 'XNOTF';
  end if;
  return true;
end;
$$;
