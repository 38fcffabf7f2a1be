// What a running service hands the plugins of graphile.config.ts's static preset (issue 46): its
// pools, its authentication, its settings and its caches. service.ts puts it in the preset it
// serves under the key `nlis`; the grafast context carries it to plans as `service`, and the
// middleware read it from their event's resolved preset. A preset without it (the schema export,
// a bench that only builds the schema) builds the same schema and serves nothing.
import type { AccountDeps } from "../lib/accounts/flows.ts";
import type { AiDefaults } from "../lib/ai/defaults.ts";
import type { Authenticate } from "../lib/auth/context.ts";
import type { TransportGuard } from "../lib/auth/transport-guard.ts";
import type { ApiConfig, DeliveryConfig } from "../lib/config.ts";
import type { ReadReplicas } from "../lib/db/read-replicas.ts";
import type { SubscriptionSlots } from "../lib/graphql/subscription-slots.ts";
import type { CachedAnswers } from "../lib/http/response-cache/answers.ts";

export interface ServiceRuntime {
  authenticate: Authenticate;
  /** The API-token rule of every transport (service.ts shares it with the SSE handler). */
  guard: TransportGuard;
  accounts: AccountDeps;
  monitors: {
    /** WEBHOOK_ALLOW_PRIVATE_TARGETS: checked when a webhook channel is saved, and again on delivery. */
    allowPrivateWebhookTargets: boolean;
    /** config.delivery: how sendTestNotification sends (the worker's settings); without it, it is refused. */
    delivery?: DeliveryConfig;
  };
  /** config.api: statement timeout, query limits, subscriptions per token (the AI defaults come loaded). */
  api: Omit<ApiConfig, "aiDefaultsFile" | "responseCache" | "graphiql">;
  aiDefaults: AiDefaults;
  /** The instance's response cache of public reads (started by its owner). */
  responseCache?: CachedAnswers;
  /** READ_REPLICA_URLS' replicas, which take the public reads (started by their owner). */
  replicas?: ReadReplicas;
  /** TRUST_PROXY: client addresses from X-Forwarded-For (the web client's subscriptions count per address). */
  trustProxy: boolean;
  /** The instance's subscription slots, which /ready reports (lib/graphql/subscription-slots.ts). */
  subscriptionSlots: SubscriptionSlots;
}

declare global {
  namespace GraphileConfig {
    interface Preset {
      /** The running service (plugins/service-runtime.ts); absent where only the schema is built. */
      nlis?: ServiceRuntime;
    }
  }
  namespace Grafast {
    interface Context {
      /** The running service, for plans (the preset's `nlis`). */
      service?: ServiceRuntime;
    }
  }
}

/**
 * The service a request is served by (a preset's `nlis`, or the context's `service`); only a
 * preset without one, which builds the schema and serves nothing, lacks it.
 */
export function required(service: ServiceRuntime | undefined): ServiceRuntime {
  if (!service) throw new Error("This preset builds the schema only: serve it with the service's runtime (nlis).");
  return service;
}
