// Station screens (issue 49, docs/screen.md): a screen on a station's wall pairs as TV apps do. It
// asks for a short code (requestScreenPairing) and shows it; a member types the code in the
// console with the screen's name and monitors (pairStationScreen); the screen, asking with the
// secret only it holds (claimStationScreen), then takes its credential: an API token with scope
// screen:read, made here and handed over once, which reads the screen (stationScreen, a SQL
// function) and the public feeds and nothing else of the environment. The crew's availability is
// set in the console (setCrewAvailability) or from a notification's respond link
// (respondAvailability). The SQL is in app_accounts; what needs Node here is the token's secret.
import { lambda, type FieldArgs, type Step } from "postgraphile/grafast";
import { extendSchema, gql } from "postgraphile/utils";
import { apiTokenPreview, generateApiTokenSecret, hashApiTokenSecret } from "../lib/auth/api-tokens.ts";
import { userError } from "../lib/graphql/errors.ts";
import { byUuid, mutationSteps } from "../lib/graphql/plan-steps.ts";

const WRONG_CODE =
  "No screen shows this code: check it, or the code has expired (a code lasts 10 minutes; the screen then shows a new one).";

/** The screen fields of pairStationScreen and updateStationScreen, in app_accounts' order after the code or uuid. */
function screenSettings(input: Record<string, unknown>): unknown[] {
  return [
    input.name ?? null,
    input.monitorUuids ?? null,
    input.latitude ?? null,
    input.longitude ?? null,
    input.alarmMinutes ?? null,
  ];
}

/** A crew_member row as CrewAvailabilityAnswer (a DateTime is sent as ISO 8601). */
function availabilityAnswer([row]: ReadonlyArray<{ name: string; availability: string | null; until: Date | null }>) {
  return { name: row.name, availability: row.availability, until: row.until?.toISOString() ?? null };
}

export const StationScreensPlugin = extendSchema((build) => {
  const { run, sql } = mutationSteps(build);
  const screens = build.input.pgRegistry.pgResources.station_screens_table;
  /** An availability set through app_accounts' function, whose first argument names whose (a channel, or a respond link's token). */
  const setAvailability = (fieldArgs: FieldArgs, sqlFunction: string, whose: "channel" | "token") =>
    run(fieldArgs, async (args, { visitor }) =>
      availabilityAnswer(
        await visitor(`select * from app_accounts.${sqlFunction}($1, $2, $3)`, [
          args[whose],
          args.status ?? null,
          args.until ?? null,
        ]),
      ),
    );
  return {
    typeDefs: gql`
      """
      A pairing under way: the screen shows the code and keeps the secret to itself.
      """
      type ScreenPairing {
        """
        What a person types in the console (pairStationScreen), as ABC-DEF.
        """
        code: String!
        """
        What the screen claims its credential with (claimStationScreen); never shown.
        """
        pairingSecret: String!
        """
        The code works until then (10 minutes).
        """
        expiresAt: DateTime!
      }
      input PairStationScreenInput {
        """
        The code the screen shows (case and the dash do not matter).
        """
        code: String!
        """
        1-100 characters: the station or room ("Kazerne Oss").
        """
        name: String!
        """
        1-20 monitors of the current environment the screen shows, in this order.
        """
        monitorUuids: [UUID!]!
        """
        Where the station is; without it, the first of the monitors with a location.
        """
        latitude: Float
        longitude: Float
        """
        How long the alarm stays after the incident's last page: 1-240 minutes (default 30).
        """
        alarmMinutes: Int
      }
      input UpdateStationScreenInput {
        uuid: UUID!
        name: String
        monitorUuids: [UUID!]
        """
        The station's point as given (null for both takes the first monitor's with a location).
        """
        latitude: Float
        longitude: Float
        alarmMinutes: Int
      }
      type ClaimStationScreenPayload {
        """
        The screen's credential (an API token with scope screen:read): given once, kept by the screen.
        """
        token: String!
        """
        The name the console gave the screen.
        """
        name: String!
      }
      """
      A crew member's availability as set.
      """
      type CrewAvailabilityAnswer {
        """
        The channel's name.
        """
        name: String!
        """
        available or unavailable; null when cleared.
        """
        availability: String
        until: DateTime
      }
      extend type Mutation {
        """
        A screen without a credential asks for a pairing code (needs an API token: the web application's).
        """
        requestScreenPairing: ScreenPairing
        """
        A member pairs the screen showing this code with the current environment: a new station screen showing
        these monitors. A wrong or expired code answers NOT_FOUND (10 wrong codes in 10 minutes: RATE_LIMITED).
        """
        pairStationScreen(input: PairStationScreenInput!): StationScreen
        """
        The screen takes its credential with its pairing secret: null while no member has typed its code, the
        token once paired (only once); an expired or unknown secret answers NOT_FOUND.
        """
        claimStationScreen(pairingSecret: String!): ClaimStationScreenPayload
        """
        Changes a station screen of the current environment; the screen shows the change at once.
        """
        updateStationScreen(input: UpdateStationScreenInput!): StationScreen
        """
        Removes a station screen and revokes its credential (the screen shows a pairing code again); true when removed.
        """
        deleteStationScreen(uuid: UUID!): Boolean
        """
        A member sets a crew member's (a channel's) availability: available, unavailable, or null to clear; until
        (optional, within 30 days) ends it.
        """
        setCrewAvailability(channel: UUID!, status: String, until: DateTime): CrewAvailabilityAnswer
        """
        With a notification's respond link as the credential (as respondOnTheWay), its recipient sets their
        availability: available, unavailable, or null to clear; until optional, within 30 days.
        """
        respondAvailability(token: String!, status: String, until: DateTime): CrewAvailabilityAnswer
      }
    `,
    objects: {
      Mutation: {
        plans: {
          requestScreenPairing: (_, fieldArgs) =>
            run(fieldArgs, async (_args, { visitor }) => {
              const [row] = await visitor(
                "select code, pairing_secret, expires_at from app_accounts.request_screen_pairing()",
              );
              return { code: row.code, pairingSecret: row.pairing_secret, expiresAt: row.expires_at };
            }),
          pairStationScreen: (_, fieldArgs) => {
            // A wrong code answers null from SQL, which keeps the failure (the transaction commits)
            // for the limit on wrong codes; the error is raised here, after.
            const $uuid = sql<string | null>(
              fieldArgs,
              "(app_accounts.pair_station_screen($1, $2, $3, $4, $5, $6)).uuid",
              ({ input }) => [input.code, ...screenSettings(input)],
            );
            return byUuid(
              screens,
              lambda($uuid, (uuid) => {
                if (!uuid) throw userError(WRONG_CODE, "NOT_FOUND");
                return uuid;
              }) as Step,
            );
          },
          claimStationScreen: (_, fieldArgs) =>
            run(fieldArgs, async ({ pairingSecret }, { visitor }) => {
              const token = generateApiTokenSecret();
              const [row] = await visitor(
                "select s.uuid, s.name from app_accounts.claim_station_screen($1, $2, $3) s",
                [pairingSecret, hashApiTokenSecret(token), apiTokenPreview(token)],
              );
              return row?.uuid ? { token, name: row.name } : null;
            }),
          updateStationScreen: (_, fieldArgs) =>
            byUuid(
              screens,
              sql(fieldArgs, "(app_accounts.update_station_screen($1, $2, $3, $4, $5, $6)).uuid", ({ input }) => [
                input.uuid,
                ...screenSettings(input),
              ]),
            ),
          deleteStationScreen: (_, fieldArgs) =>
            sql(fieldArgs, "(app_accounts.delete_station_screen($1)).uuid is not null", ({ uuid }) => [uuid]),
          setCrewAvailability: (_, fieldArgs) => setAvailability(fieldArgs, "set_crew_availability", "channel"),
          respondAvailability: (_, fieldArgs) => setAvailability(fieldArgs, "respond_availability", "token"),
        },
      },
    },
  };
}, "StationScreensPlugin");
