// Where an e-mailed link went, in the console's words, when the installation (web/src/api/installation.ts)
// sends no e-mail and writes it to the service's log instead.
import type { Api } from "../api/client.ts";
import { installation } from "../api/installation.ts";
import { addTexts, t } from "../i18n.ts";

addTexts({
  "installation.mailInLog": {
    nl: "Deze installatie verstuurt geen e-mail (er is geen SMTP_URL ingesteld): de link staat in het log van de dienst, op de regel die begint met \u201c>>> E-MAIL\u201d. Draai je de dienst zelf, kijk dan daar; anders vraag je het aan wie hem beheert.",
    en: "This installation sends no e-mail (no SMTP_URL is set): the link is in the service's log, on the line that starts with \u201c>>> E-MAIL\u201d. If you run the service, look there; otherwise ask whoever runs it.",
  },
});

/** The sentence that says where an e-mailed link went, when it went only to the service's log. */
export async function mailInLogNotice(api: Api): Promise<string | null> {
  return (await installation(api)).emailDelivery === "log" ? t("installation.mailInLog") : null;
}
