// A respond link as a responder gets it: an administrator's e-mail channel to responder@example.org
// and a monitor of capcode 001420007 (Ambulance Rotterdam-Rijnmond), a page to that capcode, and
// the link in the notification mail the service sends (the mail sink is its SMTP server).
import type { MailSink } from "./mail-sink.ts";
import type { TestService } from "./service.ts";
import type { TestUser } from "./users.ts";

export const RESPONDER = "responder@example.org";

export async function respondLinkByMail(
  service: TestService,
  mail: MailSink,
  admin: TestUser,
): Promise<{ link: URL; monitorUuid: string }> {
  const call = async (query: string, variables: Record<string, unknown>) => {
    const { body } = await service.graphql(query, { token: admin.accessToken, variables });
    if (body.errors) throw new Error(body.errors[0].message);
    return body.data;
  };
  const { createChannel } = await call(
    "mutation ($i: CreateChannelInput!) { createChannel(input: $i) { channel { uuid } } }",
    { i: { type: "email", name: "Phone", emailAddress: RESPONDER } },
  );
  const { createMonitor } = await call("mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }", {
    i: {
      name: "Ambulance Schiedam",
      type: "p2000",
      query: JSON.stringify({ capcodes: ["001420007"] }),
      channels: JSON.stringify([createChannel.channel.uuid]),
    },
  });
  await call("mutation ($i: CreateP2000MessageInput!) { createP2000Message(input: $i) { uuid } }", {
    i: {
      message: "A1 AMBU 17107 Bachplein Schiedam SCHIDM bon 147008",
      sended: new Date().toISOString(),
      capcodes: [{ name: "001420007" }],
    },
  });
  // The subject is the page in plain words.
  const received = await mail.waitFor(RESPONDER, /^A1 spoed, ambulance, Bachplein, Schiedam$/);
  // The link exactly as the mail carries it (PUBLIC_URL/respond?token=…).
  return { link: new URL(mail.linkIn(received, "http://127.0.0.1")), monitorUuid: createMonitor.uuid };
}
