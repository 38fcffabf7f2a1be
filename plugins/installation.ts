// installation (issue 44): what this installation offers, so the web application and the console can
// say it rather than let a person find out by failure: whether it shows the demo's synthetic data,
// where e-mail goes (SMTP or only the service's log), and which channel types it can deliver, with
// the settings an operator gives to enable the rest. A public read: it takes an API token (the web
// application's credential too; plugins/require-api-token.ts).
//
// The delivery facts come from config.delivery as the service started with it (the Web Push keys as
// lib/db/secrets.ts completed them); the senders in lib/monitors/channels/ refuse exactly these cases.
// demoData is read from app_private.installation, which only the owner reads, through the owner pool
// (as the account flows read app_private): one primary-key row per request. The field declares no
// reads (no `cacheReads` in its scope: lib/graphql/cache-rules.ts), so an operation asking for it is
// never cached: its answer depends on the configuration and on a table no data_changed notification
// covers.
import { constant, context, lambda } from "postgraphile/grafast";
import { extendSchema, gql } from "postgraphile/utils";
import type { DeliveryConfig } from "../lib/config.ts";
import { CHANNEL_TYPES, type ChannelType } from "../lib/monitors/notification.ts";
import { required, type ServiceRuntime } from "./service-runtime.ts";

export interface InstallationChannelType {
  type: ChannelType;
  deliverable: boolean;
  /** The settings that enable it, null when deliverable. */
  needs: string | null;
}

/** The settings each channel type needs, as its sender checks them; null when it needs none or has them. */
function needsOf(type: ChannelType, delivery: DeliveryConfig | undefined): string | null {
  switch (type) {
    case "email":
      return delivery?.smtpUrl ? null : "SMTP_URL";
    case "sms":
      return delivery?.sms.providerUrl ? null : "SMS_PROVIDER_URL (and SMS_PROVIDER_TOKEN if the provider wants one)";
    case "telegram":
      return delivery?.telegram.botToken ? null : "TELEGRAM_BOT_TOKEN";
    case "pushover":
      return delivery?.pushover.appToken ? null : "PUSHOVER_APP_TOKEN";
    case "webpush":
      // The embedded default generates a key pair (lib/db/secrets.ts); with DATABASE_URL they are set by hand.
      return delivery?.webPush.publicKey && delivery.webPush.privateKey
        ? null
        : "VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY";
    default:
      return null;
  }
}

/** Every channel type with whether `delivery` can deliver it (all undeliverable settings named). */
export function channelTypesFor(delivery: DeliveryConfig | undefined): InstallationChannelType[] {
  return CHANNEL_TYPES.map((type) => {
    const needs = needsOf(type, delivery);
    return { type, deliverable: needs === null, needs };
  });
}

/** Whether the installation has the demo's data, read through the owner pool (only the owner reads app_private). */
async function readDemoData(service: ServiceRuntime | undefined): Promise<boolean> {
  const { rows } = await required(service).accounts.ownerPool.query<{ demo: boolean }>(
    "select demo_live_until is not null as demo from app_private.installation",
  );
  return rows[0]?.demo ?? false;
}

/** A fact of config.delivery as the service runs with it. */
const fromDelivery =
  <T>(fact: (delivery: DeliveryConfig | undefined) => T) =>
  () =>
    lambda(context().get("service"), (service) => fact(required(service).monitors.delivery));

export const InstallationPlugin: GraphileConfig.Plugin = extendSchema({
  typeDefs: gql`
    """
    What this installation offers (issue 44): whether it shows demo data, how e-mail leaves, which channel types it can deliver.
    """
    type Installation {
      """
      True while this installation has the demo's synthetic data (DEMO_DATA): app_private.installation.demo_live_until is not null.
      """
      demoData: Boolean!
      """
      "smtp" when SMTP_URL is set; "log" when e-mails (verification links too) are only written to the service's log.
      """
      emailDelivery: String!
      """
      Every channel type createChannel takes, in the console's order, with whether this installation can deliver it.
      """
      channelTypes: [InstallationChannelType!]!
    }
    type InstallationChannelType {
      """
      The channel type as createChannel takes it (email, sms, webhook, telegram, ntfy, pushover, gotify, discord, slack, webpush, mqtt).
      """
      type: String!
      """
      False when the operator has not configured what it needs.
      """
      deliverable: Boolean!
      """
      The settings an operator gives to enable it (environment variables, e.g. "SMTP_URL"), null when deliverable.
      """
      needs: String
    }
    extend type Query {
      """
      What this installation offers: demo data, how e-mail leaves, which channel types it can deliver. Needs an API token.
      """
      installation: Installation!
    }
  `,
  objects: {
    Query: {
      plans: {
        installation: () => constant(true),
      },
    },
    Installation: {
      plans: {
        demoData: () => lambda(context().get("service"), readDemoData),
        emailDelivery: fromDelivery((delivery) => (delivery?.smtpUrl ? "smtp" : "log")),
        channelTypes: fromDelivery(channelTypesFor),
      },
    },
  },
});
