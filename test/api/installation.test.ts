// installation (issue 44) over real HTTP: whether the installation shows demo data (read from
// app_private.installation at each request), where e-mail goes (SMTP or the log), and which channel
// types it can deliver, each enabled by the setting it names; a public read, so no token is a 401
// and the web application's shared credential may read it.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { makeServiceSchema } from "../../graphile.config.ts";
import { cacheRuleOf } from "../../lib/graphql/cache-rules.ts";
import { channelTypesFor } from "../../plugins/installation.ts";
import type { ConfigOverrides } from "../../lib/config.ts";
import { errorOf, startTestService, useTestService, type TestService } from "../helpers/service.ts";

const ctx = useTestService();

const INSTALLATION = "{ installation { demoData emailDelivery channelTypes { type deliverable needs } } }";
const ALL_TYPES = [
  "email",
  "sms",
  "webhook",
  "telegram",
  "ntfy",
  "pushover",
  "gotify",
  "discord",
  "slack",
  "webpush",
  "mqtt",
];

interface Installation {
  demoData: boolean;
  emailDelivery: string;
  channelTypes: Array<{ type: string; deliverable: boolean; needs: string | null }>;
}

async function installation(service: TestService = ctx.service): Promise<Installation> {
  const { secret } = await ctx.service.newToken();
  const answer = await service.graphql(INSTALLATION, { token: secret });
  expect(answer.status).toBe(200);
  expect(answer.body.errors).toBeUndefined();
  return answer.body.data.installation as Installation;
}

const typeOf = (answer: Installation, type: string) => answer.channelTypes.find((t) => t.type === type);

/** A second service on the test file's database, with other delivery settings. */
function useInstance(overrides: ConfigOverrides): { service: TestService } {
  const context = {} as { service: TestService };
  beforeAll(async () => {
    context.service = await startTestService(ctx.db, overrides);
  });
  afterAll(async () => {
    await context.service?.stop();
  });
  return context;
}

describe("installation", () => {
  test("without a token it is a 401, like every public read", async () => {
    const answer = await ctx.service.graphql(INSTALLATION);
    expect(answer.status).toBe(401);
    expect(errorOf(answer.body).code).toBe("UNAUTHENTICATED");
  });

  test("the web application's shared credential reads it", async () => {
    const config = (await (await fetch(new URL("/web/config.json", ctx.service.url))).json()) as { apiToken: string };
    const answer = await ctx.service.graphql("{ installation { emailDelivery } }", { token: config.apiToken });
    expect(answer.status).toBe(200);
    expect(answer.body.data.installation.emailDelivery).toBe("log");
  });

  test("demoData follows app_private.installation.demo_live_until, read at each request", async () => {
    await ctx.db.asOwner("update app_private.installation set demo_live_until = null");
    expect((await installation()).demoData).toBe(false);
    await ctx.db.asOwner("update app_private.installation set demo_live_until = now()");
    expect((await installation()).demoData).toBe(true);
    await ctx.db.asOwner("update app_private.installation set demo_live_until = null");
    expect((await installation()).demoData).toBe(false);
  });

  test("without SMTP_URL e-mail goes to the log and only the types that need no setting deliver", async () => {
    const answer = await installation();
    expect(answer.emailDelivery).toBe("log");
    expect(answer.channelTypes.map((t) => t.type)).toEqual(ALL_TYPES);
    expect(typeOf(answer, "email")).toEqual({ type: "email", deliverable: false, needs: "SMTP_URL" });
    expect(typeOf(answer, "sms")).toMatchObject({
      deliverable: false,
      needs: expect.stringContaining("SMS_PROVIDER_URL"),
    });
    expect(typeOf(answer, "telegram")).toEqual({ type: "telegram", deliverable: false, needs: "TELEGRAM_BOT_TOKEN" });
    expect(typeOf(answer, "pushover")).toEqual({ type: "pushover", deliverable: false, needs: "PUSHOVER_APP_TOKEN" });
    // The test services are given a VAPID key pair, as the embedded default generates one.
    expect(typeOf(answer, "webpush")).toEqual({ type: "webpush", deliverable: true, needs: null });
    for (const type of ["webhook", "ntfy", "gotify", "discord", "slack", "mqtt"]) {
      expect(typeOf(answer, type)).toEqual({ type, deliverable: true, needs: null });
    }
  });

  test("channelTypes lists exactly the types createChannel takes, in the console's order (channelTypes)", async () => {
    const { secret } = await ctx.service.newToken();
    const answer = await ctx.service.graphql("{ channelTypes { value } }", { token: secret });
    expect(answer.body.data.channelTypes.map((t: { value: string }) => t.value)).toEqual(ALL_TYPES);
  });

  test("without VAPID keys webpush names them", () => {
    const webpush = channelTypesFor(undefined).find((t) => t.type === "webpush");
    expect(webpush).toEqual({ type: "webpush", deliverable: false, needs: "VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY" });
  });

  describe("with the response cache on", () => {
    const cached = useInstance({ api: { responseCache: { maxBytes: 16 * 1024 * 1024, maxAgeMs: 60_000 } } });

    test("installation is never kept (its table sends no change notification): a change shows at once", async () => {
      expect(cacheRuleOf(await makeServiceSchema(ctx.db.authUrl), "installation")).toBeUndefined();
      await ctx.db.asOwner("update app_private.installation set demo_live_until = null");
      expect((await installation(cached.service)).demoData).toBe(false);
      await ctx.db.asOwner("update app_private.installation set demo_live_until = now()");
      expect((await installation(cached.service)).demoData).toBe(true);
      await ctx.db.asOwner("update app_private.installation set demo_live_until = null");
    });
  });

  describe("with SMTP_URL, SMS_PROVIDER_URL, TELEGRAM_BOT_TOKEN and PUSHOVER_APP_TOKEN set", () => {
    const configured = useInstance({
      delivery: {
        smtpUrl: "smtp://127.0.0.1:2525",
        sms: { providerUrl: "https://sms.example.org/send", providerToken: undefined, from: "Test" },
        telegram: { botToken: "123456:test-bot-token", apiUrl: "https://api.telegram.org" },
        pushover: { appToken: "azGDORePK8gMaC0QOYAMyEEuzJnyUi", apiUrl: "https://api.pushover.net" },
      },
    });

    test("e-mail goes by SMTP and every type is deliverable", async () => {
      const answer = await installation(configured.service);
      expect(answer.emailDelivery).toBe("smtp");
      expect(answer.channelTypes).toEqual(ALL_TYPES.map((type) => ({ type, deliverable: true, needs: null })));
    });
  });

  describe("with only TELEGRAM_BOT_TOKEN set", () => {
    const telegramOnly = useInstance({
      delivery: { telegram: { botToken: "123456:test-bot-token", apiUrl: "https://api.telegram.org" } },
    });

    test("telegram is enabled by its setting; e-mail and the others stay off", async () => {
      const answer = await installation(telegramOnly.service);
      expect(typeOf(answer, "telegram")).toEqual({ type: "telegram", deliverable: true, needs: null });
      expect(answer.emailDelivery).toBe("log");
      expect(typeOf(answer, "email")?.deliverable).toBe(false);
      expect(typeOf(answer, "pushover")?.deliverable).toBe(false);
    });
  });
});
