--! Previous: sha1:4e721bc2adfe0bae7dfca9a6efef4a707fef3d92
--! Hash: sha1:689b7432d75990387651279a152c21815558d8ba
--! Message: Account queries marked @userToken next to their functions

--! split: 1-current.sql
-- The account queries of spec §4.1 take the user's access token, not an API token: the
-- @userToken smart tag marks them next to their functions, where plugins/require-api-token.ts
-- reads the rule (every other Query field needs an API token: deny by default).
comment on function app_public.api_scopes() is '@userToken
@notNull
Every scope an API token can hold, with what it allows.';
comment on function app_public.api_token(text) is '@userToken
One API token of the current environment; null when there is none.';
comment on function app_public.api_tokens() is '@userToken
API tokens of the current environment (revoked ones are gone), newest first.';
comment on function app_public.channels() is '@userToken
Notification channels of the current environment.';
comment on function app_public.current_environment() is '@userToken
The environment bound to the session.';
comment on function app_public.me() is '@userToken
The user of the Bearer access token; null without a valid one.';
comment on function app_public.monitor(text) is '@userToken
One monitor of the current environment; null when there is none.';
comment on function app_public.monitors() is '@userToken
Monitors of the current environment.';
comment on function app_public.my_organizations() is '@userToken
Organizations the current user belongs to, by name.';
comment on function app_public.my_sessions() is '@userToken
Live sessions of the current user, most recently active first.';
comment on function app_public.session_valid() is '@userToken
@notNull
True while the Bearer access token belongs to a live session.';
