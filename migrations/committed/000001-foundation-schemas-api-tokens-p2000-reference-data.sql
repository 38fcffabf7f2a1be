--! Previous: -
--! Hash: sha1:fd343345001b37fb53dfcb38180b176ad965f792
--! Message: Foundation: schemas, API tokens, P2000 reference data

--! split: 0100-schemas-and-helpers.sql
-- Foundation: the three schemas, default privileges and the helpers every later migration uses.
-- This file is idempotent while it is the current migration: it drops what it creates first.
drop schema if exists app_public cascade;
drop schema if exists app_hidden cascade;
drop schema if exists app_private cascade;

-- app_public: what PostGraphile exposes (every spec operation is a function here).
-- app_hidden: helpers the visitor may call but GraphQL does not show.
-- app_private: secrets and privileged functions; the visitor and the analyst never get usage.
create schema app_public;
create schema app_hidden;
create schema app_private;

grant usage on schema app_public, app_hidden to app_visitor, app_analyst;
-- The authenticator resolves API tokens before it switches to the visitor role.
grant usage on schema app_private to app_authenticator;

-- Functions are not executable by everybody unless a migration says so. (Per-schema default
-- privileges can only add to the global ones, so the revoke is global for the owner role.)
alter default privileges revoke execute on functions from public;
alter default privileges in schema app_public, app_hidden grant execute on functions to app_visitor, app_analyst;

comment on schema app_public is 'Public API of the incident service: tables as GraphQL types and one function per operation.';
comment on schema app_hidden is 'Helpers callable by the visitor, not shown in GraphQL.';
comment on schema app_private is 'Secrets and privileged functions; never reachable by the visitor or analyst roles.';

-- Errors we raise ourselves use SQLSTATEs of our own class "X"; lib/errors.ts maps each one to the
-- GraphQL `extensions.code` the client sees. Anything else is masked as an internal error.
--   XINPT  BAD_USER_INPUT      XNOTF  NOT_FOUND      XAUTH  UNAUTHENTICATED
--   XFORB  FORBIDDEN           XCONF  CONFLICT       XRATE  RATE_LIMITED

create function app_hidden.tg__set_changed() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  new.changed := now();
  return new;
end;
$$;
comment on function app_hidden.tg__set_changed() is 'Trigger: keeps the changed column current on every update.';

-- Reference rows get the same uuid on every installation, so clients can keep them.
create function app_hidden.reference_uuid(kind text, key text) returns uuid
  language sql immutable strict parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select md5(kind || ':' || key)::uuid
$$;
comment on function app_hidden.reference_uuid(text, text) is 'Stable uuid of a reference row, derived from its kind and natural key.';

-- Lets lookups accept any string: an invalid uuid simply finds nothing instead of raising 22P02.
create function app_hidden.try_uuid(value text) returns uuid
  language sql immutable strict parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select case
    when value ~* '^\s*[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}\s*$'
    then trim(value)::uuid
  end
$$;
comment on function app_hidden.try_uuid(text) is 'The uuid the text spells, or null when it is not a uuid.';

-- Pagination (spec section 8): `first` defaults to 50 and is clamped to the cap (100 unless an
-- operation documents another); `first` < 1, `page` < 1 or a page beyond the offset limit is an error.
create function app_hidden.page_limit(first integer, max_first integer default 100, default_first integer default 50)
  returns integer
  language plpgsql immutable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  if first is null then
    return least(default_first, max_first);
  end if;
  if first < 1 then
    raise exception 'Argument "first" must be at least 1 (got %).', first using errcode = 'XINPT';
  end if;
  return least(first, max_first);
end;
$$;
comment on function app_hidden.page_limit(integer, integer, integer) is 'LIMIT for a page: first, defaulted and clamped to the cap.';

create function app_hidden.page_offset(first integer, page integer, max_first integer default 100, default_first integer default 50)
  returns integer
  language plpgsql immutable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  page_size integer := app_hidden.page_limit(first, max_first, default_first);
begin
  if page is null then
    return 0;
  end if;
  if page < 1 then
    raise exception 'Argument "page" must be at least 1 (got %).', page using errcode = 'XINPT';
  end if;
  -- Deep OFFSET pages cost a scan of everything before them; past this, clients must filter instead.
  if (page::bigint - 1) * page_size > 100000 then
    raise exception 'Argument "page" is too large: at most 100000 rows can be skipped; narrow the filter instead.'
      using errcode = 'XINPT';
  end if;
  return (page - 1) * page_size;
end;
$$;
comment on function app_hidden.page_offset(integer, integer, integer, integer) is 'OFFSET for a page numbered from 1.';

-- A free-text search term as an ILIKE pattern: trimmed, wildcards escaped, null when empty.
create function app_hidden.search_pattern(search text) returns text
  language plpgsql immutable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  term text := btrim(search);
begin
  if term is null or term = '' then
    return null;
  end if;
  if length(term) > 100 then
    raise exception 'Search term is too long (at most 100 characters).' using errcode = 'XINPT';
  end if;
  return '%' || replace(replace(replace(term, '\', '\\'), '%', '\%'), '_', '\_') || '%';
end;
$$;
comment on function app_hidden.search_pattern(text) is 'ILIKE pattern for a search term, or null when there is nothing to search for.';

--! split: 0200-request-context.sql
-- What the server tells the database about the request, through pgSettings (see lib/auth-context.ts).
-- Only the server sets these; tenant policies apply to app_visitor alone, so an analyst who sets
-- them by hand still sees nothing of any environment.
create function app_hidden.current_api_token_uuid() returns uuid
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select nullif(current_setting('app.api_token_uuid', true), '')::uuid
$$;
comment on function app_hidden.current_api_token_uuid() is 'The API token that authenticated this request, if any.';

create function app_hidden.current_environment_uuid() returns uuid
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select nullif(current_setting('app.environment_uuid', true), '')::uuid
$$;
comment on function app_hidden.current_environment_uuid() is 'The environment this request acts in, if any.';

create function app_hidden.current_api_scopes() returns text[]
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select coalesce(string_to_array(nullif(current_setting('app.api_scopes', true), ''), ' '), '{}')
$$;
comment on function app_hidden.current_api_scopes() is 'Scopes of the API token of this request (empty without one).';

--! split: 0300-organizations-environments-api-tokens.sql
create table app_public.organizations (
  uuid uuid primary key default gen_random_uuid(),
  name text not null check (length(btrim(name)) between 1 and 200),
  created timestamptz not null default now(),
  changed timestamptz not null default now()
);
comment on table app_public.organizations is 'A customer account; owns environments.';
create trigger _100_set_changed before update on app_public.organizations
  for each row execute function app_hidden.tg__set_changed();
alter table app_public.organizations enable row level security;

create table app_public.environments (
  uuid uuid primary key default gen_random_uuid(),
  organization_uuid uuid not null references app_public.organizations on delete cascade,
  name text not null check (length(btrim(name)) between 1 and 200),
  created timestamptz not null default now(),
  changed timestamptz not null default now()
);
comment on table app_public.environments is 'A workspace of an organization: API tokens, channels and monitors belong to one.';
create index environments_organization_uuid_idx on app_public.environments (organization_uuid);
create trigger _100_set_changed before update on app_public.environments
  for each row execute function app_hidden.tg__set_changed();
alter table app_public.environments enable row level security;

create policy select_current on app_public.environments for select to app_visitor
  using (uuid = app_hidden.current_environment_uuid());
create policy select_current on app_public.organizations for select to app_visitor
  using (uuid in (select e.organization_uuid from app_public.environments e
                  where e.uuid = app_hidden.current_environment_uuid()));
grant select on app_public.organizations, app_public.environments to app_visitor;

create table app_public.api_scopes (
  name text primary key check (name ~ '^[a-z][a-z0-9_]*:[a-z][a-z0-9_]*$'),
  description text not null
);
comment on table app_public.api_scopes is 'Every scope an API token can hold.';
alter table app_public.api_scopes enable row level security;
create policy select_all on app_public.api_scopes for select to app_visitor, app_analyst using (true);
grant select on app_public.api_scopes to app_visitor, app_analyst;

insert into app_public.api_scopes (name, description) values
  ('auth:login', 'Log users in with e-mail and password, or send them a magic login link.'),
  ('auth:register', 'Register new users (creates a user, an organization and an environment).'),
  ('auth:password_reset', 'Send password reset e-mails.');

create table app_public.api_tokens (
  uuid uuid primary key default gen_random_uuid(),
  environment_uuid uuid not null references app_public.environments on delete cascade,
  name text not null check (length(btrim(name)) between 1 and 200),
  -- The prefix and the last four characters of the secret, so people can tell tokens apart.
  token_preview text not null,
  scopes text[] not null default '{}',
  expires_at timestamptz,
  revoked_at timestamptz,
  last_used_at timestamptz,
  created timestamptz not null default now(),
  changed timestamptz not null default now()
);
comment on table app_public.api_tokens is 'Environment-level credentials for the public read API and the auth operations; the secret lives hashed in app_private.api_token_secrets.';
create index api_tokens_environment_uuid_idx on app_public.api_tokens (environment_uuid);
create trigger _100_set_changed before update on app_public.api_tokens
  for each row execute function app_hidden.tg__set_changed();
alter table app_public.api_tokens enable row level security;
create policy select_current_environment on app_public.api_tokens for select to app_visitor
  using (environment_uuid = app_hidden.current_environment_uuid());
grant select on app_public.api_tokens to app_visitor;

create table app_private.api_token_secrets (
  api_token_uuid uuid primary key references app_public.api_tokens on delete cascade,
  secret_hash bytea not null unique check (length(secret_hash) = 32)
);
comment on table app_private.api_token_secrets is 'SHA-256 of each API token secret; the secret itself is never stored.';
alter table app_private.api_token_secrets enable row level security;

-- The installation's own organization and "operator" environment, made at first start; the token
-- CLI puts tokens there unless told otherwise.
create table app_private.installation (
  singleton boolean primary key default true check (singleton),
  operator_environment_uuid uuid not null references app_public.environments,
  created timestamptz not null default now()
);
comment on table app_private.installation is 'One row: facts about this installation, such as its operator environment.';
alter table app_private.installation enable row level security;

create function app_private.ensure_operator_environment(out environment_uuid uuid, out created boolean)
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  new_organization_uuid uuid;
begin
  -- Serialise concurrent first starts (server and CLI at once).
  lock table app_private.installation in exclusive mode;
  select i.operator_environment_uuid into environment_uuid from app_private.installation i;
  if found then
    created := false;
    return;
  end if;
  insert into app_public.organizations (name) values ('Operator') returning uuid into new_organization_uuid;
  insert into app_public.environments (organization_uuid, name) values (new_organization_uuid, 'operator')
    returning uuid into environment_uuid;
  insert into app_private.installation (operator_environment_uuid) values (environment_uuid);
  created := true;
end;
$$;
comment on function app_private.ensure_operator_environment() is 'The operator environment, created on first call; created tells whether this call made it.';

create function app_private.create_api_token(
  environment_uuid uuid,
  name text,
  scopes text[],
  valid_days integer,
  secret_hash bytea,
  token_preview text
) returns app_public.api_tokens
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  unknown_scopes text;
  token app_public.api_tokens;
begin
  if name is null or length(btrim(name)) = 0 then
    raise exception 'A token needs a name.' using errcode = 'XINPT';
  end if;
  if length(btrim(name)) > 200 then
    raise exception 'A token name has at most 200 characters.' using errcode = 'XINPT';
  end if;
  if valid_days is not null and (valid_days < 1 or valid_days > 3650) then
    raise exception 'validDays must be between 1 and 3650 (got %).', valid_days using errcode = 'XINPT';
  end if;
  select string_agg(s, ', ' order by s) into unknown_scopes
    from unnest(coalesce(scopes, '{}')) s
    where not exists (select 1 from app_public.api_scopes a where a.name = s);
  if unknown_scopes is not null then
    raise exception 'Unknown scope(s): %. See apiScopes for the list.', unknown_scopes using errcode = 'XINPT';
  end if;
  if not exists (select 1 from app_public.environments e where e.uuid = create_api_token.environment_uuid) then
    raise exception 'Environment not found.' using errcode = 'XNOTF';
  end if;

  insert into app_public.api_tokens (environment_uuid, name, scopes, expires_at, token_preview)
  values (
    create_api_token.environment_uuid,
    btrim(name),
    (select coalesce(array_agg(distinct s order by s), '{}') from unnest(coalesce(scopes, '{}')) s),
    case when valid_days is not null then now() + make_interval(days => valid_days) end,
    token_preview
  )
  returning * into token;
  insert into app_private.api_token_secrets (api_token_uuid, secret_hash) values (token.uuid, secret_hash);
  return token;
end;
$$;
comment on function app_private.create_api_token(uuid, text, text[], integer, bytea, text) is 'Stores a new API token (its secret only as a hash) after checking name, scopes and validity.';

create function app_private.revoke_api_token(token_uuid uuid) returns app_public.api_tokens
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  token app_public.api_tokens;
begin
  update app_public.api_tokens t set revoked_at = coalesce(t.revoked_at, now())
    where t.uuid = token_uuid
    returning * into token;
  if not found then
    raise exception 'API token not found.' using errcode = 'XNOTF';
  end if;
  return token;
end;
$$;
comment on function app_private.revoke_api_token(uuid) is 'Revokes an API token at once; revoking twice keeps the first time.';

-- Called by the authenticator for every request with a Bearer API token (lib/auth-context.ts).
create function app_private.authenticate_api_token(secret_hash bytea)
  returns table (api_token_uuid uuid, environment_uuid uuid, scopes text[])
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
    returning t.uuid, t.environment_uuid, t.scopes;
  if not found then
    return query
      select t.uuid, t.environment_uuid, t.scopes
        from app_public.api_tokens t
        join app_private.api_token_secrets s on s.api_token_uuid = t.uuid
       where s.secret_hash = authenticate_api_token.secret_hash
         and t.revoked_at is null
         and (t.expires_at is null or t.expires_at > now());
  end if;
end;
$$;
comment on function app_private.authenticate_api_token(bytea) is 'The valid (not revoked, not expired) API token with this secret hash, if any.';
grant execute on function app_private.authenticate_api_token(bytea) to app_authenticator;

--! split: 0400-p2000-reference-data.sql
-- P2000 taxonomies (facts: shared/research/reference-data.md). Read by everybody with an API token
-- and by analysts; written only by migrations.
create type app_public.p2000_taxonomy_filter as (
  search text
);
comment on type app_public.p2000_taxonomy_filter is 'Filter of the P2000 taxonomy lists: search matches the name (for regions also the number).';

create type app_public.p2000_discipline_filter as (
  search text
);
comment on type app_public.p2000_discipline_filter is 'Filter of p2000Disciplines: search matches the name or abbreviation.';

create table app_public.p2000_regions (
  uuid uuid primary key,
  number text not null unique check (number ~ '^(0[1-9]|1[0-9]|2[0-5])$'),
  code text not null unique check (code = 'VR' || number),
  name text not null unique,
  slug text not null unique check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  province text not null,
  capcode_prefix text not null check (capcode_prefix ~ '^[0-9]{2}$'),
  aliases text[] not null default '{}',
  created timestamptz not null default now(),
  changed timestamptz not null default now()
);
comment on table app_public.p2000_regions is E'The 25 Dutch safety regions (veiligheidsregio''s).';
comment on column app_public.p2000_regions.number is 'Official number, "01" to "25" (VR01 to VR25); also the prefix of unit call signs such as 17-3151.';
comment on column app_public.p2000_regions.code is 'Official code, VR01 to VR25.';
comment on column app_public.p2000_regions.capcode_prefix is 'The two leading digits of the 7-digit capcodes of this region: the old P2000 block, which several regions share.';
comment on column app_public.p2000_regions.aliases is 'Other spellings seen in capcode lists and feeds.';

create table app_public.p2000_disciplines (
  uuid uuid primary key,
  name text not null unique,
  slug text not null unique,
  abbreviation text not null unique,
  description text not null,
  created timestamptz not null default now(),
  changed timestamptz not null default now()
);
comment on table app_public.p2000_disciplines is 'Services that are paged over P2000: fire brigade, ambulance, police, lifeboats and others.';

create table app_public.p2000_urgencies (
  uuid uuid primary key,
  code text not null unique check (code ~ '^[ABP][0-9]$'),
  name text not null,
  description text not null,
  discipline_uuid uuid not null references app_public.p2000_disciplines,
  level text not null check (level in ('urgent', 'less_urgent', 'not_urgent')),
  is_urgent boolean not null generated always as (level = 'urgent') stored,
  rank smallint not null check (rank between 0 and 3),
  created timestamptz not null default now(),
  changed timestamptz not null default now()
);
comment on table app_public.p2000_urgencies is 'Urgency codes at the start of P2000 texts: A0-A2 and B1-B2 (ambulance), P1-P3 (fire brigade).';
comment on column app_public.p2000_urgencies.level is 'urgent (lights and siren), less_urgent (no signals, within about 30 minutes) or not_urgent (planned).';
comment on column app_public.p2000_urgencies.rank is '0 is the most urgent (A0); codes of equal rank are comparable across disciplines (A1 = P1).';
create index p2000_urgencies_discipline_uuid_idx on app_public.p2000_urgencies (discipline_uuid);
comment on constraint p2000_urgencies_discipline_uuid_fkey on app_public.p2000_urgencies is E'@fieldName discipline\n@foreignFieldName urgencies';

create table app_public.p2000_grip_levels (
  uuid uuid primary key,
  level smallint not null unique check (level between 1 and 5),
  name text not null unique,
  description text not null,
  teams text not null,
  created timestamptz not null default now(),
  changed timestamptz not null default now()
);
comment on table app_public.p2000_grip_levels is 'GRIP 1 to 5: the coordinated regional incident procedure levels.';

create table app_public.p2000_qualifications (
  uuid uuid primary key,
  code text not null unique check (code ~ '^[a-z_]+$'),
  name text not null unique,
  level smallint not null unique check (level between 1 and 4),
  description text not null,
  created timestamptz not null default now(),
  changed timestamptz not null default now()
);
comment on table app_public.p2000_qualifications is E'Incident size qualification (kwalificatie) used when scaling up: klein, middel, groot, zeer groot (e.g. "(BR: middel)", "GROTE BRAND").';

create table app_public.p2000_categories (
  uuid uuid primary key,
  code text not null unique check (code ~ '^[a-z_]+$'),
  name text not null unique,
  description text not null,
  is_call_out boolean not null,
  created timestamptz not null default now(),
  changed timestamptz not null default now()
);
comment on table app_public.p2000_categories is 'What a P2000 message is about; is_call_out tells whether units are sent out (not for tests, information or monitor pages).';

do $$
declare
  t text;
begin
  foreach t in array array['p2000_regions', 'p2000_disciplines', 'p2000_urgencies', 'p2000_grip_levels',
                           'p2000_qualifications', 'p2000_categories'] loop
    execute format('alter table app_public.%I enable row level security', t);
    execute format('create policy select_all on app_public.%I for select to app_visitor, app_analyst using (true)', t);
    execute format('grant select on app_public.%I to app_visitor, app_analyst', t);
    execute format('create trigger _100_set_changed before update on app_public.%I for each row execute function app_hidden.tg__set_changed()', t);
  end loop;
end;
$$;

insert into app_public.p2000_regions (uuid, number, code, name, slug, province, capcode_prefix, aliases)
select app_hidden.reference_uuid('p2000_region', r.number), r.number, 'VR' || r.number, r.name, r.slug, r.province, r.capcode_prefix, r.aliases
from (values
  ('01', 'Groningen', 'groningen', 'Groningen', '04', '{}'::text[]),
  ('02', 'Fryslân', 'fryslan', 'Fryslân', '03', '{Friesland}'),
  ('03', 'Drenthe', 'drenthe', 'Drenthe', '05', '{}'),
  ('04', 'IJsselland', 'ijsselland', 'Overijssel', '06', '{}'),
  ('05', 'Twente', 'twente', 'Overijssel', '06', '{}'),
  ('06', 'Noord- en Oost-Gelderland', 'noord-en-oost-gelderland', 'Gelderland', '08', '{Noord-Oost Gelderland,Noord en Oost Gelderland,NOG}'),
  ('07', 'Gelderland-Midden', 'gelderland-midden', 'Gelderland', '09', '{Gelderland Midden}'),
  ('08', 'Gelderland-Zuid', 'gelderland-zuid', 'Gelderland', '09', '{Gelderland Zuid}'),
  ('09', 'Utrecht', 'utrecht', 'Utrecht', '07', '{}'),
  ('10', 'Noord-Holland Noord', 'noord-holland-noord', 'Noord-Holland', '02', '{Noord Holland Noord}'),
  ('11', 'Zaanstreek-Waterland', 'zaanstreek-waterland', 'Noord-Holland', '01', '{Zaanstreek Waterland}'),
  ('12', 'Kennemerland', 'kennemerland', 'Noord-Holland', '01', '{}'),
  ('13', 'Amsterdam-Amstelland', 'amsterdam-amstelland', 'Noord-Holland', '01', '{Amsterdam Amstelland}'),
  ('14', 'Gooi en Vechtstreek', 'gooi-en-vechtstreek', 'Noord-Holland', '07', '{Gooi- en Vechtstreek}'),
  ('15', 'Haaglanden', 'haaglanden', 'Zuid-Holland', '15', '{}'),
  ('16', 'Hollands Midden', 'hollands-midden', 'Zuid-Holland', '15', '{Hollands-Midden}'),
  ('17', 'Rotterdam-Rijnmond', 'rotterdam-rijnmond', 'Zuid-Holland', '14', '{Rotterdam Rijnmond}'),
  ('18', 'Zuid-Holland Zuid', 'zuid-holland-zuid', 'Zuid-Holland', '14', '{Zuid Holland Zuid}'),
  ('19', 'Zeeland', 'zeeland', 'Zeeland', '13', '{}'),
  ('20', 'Midden- en West-Brabant', 'midden-en-west-brabant', 'Noord-Brabant', '12', '{Midden en West Brabant}'),
  ('21', 'Brabant-Noord', 'brabant-noord', 'Noord-Brabant', '11', '{Brabant Noord}'),
  ('22', 'Brabant-Zuidoost', 'brabant-zuidoost', 'Noord-Brabant', '11', '{Brabant Zuid-Oost,Brabant Zuidoost}'),
  ('23', 'Limburg-Noord', 'limburg-noord', 'Limburg', '10', '{Limburg Noord}'),
  ('24', 'Zuid-Limburg', 'zuid-limburg', 'Limburg', '10', '{Limburg Zuid}'),
  ('25', 'Flevoland', 'flevoland', 'Flevoland', '07', '{}')
) as r (number, name, slug, province, capcode_prefix, aliases);

insert into app_public.p2000_disciplines (uuid, name, slug, abbreviation, description)
select app_hidden.reference_uuid('p2000_discipline', d.slug), d.name, d.slug, d.abbreviation, d.description
from (values
  ('Brandweer', 'brandweer', 'BRW', 'Fire brigade.'),
  ('Ambulance', 'ambulance', 'AMB', 'Ambulance care, including trauma helicopters (MMT).'),
  ('Politie', 'politie', 'POL', 'Police; most police traffic is on C2000 voice, only some units are paged.'),
  ('KNRM', 'knrm', 'KNRM', 'Royal Netherlands Sea Rescue Institution (lifeboats), with the coastguard.'),
  ('Reddingsbrigade', 'reddingsbrigade', 'RB', 'Lifeguards and water rescue teams.'),
  ('Gemeente', 'gemeente', 'GEM', 'Municipal crisis staff and officials.'),
  ('DARES', 'dares', 'DARES', 'Dutch Amateur Radio Emergency Service.')
) as d (name, slug, abbreviation, description);

insert into app_public.p2000_urgencies (uuid, code, name, description, discipline_uuid, level, rank)
select app_hidden.reference_uuid('p2000_urgency', u.code), u.code, u.name, u.description,
       app_hidden.reference_uuid('p2000_discipline', u.discipline), u.level, u.rank
from (values
  ('A0', 'Directe inzet', 'Ambulance with the greatest possible speed (resuscitation, respiratory arrest), lights and siren; in use since 2024.', 'ambulance', 'urgent', 0),
  ('A1', 'Spoed', 'Ambulance, life-threatening: lights and siren, on scene within 15 minutes.', 'ambulance', 'urgent', 1),
  ('A2', 'Minder spoed', 'Ambulance, urgent but not life-threatening: no signals, on scene within 30 minutes.', 'ambulance', 'less_urgent', 2),
  ('B1', 'Besteld vervoer (hoog complex)', 'Planned ambulance transport with complex care.', 'ambulance', 'not_urgent', 3),
  ('B2', 'Besteld vervoer', 'Planned ambulance transport with medium or low complexity.', 'ambulance', 'not_urgent', 3),
  ('P1', 'Prio 1', 'Fire brigade with lights and siren.', 'brandweer', 'urgent', 1),
  ('P2', 'Prio 2', 'Fire brigade with due speed, without signals.', 'brandweer', 'less_urgent', 2),
  ('P3', 'Prio 3', 'Fire brigade, no urgency.', 'brandweer', 'not_urgent', 3)
) as u (code, name, description, discipline, level, rank);

insert into app_public.p2000_grip_levels (uuid, level, name, description, teams)
select app_hidden.reference_uuid('p2000_grip_level', g.level::text), g.level, 'GRIP ' || g.level, g.description, g.teams
from (values
  (1, 'Source control of an incident of limited size at the scene.', 'CoPI (Commando Plaats Incident)'),
  (2, 'Source and effect control: the incident affects its surroundings.', 'CoPI, ROT (Regionaal Operationeel Team)'),
  (3, 'The wellbeing of large groups of people in one municipality is threatened.', 'CoPI, ROT, GBT (Gemeentelijk Beleidsteam, mayor)'),
  (4, 'The incident crosses municipal borders or threatens to grow.', 'CoPI, ROT, RBT (Regionaal Beleidsteam, chair of the safety region)'),
  (5, 'GRIP 4 involving several safety regions.', 'CoPI, ROT, RBT of each region involved')
) as g (level, description, teams);

insert into app_public.p2000_qualifications (uuid, code, name, level, description)
select app_hidden.reference_uuid('p2000_qualification', q.code), q.code, q.name, q.level, q.description
from (values
  ('klein', 'Klein', 1, 'Small incident (kleine brand, kleine hulpverlening): one unit.'),
  ('middel', 'Middel', 2, 'Medium incident (middelbrand, "BR: middel"): about two to four units.'),
  ('groot', 'Groot', 3, 'Large incident (grote brand): a company-sized deployment.'),
  ('zeer_groot', 'Zeer groot', 4, 'Very large incident (zeer grote brand): several companies.')
) as q (code, name, level, description);

insert into app_public.p2000_categories (uuid, code, name, description, is_call_out)
select app_hidden.reference_uuid('p2000_category', c.code), c.code, c.name, c.description, c.is_call_out
from (values
  ('brand', 'Brand', 'Fire: buildings, vehicles, outdoor and chimney fires.', true),
  ('automatisch_alarm', 'Automatisch brandalarm', 'Automatic fire alarm (OMS) that calls units out.', true),
  ('hulpverlening', 'Hulpverlening', 'Technical rescue and assistance: trapped people, animals, storm damage, lifts.', true),
  ('ongeval', 'Ongeval', 'Traffic and other accidents.', true),
  ('waterongeval', 'Waterongeval', 'Incidents on or in water.', true),
  ('gevaarlijke_stoffen', 'Gevaarlijke stoffen', 'Hazardous materials: gas leaks, chemical releases.', true),
  ('medisch', 'Medisch', 'Ambulance call-outs for medical emergencies.', true),
  ('besteld_vervoer', 'Besteld vervoer', 'Planned ambulance transport.', true),
  ('dienstverlening', 'Dienstverlening', 'Service calls and standby relocations (VWS, post occupation).', true),
  ('informatie', 'Informatie', 'Information for units without a call-out, e.g. a request to contact the control room.', false),
  ('test', 'Test of proefalarm', 'Test pages and weekly test alarms.', false),
  ('monitor', 'Monitorbericht', 'Monitor and status pages of the control room.', false)
) as c (code, name, description, is_call_out);

--! split: 0500-p2000-reference-reads.sql
create function app_public.p2000_regions(
  first integer default null,
  page integer default null,
  filter app_public.p2000_taxonomy_filter default null
) returns setof app_public.p2000_regions
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select r.*
    from app_public.p2000_regions r
   where app_hidden.search_pattern(filter.search) is null
      or r.name ilike app_hidden.search_pattern(filter.search)
      or r.number ilike app_hidden.search_pattern(filter.search)
      or r.code ilike app_hidden.search_pattern(filter.search)
      or exists (select 1 from unnest(r.aliases) a where a ilike app_hidden.search_pattern(filter.search))
   order by r.number
   limit app_hidden.page_limit(first) offset app_hidden.page_offset(first, page)
$$;
comment on function app_public.p2000_regions(integer, integer, app_public.p2000_taxonomy_filter) is 'The 25 safety regions, by number; filter.search matches name, number, code and other spellings.';

-- slug, name, number ("17", "7", "VR07") or uuid; names and aliases ignore case.
create function app_public.p2000_region(slug text) returns app_public.p2000_regions
  language sql stable strict parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  with wanted as (select lower(btrim(slug)) as key)
  select r.*
    from app_public.p2000_regions r, wanted w
   where r.slug = w.key
      or lower(r.name) = w.key
      or exists (select 1 from unnest(r.aliases) a where lower(a) = w.key)
      or (w.key ~ '^(vr)?[0-9]{1,2}$' and r.number = lpad(regexp_replace(w.key, '^vr', ''), 2, '0'))
      or r.uuid = app_hidden.try_uuid(w.key)
   limit 1
$$;
comment on function app_public.p2000_region(text) is 'One safety region by slug, name, number or uuid.';

create function app_public.p2000_urgencies(
  first integer default null,
  page integer default null,
  filter app_public.p2000_taxonomy_filter default null
) returns setof app_public.p2000_urgencies
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select u.*
    from app_public.p2000_urgencies u
   where app_hidden.search_pattern(filter.search) is null
      or u.name ilike app_hidden.search_pattern(filter.search)
      or u.code ilike app_hidden.search_pattern(filter.search)
   order by u.rank, u.code
   limit app_hidden.page_limit(first) offset app_hidden.page_offset(first, page)
$$;
comment on function app_public.p2000_urgencies(integer, integer, app_public.p2000_taxonomy_filter) is 'Urgency codes, most urgent first; filter.search matches name and code.';

create function app_public.p2000_grip_levels(
  first integer default null,
  page integer default null,
  filter app_public.p2000_taxonomy_filter default null
) returns setof app_public.p2000_grip_levels
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select g.*
    from app_public.p2000_grip_levels g
   where app_hidden.search_pattern(filter.search) is null
      or g.name ilike app_hidden.search_pattern(filter.search)
   order by g.level
   limit app_hidden.page_limit(first) offset app_hidden.page_offset(first, page)
$$;
comment on function app_public.p2000_grip_levels(integer, integer, app_public.p2000_taxonomy_filter) is 'GRIP 1 to 5; filter.search matches the name.';

create function app_public.p2000_qualifications(
  first integer default null,
  page integer default null,
  filter app_public.p2000_taxonomy_filter default null
) returns setof app_public.p2000_qualifications
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select q.*
    from app_public.p2000_qualifications q
   where app_hidden.search_pattern(filter.search) is null
      or q.name ilike app_hidden.search_pattern(filter.search)
   order by q.level
   limit app_hidden.page_limit(first) offset app_hidden.page_offset(first, page)
$$;
comment on function app_public.p2000_qualifications(integer, integer, app_public.p2000_taxonomy_filter) is 'Incident size qualifications, smallest first; filter.search matches the name.';

create function app_public.p2000_disciplines(
  first integer default null,
  page integer default null,
  filter app_public.p2000_discipline_filter default null
) returns setof app_public.p2000_disciplines
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select d.*
    from app_public.p2000_disciplines d
   where app_hidden.search_pattern(filter.search) is null
      or d.name ilike app_hidden.search_pattern(filter.search)
      or d.abbreviation ilike app_hidden.search_pattern(filter.search)
   order by d.name
   limit app_hidden.page_limit(first) offset app_hidden.page_offset(first, page)
$$;
comment on function app_public.p2000_disciplines(integer, integer, app_public.p2000_discipline_filter) is 'Disciplines by name; filter.search matches name and abbreviation.';

create function app_public.p2000_discipline(uuid text) returns app_public.p2000_disciplines
  language sql stable strict parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select d.* from app_public.p2000_disciplines d where d.uuid = app_hidden.try_uuid(p2000_discipline.uuid)
$$;
comment on function app_public.p2000_discipline(text) is 'One discipline by uuid; null when there is none.';

create function app_public.p2000_categories() returns setof app_public.p2000_categories
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select c.* from app_public.p2000_categories c order by c.name
$$;
comment on function app_public.p2000_categories() is E'@notNull\nAll message categories, by name, each saying whether it counts as a call-out.';

--! split: 0600-maintenance.sql
create function app_private.purge_stale_api_tokens(retention interval) returns integer
  language sql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
  with purged as (
    delete from app_public.api_tokens t
     where coalesce(t.revoked_at, t.expires_at) < now() - retention
    returning 1
  )
  select count(*)::integer from purged
$$;
comment on function app_private.purge_stale_api_tokens(interval) is 'Deletes API tokens revoked or expired longer ago than the retention; returns how many.';
