--! Previous: sha1:dc88084d0b533f618fbef8fa386e4b2d5088b717
--! Hash: sha1:1022f1fa6a362ce3bbe4e1ae39f42a7c5e51c00d
--! Message: p2000:publish only for receivers' tokens: createApiToken and updateApiToken neither give it nor change a receiver's token

-- p2000:publish belongs to receivers' tokens only (createP2000Receiver): createApiToken and
-- updateApiToken neither give it nor change a receiver's token (its scope is what makes it publish
-- and read nothing; the receiver is removed with deleteP2000Receiver).
create or replace function app_hidden.assert_no_receiver_scope(scopes text[]) returns void
  language plpgsql immutable
as $$
begin
  if 'p2000:publish' = any (scopes) then
    raise exception 'p2000:publish is only for a receiver''s token: register the receiver with createP2000Receiver.' using errcode = 'XINPT';
  end if;
end;
$$;
comment on function app_hidden.assert_no_receiver_scope(text[]) is 'BAD_USER_INPUT when a token made or changed by createApiToken or updateApiToken would get p2000:publish, which only createP2000Receiver gives.';

create or replace function app_accounts.create_api_token(name text, scopes text[], valid_days integer, secret_hash bytea, token_preview text)
  returns uuid
  language plpgsql security definer
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  perform app_hidden.assert_no_receiver_scope(scopes);
  return (app_private.create_api_token(app_accounts.require_current_environment(), name, scopes, valid_days, secret_hash, token_preview)).uuid;
end;
$$;

create or replace function app_accounts.update_api_token(token_uuid text, name text, scopes text[])
  returns uuid
  language plpgsql security definer
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  target uuid := app_hidden.try_uuid(token_uuid);
  unknown_scopes text;
begin
  if name is not null and length(btrim(name)) not between 1 and 200 then
    raise exception 'A token name has 1 to 200 characters.' using errcode = 'XINPT';
  end if;
  perform app_hidden.assert_no_receiver_scope(scopes);
  if exists (select 1 from app_public.p2000_receivers r where r.api_token_uuid = target) then
    raise exception 'This is a receiver''s token: it publishes pages and nothing else. Remove the receiver (deleteP2000Receiver) to end it.'
      using errcode = 'XINPT';
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
