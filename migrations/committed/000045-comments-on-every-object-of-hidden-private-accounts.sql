--! Previous: sha1:71e43e30fa4df1b2bedf48123b183d19a7783c5f
--! Hash: sha1:4e721bc2adfe0bae7dfca9a6efef4a707fef3d92
--! Message: Comments on every object of app_hidden, app_private and app_accounts

--! split: 2-comments-accounts-private.sql
-- Issue 26: every function and table of app_accounts and app_private says what it is for and why
-- it is built that way, so that sql/schema.sql (which now dumps app_accounts too) and psql's \df+
-- answer without a search through old migrations. The reasons come from the `--` lines above each
-- object's newest definition in migrations/committed/ and from its callers in lib/, plugins/ and
-- tasks/. Neither schema is exposed to GraphQL, so these are plain comments without smart tags.
-- Objects that already had a comment keep it. COMMENT ON replaces a comment, so this file can run
-- again. Long comments are adjacent string literals, which SQL joins into one.

--------------------------------------------------------------------------------------------------
-- app_accounts: the account, channel and monitor mutations that need only SQL. Each is
-- exposed by a plugin with the spec's exact signature and runs as the request's visitor.

comment on function app_accounts.create_organization(text) is
  'createOrganization (plugins/account-mutations.ts): creates an organization owned by the calling user and returns '
  'its uuid. SECURITY DEFINER because the visitor may write no table; it checks the caller before anything else, so '
  'an anonymous call answers UNAUTHENTICATED.';

comment on function app_accounts.update_organization(text, text) is
  'updateOrganization: renames an organization the calling user belongs to. Any other organization, or a malformed '
  'uuid (app_hidden.try_uuid), answers NOT_FOUND, so the call reveals no organization the caller cannot see.';

comment on function app_accounts.create_environment(text, text) is
  'createEnvironment: adds an environment to one of the calling user''s organizations. SECURITY DEFINER because the '
  'visitor may write no table; the caller is checked first and an organization not theirs answers NOT_FOUND.';

comment on function app_accounts.delete_session(text) is
  'deleteSession: revokes one session of the calling user, so its tokens stop working at once. The caller is checked '
  'before the update (migration 000004): inside the WHERE clause the check went unevaluated when no row matched, and '
  'an anonymous call answered NOT_FOUND instead of UNAUTHENTICATED.';

comment on function app_accounts.delete_other_sessions() is
  'deleteOtherSessions: revokes every session of the calling user but the current one and returns how many. '
  'Sessions are revoked rather than deleted, so their tokens fail at once and the rows stay for 30 days '
  '(app_private.purge_expired_auth_data).';

comment on function app_accounts.logout() is
  'logout: revokes the session of the access token; app_hidden.current_user_uuid reads the session row on every '
  'request, so this takes effect at once. The caller is checked first (migration 000004), so an anonymous call '
  'answers UNAUTHENTICATED instead of succeeding.';

comment on function app_accounts.set_current_environment(text) is
  'setCurrentEnvironment, and the first step of switchEnvironment: binds one of the calling user''s environments to '
  'the current session, where the environment-scoped mutations (API tokens, channels, monitors) then act. An '
  'environment the caller cannot see answers NOT_FOUND.';

comment on function app_accounts.require_current_environment() is
  'The session''s current environment, if the calling user is a member of its organization: UNAUTHENTICATED without '
  'a user, CONFLICT when the session has none. Every environment-scoped mutation starts with it, so all share one '
  'check and one error; createChannel calls it alone first, so anonymous callers cause no DNS lookup of a webhook.';

comment on function app_accounts.create_api_token(text, text[], integer, bytea, text) is
  'createApiToken''s SQL step (lib/accounts/flows.ts, after Node made the random secret): stores the token in the '
  'current environment through app_private.create_api_token, which keeps only the SHA-256 of the secret and checks '
  'name, scopes and validity. A wrapper because that function also serves the token CLI (bin/token.ts), which '
  'names the environment itself; here it is the caller''s current one.';

comment on function app_accounts.update_api_token(text, text, text[]) is
  'updateApiToken: renames a token of the current environment and/or replaces its scopes (each must be in '
  'app_public.api_scopes). A revoked token, or one of another environment, answers NOT_FOUND.';

comment on function app_accounts.delete_api_token(text) is
  'deleteApiToken: revokes a token of the current environment at once; the row stays, listed as revoked, until '
  'app_private.purge_stale_api_tokens. Since migration 000029 the caller and environment are checked before the '
  'update, so an anonymous call answers UNAUTHENTICATED rather than NOT_FOUND.';

comment on function app_accounts.create_channel(text, text, text, text, text, jsonb, text, text) is
  'createChannel (plugins/monitor-mutations.ts): checks and stores a notification channel (email, sms, webhook or '
  'telegram) of the current environment, at most 100 per environment; webhook headers may not override Host, '
  'Content-*, the Webhook-* signature headers or hop-by-hop ones. Node first checks the webhook target (DNS) and '
  'makes the signing secret, which goes to app_private.channel_secrets, out of reach of the visitor and the analyst.';

comment on function app_accounts.delete_channel(text) is
  'deleteChannel: deletes a channel of the current environment; its monitor links, notifications and signing secret '
  'go with it (on delete cascade). A channel of any other environment answers NOT_FOUND.';

comment on function app_accounts.save_monitor(text, boolean, text, text, boolean, text, text, double precision,
                                              double precision, text, text, double precision, text, text) is
  'createMonitor (monitor_uuid null; at most 1000 per environment) and updateMonitor (the row locked): checks the '
  'input with app_hidden.checked_monitor, writes the monitor and replaces its channels, and returns its uuid. The '
  'checks are a function of their own (migration 000036) so that monitorPreview accepts and refuses exactly what '
  'createMonitor does; arguments left null keep their value, and location_given tells clearing from not given.';

comment on function app_accounts.delete_monitor(text) is
  'deleteMonitor: deletes a monitor of the current environment with its criteria, matches and notifications '
  '(on delete cascade). A monitor of any other environment answers NOT_FOUND.';

comment on function app_accounts.create_p2000_message(text, text, text[]) is
  'createP2000Message (plugins/p2000-mutations.ts): administrators only, since what they add becomes public data. '
  'Checks the text, the ISO-8601 time (UTC when it has no zone, like receivers'' timestamps) and the capcodes, then '
  'stores the message through app_private.ingest_p2000_message, the path every ingestion takes.';

comment on function app_accounts.respond_on_the_way(text, text) is
  'respondOnTheWay: the signed respond link of a P2000 notification (app_private.responder_token) is the credential, '
  'so no login is needed; records or changes that recipient''s status (going or cancelled) for the incident. A '
  'malformed, tampered or expired link answers UNAUTHENTICATED, as every invalid credential token does (migration '
  '000029).';

--------------------------------------------------------------------------------------------------
-- app_private, accounts: called by the server on the owner pool (lib/accounts/flows.ts), never by
-- the visitor, each in a transaction of its own, so counters and lockouts survive a request that
-- fails afterwards. authenticate_session is the authenticator's.

comment on function app_private.hit_rate_limit(text, integer, interval) is
  'Fixed-window rate limit of the account flows (register, login, magic link, password reset): counts a hit in the '
  'bucket''s current window and raises RATE_LIMITED past max_hits. It runs in a transaction of its own on the owner '
  'pool, so the hit counts even when the request fails afterwards.';

comment on function app_private.queue_email(text, text, text) is
  'Stores an outgoing e-mail in app_private.emails and queues its emails__send job in the same transaction, so a '
  'mail goes out exactly when what asked for it commits (up to 10 attempts).';

comment on function app_private.register_user(text, text, text, text, text, uuid) is
  'register''s SQL step: creates the user (its argon2 hash, if any, in user_secrets), an organization it owns and an '
  'environment, and records the request''s identity (app_private.request_identities) so the same answer can show '
  'them. It refuses a malformed address and one that already has an account.';

comment on function app_private.login_candidate(text) is
  'What login needs to verify a password in Node (argon2): the user, its password hash and the address''s lock, '
  'each null when absent. Locks are kept per address, known or not (migration 000029), so an unknown address '
  'answers exactly as a known one does.';

comment on function app_private.login_failed(text) is
  'Counts a failed login for an e-mail address, with or without an account, and locks it for 15 minutes after five '
  'failures within 15 minutes. Per address (migration 000029) so that a lock says nothing about who has an account; '
  'a new session or a password reset clears it.';

comment on function app_private.create_session(uuid, bytea, text, text, uuid, interval) is
  'A new session with its first refresh token (its SHA-256 only), in the user''s first environment, for login and '
  'magic-link login. It records the session under the request''s uuid (app_private.request_identities) so that the '
  'same request can show the user; a trigger on sessions clears the address''s login failures.';

comment on function app_private.rotate_refresh_token(bytea, bytea, interval) is
  'refreshToken: spends the presented refresh token, extends the session and stores the next token. A spent token '
  'presented again means it was stolen (or raced), so the whole session ends; the outcome is returned, not raised, '
  'so that ending the session is committed although the request fails.';

comment on function app_private.reissue_refresh_token(uuid, bytea) is
  'switchEnvironment''s last step: spends every unused refresh token of the session and stores the new one, so that '
  'only the pair issued with the switch stays usable.';

comment on function app_private.authenticate_session(uuid) is
  'The user and environment of a live (not revoked, not expired) session, called by the authenticator for every '
  'request with a user access token (lib/auth/context.ts). SECURITY DEFINER because that role may read no table; '
  'last_activity_at is written at most once a minute, to spare a write per request.';

comment on function app_private.consume_user_token(bytea, text) is
  'Spends a one-time e-mailed token (magic link, e-mail verification, password reset), given by its SHA-256, and '
  'returns its user and return address; invalid, expired or used answers UNAUTHENTICATED. Following any e-mailed '
  'link proves the address, so it also marks the address verified.';

comment on function app_private.reset_password(bytea, text) is
  'resetPassword''s step: spends the reset token, stores the new argon2 hash (made in Node), clears the address''s '
  'login failures and spends the user''s other reset links. It ends every session of the user, so whoever knew '
  'the old password is logged out.';

--------------------------------------------------------------------------------------------------
-- app_private, monitors and notifications

comment on table app_private.channel_secrets is
  'The signing secret of each webhook channel. The server needs it in the clear to sign deliveries, so it lives where '
  'neither the visitor nor the analyst can read it, and the API shows it once, at creation.';

comment on table app_private.notifications is
  'One delivery of one matched P2000 message or feed event to one channel of a monitor, with its status. The unique '
  'keys make a repeated match (retried job, merged duplicate, second trigger) a no-op; a feed event carries the '
  'subject its matcher rendered, so delivery needs no code per feed.';

comment on table app_private.notification_attempts is
  'Every attempt to deliver a notification: outcome, response code, error and duration, written by '
  'app_private.record_notification_attempt, so that a failing channel can be diagnosed.';

comment on function app_private.match_p2000_message(uuid) is
  'The matcher of P2000 monitors (task monitors__match_p2000): candidates by the criteria''s anchor keys, each '
  'checked by app_hidden.p2000_criteria_match (which monitorPreview uses too); records the matches and queues one '
  'delivery per monitor and channel in one set-based transaction. A second run queues nothing; monitors with '
  'throttles are locked one matcher at a time, so their counts see each other''s matches.';

comment on function app_private.notify_feed_event(text, uuid, uuid[], app_hidden.notification_subject) is
  'What every other feed''s matcher does once it knows which monitors an event matches: records the matches, applies '
  'quietHours and maxPerPeriod (minUrgency and maxPerDossier are P2000''s), and queues one delivery per monitor and '
  'channel with the rendered subject, in the caller''s transaction. An event matched before adds nothing, so a '
  'retried job is harmless; returns how many deliveries it queued.';

comment on function app_private.queue_deliveries(uuid[]) is
  'One notifications__deliver job per notification, keyed by it, so a notification is queued once however often its '
  'matcher runs. PL/pgSQL because graphile-worker''s schema is installed after the migrations on a new database, and '
  'a SQL function''s body would be checked against it at once.';

comment on function app_private.match_meteo_event(uuid) is
  'The matcher of weather monitors (task monitors__match_meteo): a warning event matches the monitors of its province '
  '(or of every province) whose levels include the new one. Only news notifies (a level that changed or a phenomenon '
  'added): warnings that end notify nobody.';

comment on function app_private.match_traffic_event(uuid) is
  'The matcher of accident monitors (task monitors__match_traffic): an incident event matches the monitors whose '
  'types, roads and circle the incident passes, judged by the type the event was about, not what the incident became '
  'since. The rest is app_private.notify_feed_event, so a second run queues nothing.';

comment on function app_private.match_traffic_jam(uuid) is
  'The matcher of matrix monitors (task monitors__match_feed): an open jam matches the monitors of its road whose '
  'minimum delay it reaches. notify_feed_event records the match by the jam, so a monitor hears of a jam once, when '
  'its delay first reaches the minimum.';

comment on function app_private.match_rail_disruption(uuid) is
  'The matcher of rail_disruptions monitors (task monitors__match_feed): an active disruption matches a monitor when '
  'at least two stations of one of its routes are among the disruption''s (a stretch of the route), or its only '
  'station is; a calamity, usually without stations, reaches every monitor, as anything reaches a monitor without '
  'routes.';

comment on function app_private.match_rss_item(uuid) is
  'The matcher of RSS monitors (task monitors__match_feed): an item matches the monitors that follow its feed, whose '
  'keywords (any, case-insensitive, in title or summary) it holds, or that have none. Only monitors that existed '
  'when the item was first seen count, as older items are not news to them.';

comment on function app_private.match_aircraft_event(uuid) is
  'The matcher of aircraft monitors (task monitors__match_feed): a take-off or landing matches the active monitors it '
  'passes by app_hidden.aircraft_event_passes, the one definition that aircraftEventsForMonitor uses too. The rest is '
  'app_private.notify_feed_event, so a second run queues nothing.';

comment on function app_private.notification_for_delivery(uuid) is
  'What the task notifications__deliver needs to send one notification: channel and signing secret, monitor, and '
  'subject (a P2000 message''s columns with its respond link, or the headline, facts and payload a feed''s matcher '
  'rendered). No row once it is no longer queued, so a repeated job never sends twice.';

comment on function app_private.record_notification_attempt(uuid, boolean, integer, text, integer, boolean) is
  'Records one delivery attempt and counts it on the notification: delivered on success, failed on the final failed '
  'attempt (the last retry or a permanent error); in between graphile-worker retries and it stays queued.';

comment on function app_private.responder_token(uuid) is
  'The respond link token of a P2000 notification: base64url(payload).base64url(HMAC-SHA256), the payload binding '
  'the notification, its monitor, its incident (dossier, else message), its channel and an expiry 24 hours after '
  'it. Signed with the responder key rather than stored, so app_accounts.respond_on_the_way can check it with no '
  'login and no table of tokens.';

--------------------------------------------------------------------------------------------------
-- app_private, feed ingestion: each stores one parsed document in one transaction, one at a time
-- per feed (the poller, the CLI and the demo loader may meet), and returns what it did as JSON.

comment on function app_private.ingest_meteo_warnings(jsonb, bytea, text) is
  'Stores one KNMI warnings document ([{location, phenomenon, start, status, text}]): each hour holds the latest '
  'document that covers it, so an older one (a backfill) only fills the hours before the next newer one. The newest '
  'also records an event for each province whose level or phenomena changed; a document stored before (same '
  'SHA-256) changes nothing.';

comment on function app_private.ingest_meteo_observations(jsonb, bytea, text) is
  'Stores one KNMI observations document (rows keyed as the table''s columns): stations upserted, observations '
  'inserted, or updated only when a value changed. A document stored before (same SHA-256) changes nothing.';

comment on function app_private.ingest_traffic_incidents(jsonb, timestamp with time zone, text) is
  'Stores one DATEX II incidents publication: a record is inserted, or updated when its version is newer, and takes '
  'its road from the nearest hectometre post within 2 km when it names none. Only the newest publication, the feed''s '
  'whole file, closes the incidents it no longer holds and reopens those back in it, so a late older one cannot.';

comment on function app_private.ingest_traffic_jams(jsonb, timestamp with time zone, text) is
  'Stores one traffic jams publication as app_private.ingest_traffic_incidents stores incidents: newer versions win, '
  'the nearest hectometre post gives a missing road, and only the newest publication closes the jams it no longer '
  'holds and reopens those back in it (migration 000018).';

comment on function app_private.ingest_amber_alerts(jsonb, text, boolean, text[]) is
  'Stores one AMBER Alert document: an Alert starts or updates its alert, a Cancel ends it, and a complete document '
  '(the feed''s whole list) ends the alerts it no longer holds, except those in still_running (there but unreadable). '
  'Ending erases the personal details in the same statement; an alert without Sent keeps the start first stored.';

comment on function app_private.ingest_nl_alerts(jsonb, text) is
  'Stores one page of the NL-Alert list: alerts inserted, or updated when they changed, and their safety regions '
  'recomputed. Alerts are never ended for being absent, since a document is one page of the list; a withdrawn alert '
  'gets its stop time.';

comment on function app_private.ingest_rail_disruptions(jsonb, text) is
  'Stores the railway disruption source''s whole list: items inserted, or updated when they changed, and an active '
  'item the list no longer holds becomes inactive.';

comment on function app_private.ingest_rss_items(uuid, text, jsonb) is
  'Stores one fetched document of a followed RSS feed: new items are inserted, and a known item is never rewritten. '
  'The items of a feed''s first successful fetch are its baseline, not news: for them it sets app.rss_notify, which '
  'the trigger that queues matching reads, to false.';

comment on function app_private.ingest_aircraft_positions(jsonb, text) is
  'Stores the tracked fleet''s positions of one aircraft.json document, per aircraft in time order, skipping any '
  'older than the last stored so a replay changes nothing. A state machine (thresholds in migration 000020) turns '
  'them into take-offs, landings and routes with compact route points; a flight lost for 10 minutes ends where it '
  'was last seen.';

--------------------------------------------------------------------------------------------------
-- app_private, reference data: the files in data/ loaded on every start (written only where they
-- changed, so an unchanged file writes and triggers nothing), and the importers' steps (bin/).

comment on function app_private.load_nl_province_boundaries(jsonb, text) is
  'Loads the twelve province boundaries (data/nl-provinces.geojson) on start, skipped when the file''s SHA-256 is the '
  'one loaded (app_hidden.geo_data_versions). Raises unless the file holds all 12, so a wrong file changes nothing.';

comment on function app_private.load_safety_region_areas(jsonb, text) is
  'Loads the areas of the 25 safety regions (data/safety-regions.geojson) on start, skipped when the file''s SHA-256 '
  'is the one loaded, and recomputes every NL-Alert''s regions, which come from these areas. Raises unless the file '
  'holds all 25.';

comment on function app_private.upsert_highways(jsonb) is
  'Loads the motorway list of traffic monitors (data/highways.csv) on start, in file order; a row is rewritten only '
  'when it changed. Returns how many changed.';

comment on function app_private.upsert_rail_routes(jsonb) is
  'Loads the railway routes of rail_disruptions monitors (data/rail-routes.csv, stations in order along the line) on '
  'start; a route is rewritten only when it changed. Returns how many changed.';

comment on function app_private.upsert_aircraft_fleet(jsonb) is
  'Loads the tracked fleet (data/aircraft-fleet.csv) on start, by ICAO address; an aircraft is rewritten only when it '
  'changed. Only this fleet''s positions are stored (app_private.ingest_aircraft_positions).';

comment on function app_private.upsert_aircraft_content(jsonb) is
  'Loads the pages about the fleet (data/aircraft-content.json) on start, in file order; a page is rewritten only '
  'when it changed (migration 000025). Returns how many changed.';

comment on function app_private.upsert_fire_station(text, text, text, text, text, text, text, text, double precision,
                                                    double precision) is
  'Importer step (bin/import-fire-brigade.ts): inserts or updates one fire station by its slug, its region given by '
  'number or slug. Stations are imported before vehicles, so that vehicles find theirs.';

comment on function app_private.upsert_fire_vehicle(text, text, text, text) is
  'Importer step (bin/import-fire-brigade.ts): inserts or updates one vehicle by its call number (RR-PPTV), its '
  'station by slug, else by the region and post in the call number. It marks the vehicle imported, unlike those '
  'learnt from P2000 messages.';

comment on function app_private.upsert_hectometer_markers(jsonb) is
  'Importer step (bin/import-hectometers.ts): a batch of hectometre posts, inserted or updated by their source id, '
  'their roads created first.';

comment on function app_private.recount_road_markers() is
  'Brings each road''s marker_count up to date once after a hectometre import, rather than per batch; only roads '
  'whose count changed are written.';

comment on function app_private.upsert_postcodes(jsonb) is
  'Importer step (bin/import-postcodes.ts): a batch of postcodes with their centres, inserted or updated by postcode.';

comment on function app_private.refresh_analytics_cache() is
  'Task analytics__refresh_cache (hourly): computes every hubAnalytics answer (hourly, urgency, weekdays; windows of '
  '7 to 90 days) into app_hidden.analytics_cache, so requests read one row. The windows are whole days up to '
  'yesterday, so an answer holds for the day; the hourly run also catches late or imported history.';

--! split: 3-comments-hidden.sql
-- Issue 26: every table, composite type and function of app_hidden says what it is for and why it
-- is built that way. The reasons come from the `--` lines of the committed migrations that
-- defined them (the newest definition of each) and from their callers. app_hidden is not exposed
-- to GraphQL, so these are plain comments without smart tags. COMMENT ON replaces the previous
-- comment, so this file can run again.

--------------------------------------------------------------------------------------------------
-- Composite types

comment on type app_hidden.notification_subject is
  'What a notification of a feed event says: headline, fact lines, the webhook event type and its JSON payload. Each feed''s *_notification_subject function renders one for app_private.notify_feed_event, so every feed goes through the same delivery path.';

comment on type app_hidden.p2000_enrichment is
  'What app_hidden.p2000_enrich derives from a message text and its capcodes: urgency, discipline, region, category, address, place, road and hectometre, GRIP, exercise type, incident number, grouping text and call numbers. The insert trigger and app_private.p2000_enrich_messages both use this type, so an importer can enrich a batch in advance (lib/p2000/batch-store.ts) and the trigger accepts its result.';

--------------------------------------------------------------------------------------------------
-- Tables

comment on table app_hidden.feed_monitor_matches is
  'The events that matched a monitor, for every feed except P2000 (weather, traffic incidents, jams, rail, RSS, aircraft) in one table, with the reason when a rule held the notification back (null when it went out). A monitor hears of an event once (the primary key), and maxPerPeriod counts these rows. Events are never deleted, so there is no foreign key per feed.';

comment on table app_hidden.feed_status is
  'The state of every polled feed (lib/feeds/feed-status.ts): whether the last poll worked and why not, ETag and Last-Modified for conditional requests, and the last success and failure. All workers share it, so a failure is logged once per change of state. The metrics endpoint reads last_success_at, and the RSS ingest reads it to treat a feed''s first fetch as its baseline, not as news.';

comment on table app_hidden.geo_data_versions is
  'Which version (SHA-256) of each boundary file (provinces, safety-region areas) is loaded, so that a start with an unchanged file loads nothing.';

comment on table app_hidden.matrix_monitor_criteria is
  'Active matrix (traffic jam) monitors in matchable form: their roads normalised (A12) and their minimum delay. A trigger on monitors keeps it (app_hidden.matrix_criteria_of), so matching a jam reads this small table and does not parse every monitor''s query.';

comment on table app_hidden.meteo_daily_levels is
  'The highest warning level per province and Europe/Amsterdam day (only days with a warning), written by the warnings ingest. The statistics read a year of this table instead of the hourly history.';

comment on table app_hidden.meteo_day_snapshots is
  'meteoSnapshot''s answer for each past day (its end-of-day state). A past day does not change until a document covers hours near it, so the ingest that stores such a document recomputes the days around it (app_hidden.meteo_refresh_day_snapshots). A read computes only the days that no document came near.';

comment on table app_hidden.meteo_documents is
  'Every stored weather document (warnings or observations) by content hash, with the hours it covers and its record counts. The same file stored twice is recognised and changes nothing. Analysts may read it; visitors may not, and meteo_has_data answers for them.';

comment on table app_hidden.meteo_monitor_criteria is
  'Active meteo_weather monitors in matchable form: the provinces (uuids) and warning levels (status codes) named in their query, where an empty list means every one. A trigger on monitors keeps it, so app_private.match_meteo_event looks monitors up here and does not parse every monitor''s query.';

comment on table app_hidden.meteo_region_states is
  'Each province''s warnings after the newest document: level, phenomena, period and the document they came from. The next document is compared with this row to tell whether a province''s level or phenomena changed, and only such a change makes a warning event.';

comment on table app_hidden.monitor_channels is
  'Which channels each monitor notifies: the monitor''s channels list as rows with foreign keys, so that deleting a channel or a monitor removes the link. Visitors see the links of the monitors they can see. Both matchers read it to queue one delivery per channel.';

comment on table app_hidden.monitor_matches is
  'P2000 messages that matched a monitor, whether or not its rules let a notification through (suppressed_reason says why not). It is the source of p2000Messages(filter: { monitor }), of the maxPerDossier and maxPerPeriod throttles and, through its triggers, of monitor_daily_counts. Each row keeps its message''s time and exercise type so that counts need not read the messages.';

comment on table app_hidden.rail_monitor_criteria is
  'Active rail_disruptions monitors in matchable form: the railway routes they follow, in lower case. A trigger on monitors keeps it (app_hidden.rail_criteria_of), and app_private.match_rail_disruption reads it.';

comment on table app_hidden.rss_monitor_criteria is
  'Active rss monitors in matchable form: the feeds they follow (uuids), their keywords in lower case, and since (when the monitor was created: items first seen before then are not news to it). app_hidden.sync_rss_monitor keeps it. The RSS poller fetches only the feeds that a row here follows.';

comment on table app_hidden.traffic_feed_publications is
  'The newest publication time of each traffic feed (incidents, jams), one row per feed. app_hidden.claim_traffic_publication reads and advances it, so that an older file read later updates versions but closes nothing and notifies nobody.';

comment on table app_hidden.traffic_monitor_criteria is
  'Active accident monitors in matchable form (incident types, roads, circle). A trigger on monitors keeps it, using app_hidden.accident_criteria_of. Its row type is also what app_hidden.traffic_incident_passes takes, so live matching and trafficIncidentsForMonitor apply one definition.';

--------------------------------------------------------------------------------------------------
-- Request context: the environment's monitors and feeds

comment on function app_hidden.current_environment_monitor_uuids() is
  'The monitors of the request''s environment, whether the request uses an API token or a member''s session. The policies on monitor_matches, feed_monitor_matches and monitor_daily_counts read it, and so does the monitor filter of p2000Messages (a public read made with an API token). SECURITY DEFINER because API tokens cannot read monitor rows.';

comment on function app_hidden.current_environment_rss_feeds(uuid) is
  'The RSS feeds that the request''s environment follows through its rss monitors (only that monitor''s feeds when monitor_uuid is given). The policies on rss_feeds and rss_feed_items and rssFeedItems read it, because a feed URL is an environment''s own, possibly private, choice. SECURITY DEFINER because API tokens cannot read monitor rows.';

comment on function app_hidden.is_current_environment_rss_monitor(uuid) is
  'Whether the uuid is an rss monitor of the request''s environment, so rssFeedItems(filter: { monitor }) can answer "not found" for any other uuid. SECURITY DEFINER because API tokens cannot read monitor rows.';

comment on function app_hidden.rss_filter_resolved(app_public.rss_feed_item_filter) is
  'An rssFeedItems filter as the list and count statements use it: the feeds to read (the environment''s, narrowed to a monitor''s or to one URL), the text query (Dutch and English websearch) and the lower time bound. It checks the arguments and resolves them once, before the page''s statement, so that statement is a plain query planned with its own values (the sort-order index for common words, the GIN index for rare ones).';

comment on function app_hidden.accident_monitor_criteria(uuid) is
  'The criteria of an accident monitor of the request''s environment, active or not, for trafficIncidentsForMonitor. SECURITY DEFINER because API tokens, which make that public read, cannot read monitor rows.';

comment on function app_hidden.environment_aircraft_monitor(uuid) is
  'An aircraft monitor of the request''s environment, for aircraftEventsForMonitor. SECURITY DEFINER because API tokens, which make that public read, cannot read monitor rows.';

--------------------------------------------------------------------------------------------------
-- Input checks and small conversions

comment on function app_hidden.parse_json_input(text, text) is
  'Parses a JSON string argument of the API (a monitor''s query, channels or notificationRules) into jsonb. Invalid JSON raises a BAD_USER_INPUT error that names the argument, not PostgreSQL''s own error.';

comment on function app_hidden.require_search(text, integer) is
  'The search term of cities, postcodes and locationSuggestions, trimmed and lower-cased. It raises BAD_USER_INPUT when the term is shorter than minimum characters or longer than 100, so every place search states the same limits the same way.';

comment on function app_hidden.analytics_days(integer) is
  'The days argument of the hubAnalytics queries: 28 when null, otherwise 7 to 90, else a BAD_USER_INPUT error.';

comment on function app_hidden.analytics_window(integer) is
  'The hubAnalytics window: the last days whole Europe/Amsterdam days, up to and including yesterday. Answers therefore change once a day and can be cached (app_hidden.analytics_cache).';

comment on function app_hidden.time_window(app_public.unix_time, app_public.unix_time) is
  'The window of a since/until pair of Unix seconds, both ends inclusive: until covers its whole second, and a missing end is infinite. Each query checks it once (since after until is a BAD_USER_INPUT error). Used by nlAlerts and amberAlertHistory.';

comment on function app_hidden.to_unix_time(timestamp with time zone) is
  'A timestamp as whole Unix seconds (app_public.unix_time, the GraphQL scalar Timestamp). STABLE (date_part is) and without a search_path setting (it names pg_catalog itself), so PostgreSQL inlines it into the per-row fields of alert pages.';

comment on function app_hidden.amsterdam_whole_days(timestamp with time zone, timestamp with time zone) is
  'The whole Dutch (Europe/Amsterdam) days inside [range_from, range_to]: from the first midnight at or after range_from to the last day that ends by range_to. first_day > last_day when there is none; infinite ends stay infinite. p2000MessagesCount and its per-capcode and per-monitor counts read these days from the daily roll-ups and count only the partial days at either end from an index.';

comment on function app_hidden.distance_km(double precision, double precision, double precision, double precision) is
  'Great-circle distance in kilometres between two WGS84 points (haversine). It is the one definition of "within the circle" for the monitors and of distance for the hectometre-post searches. It has no search_path setting, which would otherwise be applied and undone on every per-row call.';

comment on function app_hidden.geo_cell(double precision, double precision) is
  'The key of the grid cell (0.1 degrees of latitude by 0.15 of longitude, about 11 by 10 km in the Netherlands) that holds a point. A P2000 monitor with a small circle is anchored on the cells its circle touches, and a located message finds those candidate monitors by its own cell through the criteria''s GIN index.';

comment on function app_hidden.unit_sphere(double precision, double precision) is
  'A WGS84 point as a point on the unit sphere (cube). A GiST index on it orders by chord length, which orders like distance, so the nearest hectometre posts are an index-ordered scan (hectometer_markers_position_idx).';

comment on function app_hidden.proper_case(text) is
  'Capitalises all-capitals pager text word by word ("BURGEMEESTER MENTZSTRAAT" becomes "Burgemeester Mentzstraat") and leaves mixed-case text as written. The enrichment applies it to streets and places.';

comment on function app_hidden.region_by_key(text) is
  'A safety region by uuid, number ("7" becomes "07") or slug, so the fire brigade filters and importers accept any of the three.';

comment on function app_hidden.fire_call_number(text) is
  'A fire vehicle call number in its stored form ("17-3151", " 17 3151 " and "173151" all become "173151"). Null unless the result is six digits with a region from 01 to 25, so noise in a pager text is never learnt as a vehicle.';

comment on function app_hidden.road_name(text) is
  'A road name in its stored form ("a12", "A 12" and "A012" all become "A12"). Null when the text is not a road name.';

comment on function app_hidden.find_road(app_public.road_ref) is
  'The road a RoadRef names, by uuid or by name in any spelling that road_name accepts. Used by road, hectometerMarkers and availableHectometers.';

comment on function app_hidden.roads_of_prefix(text) is
  'The roads of one prefix (A, N, R or S) in number order: each list of roadsGroupedByPrefix is a computed list with its own ORDER BY. Lists held in the row came back in the order of PostGraphile''s re-selection of the road rows (by key), not in the array''s order.';

comment on function app_hidden.nearest_place_name(double precision, double precision) is
  'The name of the place nearest to a position (null without one), by KNN (<-> on points in degrees, which is good enough to name the nearest place). Used for aircraft take-offs, landings and overhead events.';

comment on function app_hidden.nearest_road_number(double precision, double precision) is
  'The road of the nearest hectometre post within 2 km, for a traffic record that names no road. Null without a position or with no post that near; the CASE keeps the lookup from running without a position.';

comment on function app_hidden.geojson_polygons(jsonb) is
  'The outer rings of a GeoJSON Polygon or MultiPolygon as PostgreSQL polygons (x = longitude, y = latitude), for the safety-region areas. Holes are left out, so an area covers a little more than it should; that is acceptable for telling which regions an NL-Alert reaches.';

comment on function app_hidden.amber_alert_label(integer) is
  'The kind and label of an AMBER Alert level: 10 is the national AMBER Alert, any other level (5, regional) a missing-child alert ("Vermist Kind Alert"). It is the one definition for amberAlerts and amberAlertHistory.';

comment on function app_hidden.aircraft_kind(text) is
  'Maps both vocabularies of an aircraft kind to the one that the reference list and every answer use: monitors say trauma or police, content pages lifeliner or politie. Null for any other word.';

comment on function app_hidden.aircraft_of(app_public.aircraft_fleet) is
  'A fleet aircraft as the API''s Aircraft: its reference data with its latest state (position, speed, on ground, current route). The state is left-joined from a one-row select, so an aircraft that was never seen still gives a row, with a null position.';

comment on function app_hidden.meteo_level_value(integer) is
  'A warning level''s name (none, yellow, orange, red) from its status code. It is the same as meteo_levels.value but IMMUTABLE, so the warning events'' generated columns can use it.';

comment on function app_hidden.meteo_day_window(text) is
  'A YYYY-MM-DD date (1990 to 2999) as its Europe/Amsterdam day [start, end), for meteoSnapshot. Anything else is a BAD_USER_INPUT error, not a cast error.';

comment on function app_hidden.meteo_has_data() is
  'Whether any warnings document was ever stored; before that, the warning reads answer "no data" rather than "no warnings". SECURITY DEFINER because the documents themselves are no business of API clients.';

--------------------------------------------------------------------------------------------------
-- Fire brigade, alerts, weather, aircraft: what the reads and triggers share

comment on function app_hidden.fire_stations_matching(app_public.fire_station_filter) is
  'The fire stations a filter selects (case-insensitive search on name, city and slug; an empty search is no filter). fireStations orders and pages them, and fireStationsCount counts them, so both agree. It has no search_path setting (every name is schema-qualified), so the callers inline it.';

comment on function app_hidden.fire_vehicles_matching(app_public.fire_vehicle_filter) is
  'The fire vehicles a filter selects (search on call number, function or station name, case-insensitive; region; station). fireVehicles orders and pages them, and fireVehiclesCount counts them, so both agree. It has no search_path setting, so the callers inline it.';

comment on function app_hidden.tg_fire_stations__link_vehicles() is
  'Trigger: a station imported (or given its post number) after its vehicles were learnt from pager messages adopts the vehicles of its region and post that have no station yet.';

comment on function app_hidden.nl_alert_region_numbers(polygon[]) is
  'The safety regions whose area overlaps any of an NL-Alert''s polygons. On polygons, && is an exact overlap test, and the GiST index finds the candidates by bounding box.';

comment on function app_hidden.refresh_nl_alert_regions(uuid[]) is
  'Recomputes the regions of the given NL-Alerts (all when null): their region_numbers and their rows in nl_alert_regions, by which nlAlerts(regionNumber) pages through an index. It runs when alerts are stored and when the region areas are (re)loaded.';

comment on function app_hidden.meteo_refresh_day_snapshots(date, date) is
  'Recomputes the stored meteoSnapshot answer (the end-of-day state) of each day in [from_day, to_day]. The warnings ingest calls it for the days around the hours a document covers, because a day''s periods are built from three days around it.';

comment on function app_hidden.keep_completed_route_path() is
  'Trigger: when a route completes, its path is built once and kept in aircraft_route_paths (and dropped if the route becomes active again), instead of aggregating thousands of points on every request. SECURITY DEFINER because that table is granted to no one; only AircraftRoute.path reads it.';

comment on function app_hidden.keep_completed_route_paths() is
  'Trigger: rebuilds the kept path of every completed route whose points a statement inserted, updated or deleted (a DBA''s correction). It is statement-level with transition tables, so it runs once however many points changed, and it does nothing for the points that ingestion adds to active routes. SECURITY DEFINER for the same reason as keep_completed_route_path.';

comment on function app_hidden.tg_places__names() is
  'Trigger: keeps place_names (every lower-case name and alias of a place) current, so the enrichment finds the places named in a text by index.';

comment on function app_hidden.tg_sessions__forget_login_failures() is
  'Trigger: a new session clears the login failures of its user''s address, which ends a lock. SECURITY DEFINER because the session is inserted with the request''s role, which cannot touch app_private.login_failures.';

comment on function app_hidden.tg_api_tokens__notify_change() is
  'Trigger: announces every change to an API token (revocation, scopes, expiry, environment, deletion) on the channel api_token_changed. Each server caches token lookups (lib/auth/api-token-cache.ts), and the announcement makes every instance forget the token at once; live subscriptions made with it are checked again.';

--------------------------------------------------------------------------------------------------
-- P2000 storage: capcodes, enrichment, dossiers, roll-ups

comment on function app_hidden.p2000_clean_capcodes(text[]) is
  'A message''s capcodes as stored: 7 digits each, sorted, each once, with non-capcodes dropped. It has no search_path setting, so no setting is applied and undone on each call.';

comment on function app_hidden.p2000_capcode_kind(text, text) is
  'What a capcode addresses, from its number and description: group_call (the FLEX temporary group addresses 2029568-2029583), test, monitor (control-room codes ending in 998 or 999), otherwise unit. It classifies new capcodes, and the enrichment uses it for capcodes not stored yet, because the FLEX reader enriches a batch before its new capcodes are stored. Immutable SQL without settings, so it is inlined.';

comment on function app_hidden.p2000_create_capcodes(text[]) is
  'Creates the capcodes (7 digits, as stored) that are not known yet, in sorted order. Only new ones are inserted, because an upsert of a known capcode still ran its classification trigger. The sorted order makes two readers that store at once take new capcodes in the same order.';

comment on function app_hidden.tg_p2000_capcodes__classify() is
  'Trigger: completes a capcode before it is stored. Its discipline and region default to the majority of its 4-digit block (p2000_capcode_blocks), and its kind comes from p2000_capcode_kind.';

comment on function app_hidden.tg_p2000_messages__prepare() is
  'Trigger before a message is stored. It trims the text and cleans the capcodes. The same text received within 10 seconds (from another receiver) is merged into the first copy and not stored. Otherwise it enriches the message (unless an importer passed the enrichment) and assigns its dossier. plan_cache_mode is force_generic_plan so that its queries are planned once per connection and not again for every message.';

comment on function app_hidden.p2000_assign_dossier(app_public.p2000_messages) is
  'Puts a message into its dossier. The same incident number in the same region within 6 hours joins that dossier; otherwise the same text in the same region and discipline within 2 hours; otherwise a truncated retransmission within 30 minutes; otherwise it opens a new dossier. Urgency and GRIP only go up, and the timeline records each step. The text and prefix rules read the region''s recent dossiers (p2000_dossiers_region_recent_idx). force_generic_plan, as for the insert trigger that calls it per message.';

comment on function app_hidden.tg_p2000_messages__index() is
  'Trigger after messages are stored: creates the capcodes not seen before, writes the capcode links and adds to the roll-ups (app_hidden.p2000_rollup_statements). It runs once per statement, writing one row per key in key order, so a batch does not update the same counter rows hundreds of times, and two readers storing at once take rows in the same order.';

comment on function app_hidden.tg_p2000_messages__learn_vehicles() is
  'Trigger after messages are stored: learns the fire vehicles named by their call numbers (app_private.learn_fire_vehicles), once per statement, so a batch of 500 messages is one upsert.';

comment on function app_hidden.tg_p2000_messages__notify_subscribers() is
  'Trigger: NOTIFY p2000_messages with the uuids of a statement''s new messages that were sent within an hour of now (an import of history is not news), one notification per 200 so the payload stays under 8,000 bytes. It is sent at commit, so every API instance hears it whatever path stored the messages.';

comment on function app_hidden.tg_p2000_dossier_events__notify_subscribers() is
  'Trigger: NOTIFY p2000_dossier:<uuid> for each dossier that a statement''s events touched. Identical notifications in a transaction are delivered once, so a batch sends one per dossier.';

comment on function app_hidden.p2000_capcode_messages_count(uuid, timestamp with time zone, timestamp with time zone, text) is
  'How many messages one capcode received in a range, for p2000MessagesCount. Whole Dutch days come from p2000_daily_capcode_counts, and the partial days at either end are counted from the (capcode, sended) index. That keeps the count flat over ten years of history, where counting every link took seconds (and a group-call capcode ran into the statement timeout). force_generic_plan, like the other roll-up counts.';

comment on function app_hidden.p2000_monitor_messages_count(uuid, timestamp with time zone, timestamp with time zone, text) is
  'How many messages matched one monitor in a range, for p2000MessagesCount. Whole Dutch days come from monitor_daily_counts, and the partial days at either end from the (monitor, sended) index of monitor_matches. A region monitor with a million matches stays flat. force_generic_plan, like the other roll-up counts.';

comment on function app_hidden.tg_monitor_matches__exercise_type() is
  'Trigger: a new match row copies its message''s exercise type (as it copies its time). The monitor''s daily counts are kept per exercise type, and removing a match (its message deleted) then needs no message.';

comment on function app_hidden.tg_monitor_matches__count() is
  'Trigger: keeps monitor_daily_counts in step with monitor_matches, once per statement. Deletions update only existing rows; when the monitor itself is deleted, its counts go by their own cascade.';

--------------------------------------------------------------------------------------------------
-- P2000 reads

comment on function app_hidden.p2000_message_conditions(app_public.p2000_message_filter) is
  'The WHERE clause of a message filter over alias m, for dynamic SQL with the filter as $1. It also checks the filter (exercise type, both ends of sended, a monitor of this environment). p2000Messages, p2000MessagesCount and the statistics share this one builder, so they always agree, and each query is planned with only the conditions it has. Capcode and monitor filters read their own indexes.';

comment on function app_hidden.p2000_messages_count_by_scan(app_public.p2000_message_filter) is
  'Counts the messages a filter selects by running its conditions (index range scans). p2000MessagesCount uses it when no roll-up answers, for example several capcodes, where a message sent to two of them counts once and a sum of per-capcode counts could not tell.';

comment on function app_hidden.p2000_single_capcode(app_public.p2000_message_filter) is
  'The capcode of a filter that names exactly one (by uuid or by number), else null. p2000Messages then pages from that capcode''s links and p2000MessagesCount reads its daily roll-up, instead of scanning messages.';

comment on function app_hidden.p2000_filter_discipline_uuids(text[]) is
  'The disciplines a filter names, by uuid, name or slug: the one definition that p2000Messages, p2000MessagesCount and the filter''s conditions read. p2000Messages uses it to page each discipline from the discipline index.';

comment on function app_hidden.p2000_capcode_conditions(app_public.p2000_capcode_filter) is
  'The WHERE clause of a capcode filter over alias c, for dynamic SQL with the filter as $1. p2000Capcodes and p2000CapcodesCount share this one builder, so the list and the count agree, and each query is planned with only the conditions it has.';

comment on function app_hidden.p2000_daily_counts_by(date, date, text) is
  'Real alerts (not exercises) per value of one dimension (discipline, region, urgency, category, road) over whole days [since, until), most first, from the daily roll-up. Reading the roll-up keeps the statistics flat however long the history is.';

comment on function app_hidden.p2000_dossier_view(app_public.p2000_dossiers, text, text) is
  'A dossier row as the API''s P2000Dossier, carrying the orders that were asked for its messages and timeline (their computed fields read them). It checks those order arguments, so every query that returns a dossier accepts the same values.';

comment on function app_hidden.p2000_referenced_dossier(app_public.p2000_message_dossier_ref, app_public.p2000_message_ref) is
  'The dossier named by a dossier reference or by one of its messages. Giving both, or neither, is a BAD_USER_INPUT error.';

--------------------------------------------------------------------------------------------------
-- Monitors: input, criteria, rules, preview

comment on function app_hidden.validate_monitor_query(text, jsonb) is
  'Checks a monitor''s query against its type''s fields (monitor_query_fields) and returns it with capcodes normalised, names trimmed and keywords lower-cased. Every error names the field.';

comment on function app_hidden.validate_notification_rules(jsonb) is
  'Checks notificationRules: quietHours { from, to } (Dutch time, HH:MM), minUrgency (an urgency code), maxPerDossier (1-9999) and maxPerPeriod { count, minutes }. Anything else is refused, and every error names the rule.';

comment on function app_hidden.monitor_channel_uuids(jsonb, uuid) is
  'The channel uuids of a monitor''s channels JSON. Each one is checked to be a channel of the monitor''s environment, so a monitor cannot notify another environment''s channel.';

comment on function app_hidden.checked_monitor(uuid, app_public.monitors, boolean, text, text, boolean, text, text,
  double precision, double precision, text, text, double precision, text, text) is
  'The monitor that the arguments of createMonitor, updateMonitor or monitorPreview describe on top of existing (a row with a null uuid for a new monitor, which starts from the defaults), every field checked, with its channel uuids (null when not given). An argument left null keeps its value, and location_given tells "clear the location" from "not given". It writes nothing, so a preview accepts and refuses exactly what createMonitor does.';

comment on function app_hidden.contains_pattern(text) is
  'A keyword (already lower case) as an escaped LIKE pattern that matches text containing it. A message is then checked against all of a monitor''s keywords with one lower(message) LIKE ANY (...), without a subquery. It has no search_path setting, so it is inlined.';

comment on function app_hidden.p2000_criteria(app_public.monitors) is
  'A P2000 monitor in matchable form, saved or not and active or not. Its trigger stores this in p2000_monitor_criteria, and monitorPreview uses it for an unsaved monitor. anchor_keys are the keys of its most selective criterion (capcodes, else the grid cells its circle touches, else regions, else disciplines, else ''*''): a message finds candidate monitors by its own keys through the GIN index.';

comment on function app_hidden.p2000_criteria_match(app_hidden.p2000_monitor_criteria, app_public.p2000_messages) is
  'Whether a message has everything a criteria row asks for: the one definition for app_private.match_p2000_message and monitorPreview. Plain SQL without subqueries or a search_path setting (everything is named by schema), so PostgreSQL inlines it into the query that calls it.';

comment on function app_hidden.in_quiet_hours(jsonb) is
  'Whether the rules'' quietHours (Dutch time) hold now, for the feeds'' matchers (app_private.notify_feed_event). Inlinable SQL without a search_path setting.';

comment on function app_hidden.in_quiet_hours(jsonb, timestamp with time zone) is
  'Whether the rules'' quietHours (Dutch time, possibly across midnight) hold at a moment: now for live matching, the message''s time for monitorPreview. Inlinable SQL (no search_path setting) because the preview applies it to every match of a month.';

comment on function app_hidden.exceeds_max_per_period(jsonb, bigint) is
  'Whether a monitor that already notified recent_notified times within its maxPerPeriod window has reached the rule''s count. It is shared by P2000 and the other feeds'' matchers, and is inlinable (no search_path setting).';

comment on function app_hidden.p2000_message_suppression(jsonb, app_public.p2000_messages, timestamp with time zone) is
  'The notification rules that look at the message alone: quiet hours at moment, then minUrgency. It returns one row: the reason, or null. It is a table function because it has subqueries: PostgreSQL inlines a table function called in FROM even so (never a scalar one), and monitorPreview applies it to every match.';

comment on function app_hidden.p2000_throttle_suppression(jsonb, boolean, bigint, bigint) is
  'The throttles (maxPerDossier, then maxPerPeriod), given how many notifications the monitor already made about the message''s dossier and within the period. The counts are arguments because live matching takes them from monitor_matches and monitorPreview from its own earlier matches.';

comment on function app_hidden.monitor_suppression(app_public.monitors, app_public.p2000_messages) is
  'Why a live P2000 match notifies nobody, or null. The message''s own rules are checked now, then the throttles over the monitor''s recorded matches; those matches are counted only when the rule is reached.';

comment on function app_hidden.monitor_preview(integer, boolean, text, text, boolean, text, text, double precision,
  double precision, text, text, double precision, text, text) is
  'monitorPreview (plugins/monitor-preview.ts). It checks the arguments of createMonitor (app_hidden.checked_monitor) and replays the last days (1-90) of stored history: the matches and the notifications its rules let through, in total and per day, and the newest 20 matched messages. It uses the same criteria and rules as live matching, and its throttles count the preview''s own earlier notifications. The match query is built with the criteria as constants, so the planner chooses by statistics between the window''s index and a criterion''s own. It writes nothing.';

comment on function app_hidden.tg_monitors__p2000_criteria() is
  'Trigger: keeps the monitor''s row in p2000_monitor_criteria (app_hidden.p2000_criteria) while it is an active P2000 monitor, and removes it otherwise.';

comment on function app_hidden.tg_monitors__meteo_criteria() is
  'Trigger: keeps the monitor''s row in meteo_monitor_criteria while it is an active meteo_weather monitor: its province codes and level names resolved to uuids and status codes. Removes it otherwise.';

comment on function app_hidden.tg_monitors__traffic_criteria() is
  'Trigger: keeps the monitor''s row in traffic_monitor_criteria (app_hidden.accident_criteria_of) while it is an active accident monitor, and removes it otherwise.';

comment on function app_hidden.tg_monitors__jam_and_rail_criteria() is
  'Trigger: keeps the monitor''s row in matrix_monitor_criteria or rail_monitor_criteria while it is an active matrix or rail_disruptions monitor, and removes it otherwise.';

comment on function app_hidden.tg_monitors__rss_criteria() is
  'Trigger: applies app_hidden.sync_rss_monitor to every monitor inserted or updated.';

comment on function app_hidden.sync_rss_monitor(app_public.monitors) is
  'An rss monitor''s feeds (created when new, due at once, so the poller fetches them within a minute) and its row in rss_monitor_criteria while it is active. It is one definition for the trigger and for the backfill of monitors made before.';

comment on function app_hidden.accident_criteria_of(app_public.monitors) is
  'An accident monitor''s criteria as its query and location state them (types in lower case, roads in upper case without spaces). It is one definition for the criteria trigger and for trafficIncidentsForMonitor.';

comment on function app_hidden.matrix_criteria_of(app_public.monitors) is
  'A matrix monitor''s criteria as its query states them (roads in upper case without spaces, minDelayMinutes defaulting to 0). It is one definition for the trigger and the backfill.';

comment on function app_hidden.rail_criteria_of(app_public.monitors) is
  'A rail_disruptions monitor''s criteria as its query states them (routes trimmed and lower-cased). It is one definition for the trigger and the backfill.';

comment on function app_hidden.traffic_incident_passes(app_hidden.traffic_monitor_criteria, app_public.traffic_incidents) is
  'Whether a traffic incident passes an accident monitor''s filters: its types, its roads, its circle. It is one definition for live matching and for trafficIncidentsForMonitor.';

comment on function app_hidden.aircraft_monitor_follows(app_public.monitors, app_public.aircraft_fleet) is
  'Whether an aircraft monitor follows an aircraft: its kinds (in either vocabulary, app_hidden.aircraft_kind) and its registrations, where an empty list means any. It is one definition for the overhead-events trigger and aircraft_event_passes.';

comment on function app_hidden.aircraft_event_passes(app_public.monitors, app_public.aircraft_events) is
  'Whether an aircraft event passes a monitor. An overhead event passes only the monitor it was made for; a take-off or landing passes any monitor that follows the aircraft and whose circle, if it has one, holds the event. It is one definition for app_private.match_aircraft_event and aircraftEventsForMonitor.';

--------------------------------------------------------------------------------------------------
-- Feed events: recording them and queueing their matching

comment on function app_hidden.claim_traffic_publication(text, timestamp with time zone) is
  'Called by the traffic ingests before a publication is stored. It serialises a feed''s publications (an advisory lock per feed), records the newest, and sets app.traffic_notify for the triggers that queue matching: true only for the newest publication, less than an hour old. It returns whether the publication is the newest, so an older file read later (a backfill, a slow CLI run beside the poller) updates versions but closes nothing and notifies nobody.';

comment on function app_hidden.tg_traffic_incidents__record_events() is
  'Trigger: records a traffic incident event when an incident opens, closes, reopens or changes type while open, once per statement. Monitors match these events, not the incident rows, so a new version of a running incident is not news.';

comment on function app_hidden.tg_traffic_incident_events__queue_matching() is
  'Trigger: queues one monitors__match_traffic job per statement for the new events, but only for a live publication (app.traffic_notify, set by claim_traffic_publication). Old files notify nobody.';

comment on function app_hidden.tg_traffic_jams__queue_matching() is
  'Trigger: queues one matching job per statement for open jams that are new, reopened, or whose delay or road changed (each may now pass a monitor, and matching again is harmless), but only for a live publication (app.traffic_notify).';

comment on function app_hidden.tg_rail_disruptions__queue_matching() is
  'Trigger: queues one matching job per statement for active disruptions that are new, active again, or whose stations changed (each may now lie on a followed route).';

comment on function app_hidden.tg_rss_feed_items__queue_matching() is
  'Trigger: queues one matching job per statement for new feed items. It does nothing when app.rss_notify is not true: the items of a feed''s first successful fetch are its baseline, not news.';

comment on function app_hidden.tg_meteo_warning_events__queue_matching() is
  'Trigger: queues one monitors__match_meteo job per statement for new warning events with a level, still running or ahead. A backfill of history announces nothing.';

comment on function app_hidden.tg_aircraft_events__queue_matching() is
  'Trigger: queues one matching job per statement for new aircraft events less than an hour old, so a replay of old recordings notifies nobody.';

comment on function app_hidden.tg_aircraft_route_points__overhead_events() is
  'Trigger: new route points make an overhead event for each active aircraft monitor with a circle that follows the aircraft and that a point falls in. Each route and monitor gets its first such point only (once per flight), named after the nearest place.';

--------------------------------------------------------------------------------------------------
-- Notification subjects (what app_private.notify_feed_event sends)

comment on function app_hidden.meteo_notification_subject(app_public.meteo_warning_events) is
  'What a weather notification says: a Dutch headline (level, province, phenomena), fact lines, and the webhook''s warning object.';

comment on function app_hidden.traffic_notification_subject(app_public.traffic_incident_events) is
  'What a traffic incident notification says: a Dutch headline, fact lines, and the webhook''s incident object, of the incident as the event found it.';

comment on function app_hidden.traffic_jam_notification_subject(app_public.traffic_jams) is
  'What a traffic jam notification says: a Dutch headline (road and delay), fact lines, and the webhook''s jam object.';

comment on function app_hidden.rail_disruption_notification_subject(app_public.rail_disruptions) is
  'What a railway disruption notification says: a Dutch headline by kind (maintenance, calamity, disruption), fact lines, and the webhook''s disruption object.';

comment on function app_hidden.rss_notification_subject(app_public.rss_feed_items) is
  'What an RSS item notification says: the item''s title as headline, its feed, link, time and summary, and the webhook''s item object.';

comment on function app_hidden.aircraft_notification_subject(app_public.aircraft_events) is
  'What an aircraft event notification (take-off, landing, overhead) says: a Dutch headline, fact lines, and the webhook''s aircraftEvent object.';

--------------------------------------------------------------------------------------------------
-- Live push (NOTIFY at commit)

comment on function app_hidden.tg__notify_channel_when_changed() is
  'Trigger for feeds whose subscribers read the query''s answer again (NL-Alerts, AMBER alerts, weather regions): NOTIFY on the channel named by the trigger''s argument, only when the statement changed rows (its transition table is not empty). Every poll of an unchanged list is therefore silent.';

comment on function app_hidden.tg_traffic_incidents__notify_subscribers() is
  'Trigger: NOTIFY traffic_incidents when a statement inserted incidents or opened or closed one. A new version of a running incident is not news here, and an upsert that inserted nothing is silent.';

comment on function app_hidden.tg_aircraft_states__notify_subscribers() is
  'Trigger: NOTIFY aircraft:<icao> and aircraft:<registration in lower case> for every aircraft whose state a statement wrote: the two ways aircraftLive names an aircraft.';
