// rotateMonitorFeed and revokeMonitorFeed: the feed URL of a monitor (lib/monitors/feed-route.ts).
// The secret is made here, stored only as its SHA-256 by app_accounts.rotate_monitor_feed (which
// checks the caller and the monitor as updateMonitor does), and shown once, in the answer.
import { extendSchema, gql } from "postgraphile/utils";
import { mutationSteps } from "../lib/graphql/plan-steps.ts";
import { feedUrl, hashFeedSecret, newFeedSecret } from "../lib/monitors/feed-secrets.ts";
import { required } from "./service-runtime.ts";

export const MonitorFeedsPlugin: GraphileConfig.Plugin = extendSchema((build) => {
  const { run, sql } = mutationSteps(build);
  return {
    typeDefs: gql`
      """
      A monitor's feed URLs, shown only when made: the secret in them is not stored.
      """
      type MonitorFeed {
        """
        The monitor's recent matches as Atom (RFC 4287), for feed readers.
        """
        atomUrl: String!
        """
        The same matches with a place as GeoJSON (RFC 7946), for Home Assistant's geo_json_events.
        """
        geojsonUrl: String!
        """
        What the monitor matched that has a period (planned rail works, weather warnings, NL-Alerts)
        as iCalendar (RFC 5545), for calendar apps and Home Assistant's remote calendar.
        """
        icsUrl: String!
        createdAt: DateTime!
      }
      extend type Mutation {
        """
        Makes a secret feed URL for a monitor of the current environment, or a new one that replaces the
        old (which answers 404 from then on). Anyone with the URL can read the monitor's name and recent
        matches, nothing else; keep it like a password.
        """
        rotateMonitorFeed(monitor: String!): MonitorFeed
        """
        Ends a monitor's feed URL; true when it had one, false when it had none.
        """
        revokeMonitorFeed(monitor: String!): Boolean
      }
    `,
    objects: {
      Mutation: {
        plans: {
          rotateMonitorFeed: (_, fieldArgs) =>
            run(fieldArgs, async ({ monitor }, { visitor, service }) => {
              // Feed URLs start with the public URL (PUBLIC_URL) that account e-mails link to.
              const { publicUrl } = required(service).accounts;
              const secret = newFeedSecret();
              const [{ created_at }] = await visitor(
                "select to_json(app_accounts.rotate_monitor_feed($1, $2)) #>> '{}' as created_at",
                [monitor, hashFeedSecret(secret)],
              );
              return {
                atomUrl: feedUrl(publicUrl, secret, "atom"),
                geojsonUrl: feedUrl(publicUrl, secret, "geojson"),
                icsUrl: feedUrl(publicUrl, secret, "ics"),
                createdAt: created_at,
              };
            }),
          revokeMonitorFeed: (_, fieldArgs) =>
            sql(fieldArgs, "app_accounts.revoke_monitor_feed($1)", ({ monitor }) => [monitor]),
        },
      },
    },
  };
}, "MonitorFeedsPlugin");
