// Subscription fields (docs/live.md): each is named after the query a client already polls, takes
// that query's arguments and answers with its type. The events come from PostgreSQL NOTIFY
// (migration 000035), heard on the pgSubscriber's one LISTEN connection per API instance; each
// event is read back through the same SQL function as the query, as the subscriber (its API
// token's settings and RLS), so a subscription never shows what the query would not.
// - p2000Messages(filter): the new messages of one notification that pass the filter, oldest
//   first (app_public.p2000_messages_of_batch reads the filter as p2000Messages does).
// - p2000Dossier(dossier: { uuid }): the dossier again when it gets a message or its urgency or
//   GRIP is raised.
// - meteoRegions, trafficIncidents, nlAlerts, amberAlerts: the query's answer again whenever the
//   feed changes it (a warning event; an incident opened or closed; an alert issued or changed).
// - aircraftLive(icao): the aircraft again at each new state or position.
// - stationScreen: the screen again whenever its monitors match, its crew answers or its
//   settings change, on its credential's own channel (station_screen:<API token uuid>).
// Events that leave a subscriber nothing (an empty list, no dossier) are not sent
// (plugins/subscription-guard.ts).
import { context, lambda, listen, type FieldArgs, type Step } from "grafast";
import type { GraphQLFieldConfigMap, GraphQLOutputType } from "graphql";
import type { PgResource } from "postgraphile/@dataplan/pg";
import { SCREEN_SCOPE } from "../lib/auth/api-tokens.ts";
import { userError } from "../lib/graphql/errors.ts";

interface LiveField {
  /** The Query field it mirrors, and the name of the Subscription field. */
  field: string;
  /** The app_public function that answers an event. */
  functionName: string;
  /** The NOTIFY channel, from the field's arguments. */
  channel: (args: FieldArgs) => Step<string> | string;
  /** The first parameter is the notification's message uuids (not a client argument). */
  batch?: boolean;
  description: string;
}

/** A channel named after one thing (a dossier, an aircraft): the argument at `path`, lower case. */
function channelOf(prefix: string, path: string[], what: string) {
  return (args: FieldArgs) =>
    lambda(args.getRaw(path), (value: unknown) => {
      if (typeof value !== "string" || value.trim() === "" || value.length > 64) {
        throw userError(`This subscription needs ${what}.`, "BAD_USER_INPUT");
      }
      return `${prefix}:${value.trim().toLowerCase()}`;
    });
}

/** The channel of the request's own station screen, named by its credential (only a screen's credential reads it). */
function ownScreenChannel() {
  return lambda(context().get("pgSettings"), (settings: Record<string, string | undefined> | null) => {
    const token = settings?.["app.api_token_uuid"];
    if (!token || !settings?.["app.api_scopes"]?.split(" ").includes(SCREEN_SCOPE)) {
      throw userError("stationScreen is read with a station screen's credential (claimStationScreen).", "FORBIDDEN");
    }
    return `station_screen:${token}`;
  });
}

export const LIVE_FIELDS: readonly LiveField[] = [
  {
    field: "p2000Messages",
    functionName: "p2000_messages_of_batch",
    channel: () => "p2000_messages",
    batch: true,
    description:
      "New P2000 messages that pass the filter (the filter of p2000Messages), oldest first: one event per stored batch with matches.",
  },
  {
    field: "p2000Dossier",
    functionName: "p2000_dossier",
    channel: channelOf("p2000_dossier", ["dossier", "uuid"], "dossier.uuid"),
    description: "The dossier each time it gets a message or its urgency or GRIP level is raised (needs dossier.uuid).",
  },
  {
    field: "meteoRegions",
    functionName: "meteo_regions",
    channel: () => "meteo_regions",
    description: "The 12 provinces with their current level, each time a province's warning level or phenomena change.",
  },
  {
    field: "trafficIncidents",
    functionName: "traffic_incidents",
    channel: () => "traffic_incidents",
    description: "The trafficIncidents answer for these arguments, each time an incident is opened or closed.",
  },
  {
    field: "nlAlerts",
    functionName: "nl_alerts",
    channel: () => "nl_alerts",
    description: "The nlAlerts answer for these arguments, each time an NL-Alert is issued or changed.",
  },
  {
    field: "amberAlerts",
    functionName: "amber_alerts",
    channel: () => "amber_alerts",
    description: "The amberAlerts answer for these arguments, each time an AMBER alert is issued or changed.",
  },
  {
    field: "aircraftLive",
    functionName: "aircraft_live",
    channel: channelOf("aircraft", ["icao"], "icao (an ICAO address or registration)"),
    description: "One tracked aircraft (by ICAO address or registration) at each new state or position.",
  },
  {
    field: "stationScreen",
    functionName: "station_screen",
    channel: ownScreenChannel,
    description:
      "The station screen whose credential asks, again each time one of its monitors matches, its crew answers or its settings change.",
  },
];

function functionResource(build: GraphileBuild.Build, name: string): PgResource {
  const resource = Object.values(build.input.pgRegistry.pgResources).find(
    (r) => r.parameters && r.extensions?.pg?.schemaName === "app_public" && r.extensions.pg.name === name,
  );
  if (!resource) throw new Error(`SubscriptionsPlugin: no function app_public.${name}`);
  return resource as PgResource;
}

export const SubscriptionsPlugin: GraphileConfig.Plugin = {
  name: "SubscriptionsPlugin",
  version: "1.0.0",
  description: "Subscription fields that mirror the live queries, fed by PostgreSQL NOTIFY.",
  schema: {
    hooks: {
      GraphQLObjectType_fields(fields, build, { scope, fieldWithHooks }) {
        if (!scope.isRootSubscription) return fields;
        const queryFields = (build.getTypeByName("Query") as import("graphql").GraphQLObjectType).getFields();
        const added: GraphQLFieldConfigMap<unknown, unknown> = {};
        for (const live of LIVE_FIELDS) {
          const resource = functionResource(build, live.functionName);
          const eventParameter = live.batch ? resource.parameters![0] : undefined;
          const { makeArgs, makeFieldArgs } = build.pgGetArgDetailsFromParameters(
            resource,
            resource.parameters,
            live.batch ? 1 : 0,
          );
          added[live.field] = fieldWithHooks(
            { fieldName: live.field, pgFieldResource: resource },
            {
              description: live.description,
              type: queryFields[live.field].type as GraphQLOutputType,
              args: makeFieldArgs(),
              subscribePlan(_$root, fieldArgs) {
                return listen(context().get("pgSubscriber"), live.channel(fieldArgs), ($payload) => $payload);
              },
              plan($event: Step<string>, fieldArgs) {
                const args = makeArgs(fieldArgs);
                // An event that only says the answer changed reads it again: grafast runs a database
                // read inside the event's layer, so once per event.
                if (!eventParameter) return resource.execute(args);
                const $uuids = lambda($event, (payload: string) => (JSON.parse(payload) as { uuids: string[] }).uuids);
                return resource.execute([
                  { step: $uuids, pgCodec: eventParameter.codec, name: eventParameter.name ?? undefined },
                  ...args,
                ]);
              },
            },
          );
        }
        return build.extend(fields, added, "Adding the live subscription fields");
      },
    },
  },
};
