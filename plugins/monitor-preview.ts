// monitorPreview (issues #18, #29): what a monitor of any type would have matched over the
// last days of stored history, before it is saved, with the matched items' times and places for a
// map. The input is createMonitor's and SQL checks it with the same function
// (app_hidden.checked_monitor); app_hidden.monitor_preview matches with live matching's own
// definitions (criteria, notification rules) and writes nothing. Like `monitors`, it takes a
// user's access token of the environment (plugins/require-api-token.ts).
import { loadOneWithPgClient, type PgClient } from "postgraphile/@dataplan/pg";
import { access, each, type Step } from "postgraphile/grafast";
import { extendSchema, gql } from "postgraphile/utils";
import { monitorPreviewCall, type MonitorInput } from "../lib/monitors/monitor-input.ts";
import type { FeedItem } from "../lib/monitors/feed-documents.ts";

interface PreviewArguments {
  input: MonitorInput;
  days: number | null;
}

interface PreviewRow {
  matches: number;
  notifications: number;
  by_day: Array<{ date: string; matches: number; notifications: number }>;
  message_uuids: string[];
  items: Array<Omit<FeedItem, "link">>;
  bursts: PreviewBurst[];
}

interface PreviewBurst {
  startedAt: string;
  lastMatchAt: string;
  matches: number;
  label: string | null;
  notified: boolean;
  suppressedReason: string | null;
  messageUuids: string[];
}

// One query per preview (a request rarely asks for more than one), as the request's visitor.
function loadPreviews(client: PgClient, lookups: ReadonlyArray<PreviewArguments>) {
  return lookups.map(async ({ input, days }) => {
    const call = monitorPreviewCall(days, input);
    const { rows } = await client.query<PreviewRow>({ text: `select * from ${call.text}`, values: call.values });
    return rows[0];
  });
}

export const MonitorPreviewPlugin = extendSchema((build) => {
  const resources = build.input.pgRegistry.pgResources;
  const monitors = resources.monitors_table;
  const messages = resources.p2000_messages_table;
  /** The rows as p2000Messages gives them, in the order of the uuids. */
  const messagesOf = ($uuids: Step<string[]>) => each($uuids, ($uuid) => messages.get({ uuid: $uuid }));

  return {
    typeDefs: gql`
      """
      Matches and notifications of one day (Europe/Amsterdam) of a monitor preview.
      """
      type MonitorPreviewDay {
        date: Date!
        matches: Int!
        notifications: Int!
      }
      """
      One item a monitor preview matched, with its time and place for a map.
      """
      type MonitorPreviewItem {
        """
        What it is, as live matching records it: p2000, traffic (an incident event), meteo (a warning event), nl_alert, amber_alert, aircraft (a take-off or landing), traffic_jam, rail or rss.
        """
        kind: String!
        """
        The item's uuid (the P2000 message, traffic incident event, weather warning event, NL-Alert, AMBER alert, aircraft event, jam, rail disruption or RSS item).
        """
        uuid: UUID!
        """
        When it happened: a message's send time, an event's storing, an alert's start, a take-off or landing, a jam's or RSS item's first sight, a disruption becoming news.
        """
        at: DateTime!
        """
        A short title: the message, the event's kind, type and road, the province, level and phenomena, the alert's text.
        """
        title: String
        """
        Where it is (WGS84), null where the feed has no place (weather warnings, AMBER alerts, rail disruptions) or the item none; an NL-Alert's is the centre of its first area.
        """
        latitude: Float
        longitude: Float
      }
      """
      A burst a monitor with notificationRules.burst would have been told of: at least count matches within minutes, and
      the matches it took in until quietMinutes passed without one.
      """
      type MonitorPreviewBurst {
        """
        The match that brought the burst to its count: when it would have been told.
        """
        startedAt: DateTime!
        """
        Its last match so far.
        """
        lastMatchAt: DateTime!
        """
        Matches in it: those that made the count and those taken in after.
        """
        matches: Int!
        """
        Where it counted (burst per area or per place): the area's or place's name; null for a burst of the whole monitor.
        """
        label: String
        """
        Whether it would have been told; false when quietHours or maxPerPeriod held it back (suppressedReason).
        """
        notified: Boolean!
        suppressedReason: String
        """
        The messages that made the count, oldest first.
        """
        messages: [P2000Message!]!
      }
      """
      What a monitor would have matched over the last days of stored history; nothing is saved.
      """
      type MonitorPreview {
        """
        Items it matches in the window.
        """
        matches: Int!
        """
        Matches its notificationRules let through, applied as live matching applies them (each notifies every channel of the monitor);
        for a burst monitor, the bursts told.
        """
        notifications: Int!
        """
        Every day of the window, oldest first; the last is today so far.
        """
        byDay: [MonitorPreviewDay!]!
        """
        The newest 20 matched messages, newest first (P2000 monitors; empty for the others).
        """
        messages: [P2000Message!]!
        """
        The newest 500 matched items of any type, newest first, with time and place.
        """
        items: [MonitorPreviewItem!]!
        """
        The newest 200 bursts it would have been told of, newest first (P2000 monitors with notificationRules.burst; empty
        for the others).
        """
        bursts: [MonitorPreviewBurst!]!
      }
      extend type Query {
        """
        What a monitor of any type with this input would have matched over
        the last days (1-90) of stored history: from midnight (Dutch time) days - 1 days ago until now, through the same
        match definitions and notification rules as live matching. The input is checked as createMonitor checks it; nothing
        is saved or sent.
        """
        monitorPreview(input: CreateMonitorInput!, days: Int = 30): MonitorPreview
      }
    `,
    objects: {
      Query: {
        plans: {
          // A user's access token of the environment, like `monitors` (plugins/require-api-token.ts).
          monitorPreview: {
            scope: { isUserTokenField: true },
            plan: (_, fieldArgs) =>
              loadOneWithPgClient(monitors.executor, fieldArgs.getRaw() as Step<PreviewArguments>, loadPreviews),
          },
        },
      },
      MonitorPreview: {
        plans: {
          byDay: ($preview) => access($preview, "by_day"),
          items: ($preview) => access($preview, "items"),
          bursts: ($preview) => access($preview, "bursts"),
          messages: ($preview) => messagesOf(access<string[]>($preview, "message_uuids")),
        },
      },
      MonitorPreviewBurst: {
        plans: {
          messages: ($burst) => messagesOf(access<string[]>($burst, "messageUuids")),
        },
      },
    },
  };
}, "MonitorPreviewPlugin");
