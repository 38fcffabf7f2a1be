// webPushPublicKey: the VAPID application server key a browser subscribes with
// (pushManager.subscribe({ applicationServerKey })) before it creates a webpush channel. It is
// public by nature (every push service and every subscribing page sees it), and the page asking
// is a member's, holding the user's access token for createChannel, not an API token: so it needs
// no API token (marked as the account queries are; plugins/require-api-token.ts).
import { context, lambda } from "postgraphile/grafast";
import { extendSchema, gql } from "postgraphile/utils";
import { required } from "./service-runtime.ts";

/** The service's VAPID public key (base64url), null when Web Push is not set up. */
export const WebPushPlugin: GraphileConfig.Plugin = extendSchema({
  typeDefs: gql`
    extend type Query {
      """
      The VAPID public key (base64url, RFC 8292) to subscribe a browser with for a webpush channel:
      pushManager.subscribe({ userVisibleOnly: true, applicationServerKey }). Null when this server has no Web
      Push set up. Needs no API token.
      """
      webPushPublicKey: String
    }
  `,
  objects: {
    Query: {
      plans: {
        webPushPublicKey: {
          scope: { isUserTokenField: true },
          plan: () =>
            lambda(
              context().get("service"),
              (service) => required(service).monitors.delivery?.webPush.publicKey ?? null,
            ),
        },
      },
    },
  },
});
