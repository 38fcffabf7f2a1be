// Channel and monitor mutations (spec 4.2), respondOnTheWay (with respondLink, the read the respond
// page makes as it opens) and sendTestNotification. The SQL
// functions of app_accounts check the caller, the environment and every field; Node adds what needs
// it: the DNS check of webhook targets, the random signing secret, shown once in
// CreateChannelPayload, and the sending of a test notification through the real delivery code.
import { loadOneWithPgClient, type PgClient } from "postgraphile/@dataplan/pg";
import { access, type FieldArgs, type Step } from "postgraphile/grafast";
import { extendSchema, gql } from "postgraphile/utils";
import type { DeliveryConfig } from "../lib/config.ts";
import { userError } from "../lib/graphql/errors.ts";
import { byUuid, mutationSteps } from "../lib/graphql/plan-steps.ts";
import { assertChannelTargets } from "../lib/monitors/channel-targets.ts";
import { saveMonitorCall } from "../lib/monitors/monitor-input.ts";
import { attemptDelivery, notificationSettings } from "../lib/monitors/notification-delivery.ts";
import type { NotificationSettings, PendingNotification } from "../lib/monitors/notification.ts";
import { newSigningSecret } from "../lib/monitors/webhook-signatures.ts";
import { monitorTypesInWords } from "./monitor-type-names.ts";
import { required, type ServiceRuntime } from "./service-runtime.ts";

/** One SMTP transport per service for every test send, made at its first one (as the worker's outbox). */
const testSendSettings = new WeakMap<DeliveryConfig, NotificationSettings>();
function deliverySettings(service: ServiceRuntime["monitors"]): NotificationSettings {
  const { delivery } = service;
  if (!delivery) throw userError("Test notifications are switched off on this server.", "FORBIDDEN");
  let settings = testSendSettings.get(delivery);
  if (!settings) testSendSettings.set(delivery, (settings = notificationSettings(delivery)));
  return settings;
}

/** What sendTestNotification answers: the outcome of its one attempt. */
interface TestNotificationResult {
  uuid: string;
  outcome: "delivered" | "failed";
  delivered: boolean;
  responseCode: number | null;
  reply: string | null;
  latencyMs: number;
  error: string | null;
}

/** What app_accounts.respond_link answers: the respond link's incident, expiry and current answer. */
interface RespondLinkRow {
  dossier_uuid: string | null;
  message_uuid: string | null;
  expires_at: Date;
  status: string | null;
  arrives_at: Date | null;
  availability: string | null;
  available_until: Date | null;
}

// One query per link (a page asks for one), as the request's visitor; the SQL checks the token.
function loadRespondLinks(client: PgClient, tokens: ReadonlyArray<string>) {
  return tokens.map(async (token) => {
    const { rows } = await client.query<RespondLinkRow>({
      text: "select * from app_accounts.respond_link($1)",
      values: [token],
    });
    // node-postgres reads timestamptz as a Date; DateTime is sent as ISO 8601.
    const [row] = rows;
    return {
      ...row,
      expires_at: row.expires_at.toISOString(),
      arrives_at: row.arrives_at?.toISOString() ?? null,
      available_until: row.available_until?.toISOString() ?? null,
    };
  });
}

/** The fields createMonitor and updateMonitor share; `typeNames`: app_public.monitor_types' (plugins/monitor-type-names.ts). */
const monitorFields = (typeNames: readonly string[]) => `
  description: String
  active: Boolean
  """A monitor type monitorTypes lists: ${monitorTypesInWords(typeNames)}."""
  type: String
  """The type's criteria as a JSON string; shapes in docs/monitors.md of the service's repository."""
  query: String
  """Centre of the radius; null clears it (and the radius)."""
  location: GeoPointInput
  """fixed (default) or live."""
  locationMode: String
  locationLiveSourceId: String
  """Kilometres (0-250) around location."""
  radius: Float
  """JSON array string of channel uuids of this environment; replaces the list."""
  channels: String
  """JSON object string: quietHours { from, to }, minUrgency, maxPerDossier, maxPerPeriod { count, minutes }."""
  notificationRules: String
`;

export const MonitorMutationsPlugin: GraphileConfig.Plugin = extendSchema((build) => {
  const { run, sql } = mutationSteps(build);
  const resources = build.input.pgRegistry.pgResources;
  const channels = resources.channels_table;
  const monitors = resources.monitors_table;
  const responders = resources.alert_responders_table;
  if (!build.input.monitorTypeNames)
    throw new Error("MonitorMutationsPlugin needs MonitorTypeNamesPlugin's monitor types");
  const fields = monitorFields(build.input.monitorTypeNames);
  /** sendTestNotification: stored (and checked, rate-limited) in SQL, sent here, its one attempt recorded. */
  const sendTestNotification = (fieldArgs: FieldArgs) =>
    run(fieldArgs, async ({ channel }, { visitor, service }): Promise<TestNotificationResult> => {
      const [pending] = (await visitor("select * from app_accounts.start_test_notification($1)", [
        channel,
      ])) as PendingNotification[];
      const { responseCode, reply, failure, latencyMs } = await attemptDelivery(
        deliverySettings(required(service).monitors),
        pending,
      );
      const error = failure?.message ?? null;
      // As the worker does: a receiver that said the channel is gone (Web Push 404/410) disables it.
      if (failure?.disablesChannel) {
        await visitor("select app_accounts.disable_tested_channel($1, $2)", [pending.notification_uuid, error]);
      }
      await visitor("select app_accounts.record_test_notification_attempt($1, $2, $3, $4, $5, $6)", [
        pending.notification_uuid,
        error === null,
        responseCode,
        reply,
        error,
        latencyMs,
      ]);
      const delivered = error === null;
      const uuid = pending.notification_uuid;
      return { uuid, outcome: delivered ? "delivered" : "failed", delivered, responseCode, reply, latencyMs, error };
    });
  /** createMonitor, or updateMonitor of input.uuid: the saved monitor's uuid. */
  const saveMonitor = (fieldArgs: FieldArgs, update: boolean) =>
    run(fieldArgs, async ({ input }, { visitor }) => {
      const call = saveMonitorCall(update ? input.uuid : null, input);
      return (await visitor(`select ${call.text} as uuid`, call.values))[0].uuid as string;
    });

  return {
    // ChannelHeaderInput and GeoPointInput are PostGraphile's inputs of the composite types.
    typeDefs: gql`
        input CreateChannelInput {
          """A type channelTypes lists: email, sms, webhook, telegram, ntfy, pushover, gotify, discord, slack, webpush or mqtt."""
          type: String!
          name: String!
          """email channels."""
          emailAddress: String
          """sms channels: E.164 (+31612345678)."""
          phoneNumber: String
          """webhook channels: a public http(s) URL. discord and slack channels: the incoming-webhook URL (kept secret, never read back)."""
          url: String
          """webhook channels: extra headers sent with every delivery."""
          headers: [ChannelHeaderInput!]
          """telegram channels: the chat id (or @channelname) the service's bot writes to."""
          chatId: String
          """ntfy (default https://ntfy.sh) and gotify channels: the server; mqtt channels: the broker (mqtt://, mqtts://, ws://, wss://)."""
          serverUrl: String
          """ntfy channels: the topic; mqtt channels: the topic prefix (default nl-incidents)."""
          topic: String
          """ntfy channels: an access token (optional); gotify channels: the application token. Never read back."""
          token: String
          """pushover channels: the user or group key. Never read back."""
          userKey: String
          """mqtt channels: the broker's user name (optional)."""
          username: String
          """mqtt channels: the broker's password (optional). Never read back."""
          password: String
          """webpush channels: the browser's PushSubscription (its toJSON()). Never read back."""
          subscription: WebPushSubscriptionInput
        }
        """A browser's push subscription (PushSubscription.toJSON(): RFC 8030 endpoint, RFC 8291 keys)."""
        input WebPushSubscriptionInput {
          endpoint: String!
          """When the browser will end the subscription, in milliseconds since 1970, or null (none): PushSubscription.expirationTime. Nothing is pushed to it after that."""
          expirationTime: Float
          keys: WebPushSubscriptionKeysInput!
        }
        input WebPushSubscriptionKeysInput {
          """The browser's P-256 public key, base64url."""
          p256dh: String!
          """The 16-byte authentication secret, base64url."""
          auth: String!
        }
        type CreateChannelPayload {
          channel: Channel
          """webhook channels: the secret that signs deliveries, shown only in this answer."""
          signingSecret: String
        }
        input CreateMonitorInput {
          name: String!
          ${fields}
        }
        input UpdateMonitorInput {
          uuid: String!
          name: String
          ${fields}
        }
        """The outcome of a test notification's one attempt (it is not retried); it is in deliveries too."""
        type TestNotificationResult {
          """The test send's uuid: its Webhook-Id, and its uuid in deliveries."""
          uuid: UUID!
          """delivered or failed."""
          outcome: String!
          delivered: Boolean!
          """The HTTP status (webhook, SMS, Telegram) or SMTP reply code (e-mail), when there was an answer."""
          responseCode: Int
          """The SMTP server's reply (e-mail channels)."""
          reply: String
          """How long the attempt took, in milliseconds."""
          latencyMs: Int!
          """Why it failed; null when delivered."""
          error: String
        }
        """What a notification's respond link is about, as the respond page shows it before any answer."""
        type RespondLink {
          """The incident's dossier, when the notification was about one (else messageUuid is set)."""
          dossierUuid: UUID
          """The P2000 message the notification was about, when it had no dossier."""
          messageUuid: UUID
          """Until when the link takes an answer (24 hours after the notification)."""
          expiresAt: DateTime!
          """The recipient's current answer for this incident: going or cancelled; null before any."""
          status: String
          """When the recipient expects to arrive (their answer's arrivalMinutes); null when not said."""
          arrivesAt: DateTime
          """The recipient's availability as it holds now: available or unavailable; null when not said."""
          availability: String
          """Until when that availability holds; null when open-ended or not said."""
          availableUntil: DateTime
        }
        extend type Query {
          """
          Checks a notification's respond link as respondOnTheWay does (the token is the credential; no API token or
          login) and says what it is about, writing nothing. A malformed, tampered or expired link answers
          UNAUTHENTICATED, one whose notification is gone NOT_FOUND.
          """
          respondLink(token: String!): RespondLink
        }
        extend type Mutation {
          """Adds a notification channel to the current environment."""
          createChannel(input: CreateChannelInput!): CreateChannelPayload
          """Deletes a channel (and takes it off every monitor); true when deleted."""
          deleteChannel(uuid: String!): Boolean
          createMonitor(input: CreateMonitorInput!): Monitor
          """Changes the given fields; others keep their value."""
          updateMonitor(input: UpdateMonitorInput!): Monitor
          """Deletes a monitor; true when deleted."""
          deleteMonitor(uuid: String!): Boolean
          """
          "Tell me when this gets worse": follows one incident (a P2000 dossier's uuid) without writing a monitor. Makes a
          monitor in the current environment, named after the incident, that is told of the incident's raises (urgency,
          GRIP level; event p2000.incident.raised) and of nothing else, on the given channels (a JSON list of channel uuids,
          as createMonitor takes) or else on every channel of the environment. Following it again answers the same monitor;
          deleteMonitor ends the follow, and it ends by itself 7 days after the incident's last page.
          """
          followIncident(incident: String!, channels: String): Monitor
          """
          Answers a notification with going or cancelled, as of now; the token from the notification's link is the
          credential. arrivalMinutes (0-240, with going) says when the responder expects to arrive: a station screen
          shows it (docs/screen.md).
          """
          respondOnTheWay(token: String!, status: String!, arrivalMinutes: Int): AlertResponder
          """
          Sends a clearly marked test notification to a channel of the current environment at once, through the
          same delivery code as real ones, and answers with its outcome; at most 5 per channel and minute.
          """
          sendTestNotification(channel: String!): TestNotificationResult
        }
      `,
    objects: {
      Query: {
        plans: {
          // Like respondOnTheWay, the signed token is the credential: no API token (plugins/require-api-token.ts).
          respondLink: {
            scope: { isUserTokenField: true },
            plan: (_, fieldArgs) =>
              loadOneWithPgClient(responders.executor, fieldArgs.getRaw("token") as Step<string>, loadRespondLinks),
          },
        },
      },
      RespondLink: {
        plans: {
          dossierUuid: ($link) => access($link, "dossier_uuid"),
          messageUuid: ($link) => access($link, "message_uuid"),
          expiresAt: ($link) => access($link, "expires_at"),
          arrivesAt: ($link) => access($link, "arrives_at"),
          availableUntil: ($link) => access($link, "available_until"),
        },
      },
      Mutation: {
        plans: {
          createChannel: (_, fieldArgs) =>
            run(fieldArgs, async ({ input }, { visitor, service }) => {
              const options = required(service).monitors;
              const type = String(input.type ?? "")
                .trim()
                .toLowerCase();
              // The caller first (no DNS lookups for anonymous callers), then the hosts the channel names.
              await visitor("select app_accounts.require_current_environment()");
              if (type === "webpush" && !options.delivery?.webPush.publicKey) {
                throw userError(
                  "Web Push is not set up on this server (VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY): webpush channels cannot be created.",
                  "FORBIDDEN",
                );
              }
              await assertChannelTargets(type, input, options.allowPrivateWebhookTargets);
              const signingSecret = type === "webhook" ? newSigningSecret() : null;
              const [{ uuid }] = await visitor(
                "select app_accounts.create_channel($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) as uuid",
                [
                  input.type,
                  input.name,
                  input.emailAddress ?? null,
                  input.phoneNumber ?? null,
                  input.url ?? null,
                  JSON.stringify(input.headers ?? []),
                  input.chatId ?? null,
                  signingSecret,
                  input.serverUrl ?? null,
                  input.topic ?? null,
                  input.token ?? null,
                  input.userKey ?? null,
                  input.username ?? null,
                  input.password ?? null,
                  input.subscription ? JSON.stringify(input.subscription) : null,
                ],
              );
              return { uuid, signingSecret };
            }),
          deleteChannel: (_, fieldArgs) => sql(fieldArgs, "app_accounts.delete_channel($1)", ({ uuid }) => [uuid]),
          createMonitor: (_, fieldArgs) => byUuid(monitors, saveMonitor(fieldArgs, false)),
          updateMonitor: (_, fieldArgs) => byUuid(monitors, saveMonitor(fieldArgs, true)),
          deleteMonitor: (_, fieldArgs) => sql(fieldArgs, "app_accounts.delete_monitor($1)", ({ uuid }) => [uuid]),
          followIncident: (_, fieldArgs) =>
            byUuid(
              monitors,
              sql(fieldArgs, "app_accounts.follow_incident($1, $2)", ({ incident, channels }) => [
                incident,
                channels ?? null,
              ]),
            ),
          sendTestNotification: (_, fieldArgs) => sendTestNotification(fieldArgs),
          respondOnTheWay: (_, fieldArgs) =>
            byUuid(
              responders,
              sql(fieldArgs, "app_accounts.respond_on_the_way($1, $2, $3)", ({ token, status, arrivalMinutes }) => [
                token,
                status,
                arrivalMinutes ?? null,
              ]),
            ),
        },
      },
      CreateChannelPayload: {
        plans: {
          channel: ($result) => byUuid(channels, access($result, "uuid")),
        },
      },
    },
  };
}, "MonitorMutationsPlugin");
