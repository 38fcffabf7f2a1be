// What this installation says of itself (the public `installation` query, issue 44): whether it
// runs with demo data (DEMO_DATA; the shell announces it with a banner on every screen), where
// e-mail goes (an SMTP server, or only the service's log), and which channel types it can deliver,
// with the settings an operator gives to enable the rest. Asked once per page with the page's
// public credential. A service that cannot say (a failed request, an older service) is taken as
// one without demo data that sends e-mail and delivers every type, as the page assumed before.
import type { Api } from "./client.ts";
import { graphql } from "./graphql.ts";

export const InstallationQuery = graphql(`
  query PageInstallation {
    installation {
      demoData
      emailDelivery
      channelTypes {
        type
        deliverable
        needs
      }
    }
  }
`);

export interface Installation {
  demoData: boolean;
  /** "smtp", or "log" when e-mails only go to the service's log. */
  emailDelivery: string;
  /** Per channel type: null when it can deliver, else the settings it needs. */
  needs(type: string): string | null;
}

const ASSUMED: Installation = { demoData: false, emailDelivery: "smtp", needs: () => null };
let asked: Promise<Installation> | undefined;

export function installation(api: Api): Promise<Installation> {
  asked ??= api
    .request(InstallationQuery)
    .then(({ installation: found }) => {
      const types = new Map(found.channelTypes.map((one) => [one.type, one]));
      return {
        demoData: found.demoData,
        emailDelivery: found.emailDelivery,
        needs: (type: string) => {
          const one = types.get(type);
          return one && !one.deliverable ? (one.needs ?? "?") : null;
        },
      };
    })
    .catch(() => {
      // Asked again next time (the connection may be back).
      asked = undefined;
      return ASSUMED;
    });
  return asked;
}
