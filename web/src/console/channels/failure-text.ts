// Why a delivery failed, in the reader's words (issue 44): the delivery log keeps the receiver's
// error as the service met it ("getaddrinfo ENOTFOUND ntfy.sh", "HTTP 503: …", "No SMTP_URL is
// configured: …"); the console says what it means, in Dutch or English: a host name that does not
// exist, a refused connection, a timeout, TLS trouble, the receiver's HTTP status, a setting the
// installation lacks. A text it does not know is shown as it is. The service's log line says the
// same in English (failureInWords in lib/monitors/notification-delivery.ts).
import { addTexts, t } from "../../i18n.ts";

addTexts({
  "failure.dns": {
    nl: "De hostnaam {host} van de ontvanger bestaat niet (DNS).",
    en: "The receiver's host name {host} does not exist (DNS).",
  },
  "failure.dnsAgain": {
    nl: "De hostnaam {host} van de ontvanger kon niet worden opgezocht: DNS gaf geen antwoord.",
    en: "The receiver's host name {host} could not be looked up: DNS did not answer.",
  },
  "failure.refused": {
    nl: "De ontvanger op {address} weigerde de verbinding: daar luistert niets.",
    en: "The receiver at {address} refused the connection: nothing listens there.",
  },
  "failure.refusedSomewhere": {
    nl: "De ontvanger weigerde de verbinding: daar luistert niets.",
    en: "The receiver refused the connection: nothing listens there.",
  },
  "failure.timeout": {
    nl: "De ontvanger antwoordde niet binnen {seconds} s (time-out).",
    en: "The receiver did not answer within {seconds} s (timeout).",
  },
  "failure.timeoutSomewhere": {
    nl: "De ontvanger antwoordde niet op tijd (time-out).",
    en: "The receiver did not answer in time (timeout).",
  },
  "failure.unreachable": {
    nl: "De ontvanger is onbereikbaar: er is geen route naartoe.",
    en: "The receiver cannot be reached: there is no route to it.",
  },
  "failure.reset": {
    nl: "De ontvanger verbrak de verbinding voordat hij antwoordde.",
    en: "The receiver closed the connection before it answered.",
  },
  "failure.tlsExpired": {
    nl: "Het TLS-certificaat van de ontvanger is verlopen.",
    en: "The receiver's TLS certificate has expired.",
  },
  "failure.tlsSelfSigned": {
    nl: "Het TLS-certificaat van de ontvanger is zelf ondertekend en wordt daarom niet vertrouwd.",
    en: "The receiver's TLS certificate is self-signed, so it is not trusted.",
  },
  "failure.tlsUnverified": {
    nl: "Het TLS-certificaat van de ontvanger is niet te controleren (onbekende uitgever of onvolledige keten).",
    en: "The receiver's TLS certificate cannot be verified (an unknown issuer or an incomplete chain).",
  },
  "failure.tlsWrongHost": {
    nl: "Het TLS-certificaat van de ontvanger is niet voor {host}.",
    en: "The receiver's TLS certificate is not made out to {host}.",
  },
  "failure.tlsProtocol": {
    nl: "De TLS-verbinding met de ontvanger mislukte (spreekt hij https op die poort?).",
    en: "The TLS connection to the receiver failed (does it speak https on that port?).",
  },
  "failure.http": {
    nl: "De ontvanger antwoordde HTTP {code} ({meaning}).",
    en: "The receiver answered HTTP {code} ({meaning}).",
  },
  "failure.httpSaid": {
    nl: "De ontvanger antwoordde HTTP {code} ({meaning}): \u201c{body}\u201d.",
    en: "The receiver answered HTTP {code} ({meaning}): \u201c{body}\u201d.",
  },
  "failure.http.other": { nl: "een fout", en: "an error" },
  "failure.http.400": { nl: "ongeldig verzoek", en: "bad request" },
  "failure.http.401": { nl: "niet aangemeld: controleer de sleutel", en: "not authorised: check the key" },
  "failure.http.403": { nl: "geweigerd", en: "forbidden" },
  "failure.http.404": { nl: "niet gevonden: controleer het adres", en: "not found: check the address" },
  "failure.http.405": { nl: "methode niet toegestaan", en: "method not allowed" },
  "failure.http.408": { nl: "verzoek duurde te lang", en: "request timeout" },
  "failure.http.410": { nl: "verdwenen", en: "gone" },
  "failure.http.413": { nl: "te groot", en: "too large" },
  "failure.http.429": { nl: "te veel verzoeken", en: "too many requests" },
  "failure.http.500": { nl: "interne fout van de ontvanger", en: "the receiver's internal error" },
  "failure.http.502": { nl: "fout bij een tussenliggende server", en: "bad gateway" },
  "failure.http.503": { nl: "tijdelijk niet beschikbaar", en: "unavailable for now" },
  "failure.http.504": { nl: "tussenliggende server kreeg geen antwoord", en: "gateway timeout" },
  "failure.notConfigured": {
    nl: "Deze installatie kan geen {kind} afleveren: de beheerder heeft {setting} niet ingesteld.",
    en: "This installation cannot deliver {kind}: its operator has not set {setting}.",
  },
  "failure.kind.SMTP_URL": { nl: "e-mail", en: "e-mail" },
  "failure.kind.SMS_PROVIDER_URL": { nl: "sms", en: "SMS" },
  "failure.kind.TELEGRAM_BOT_TOKEN": { nl: "Telegram-berichten", en: "Telegram messages" },
  "failure.kind.PUSHOVER_APP_TOKEN": { nl: "Pushover-berichten", en: "Pushover messages" },
});

/** What an HTTP status means, in the reader's words. */
function statusMeaning(code: number): string {
  const key = `failure.http.${code}`;
  return t(key) === key ? t("failure.http.other") : t(key);
}

/** A delivery's error text in words; `responseCode` is the receiver's HTTP status, if it answered. */
export function failureText(error: string | null | undefined, responseCode: number | null = null): string {
  const text = (error ?? "").trim();
  const line = text.split("\n")[0];
  let found: RegExpExecArray | null;
  if ((found = /^HTTP (\d{3}):\s?([\s\S]*)$/.exec(text))) {
    const body = found[2].trim().replace(/\s+/g, " ").slice(0, 200);
    return t(body ? "failure.httpSaid" : "failure.http")
      .replace("{code}", found[1])
      .replace("{meaning}", statusMeaning(Number(found[1])))
      .replace("{body}", body);
  }
  if (!text && responseCode)
    return t("failure.http").replace("{code}", String(responseCode)).replace("{meaning}", statusMeaning(responseCode));
  if ((found = /getaddrinfo (?:ENOTFOUND|EAI_NONAME|EAI_NODATA|EAI_FAIL) (\S+)/.exec(line)))
    return t("failure.dns").replace("{host}", found[1]);
  if ((found = /^(\S+) has no (?:IPv\d )?address\.?$/.exec(line))) return t("failure.dns").replace("{host}", found[1]);
  if ((found = /getaddrinfo EAI_AGAIN (\S+)/.exec(line))) return t("failure.dnsAgain").replace("{host}", found[1]);
  if ((found = /ECONNREFUSED (\S+)/.exec(line))) return t("failure.refused").replace("{address}", found[1]);
  if (/ECONNREFUSED/.test(line)) return t("failure.refusedSomewhere");
  if ((found = /No answer within (\d+) ms/.exec(line)))
    return t("failure.timeout").replace("{seconds}", String(Number(found[1]) / 1000));
  if (/ETIMEDOUT|ESOCKETTIMEDOUT|\btimed out\b/i.test(line)) return t("failure.timeoutSomewhere");
  if (/EHOSTUNREACH|ENETUNREACH/.test(line)) return t("failure.unreachable");
  if (/ECONNRESET|socket hang up|EPIPE/.test(line)) return t("failure.reset");
  if (/certificate has expired|CERT_HAS_EXPIRED/i.test(line)) return t("failure.tlsExpired");
  if ((found = /Hostname\/IP does not match certificate's altnames: (?:Host|IP): (\S+?)\.? is not/.exec(line)))
    return t("failure.tlsWrongHost").replace("{host}", found[1]);
  if (/self[- ]signed certificate/i.test(line)) return t("failure.tlsSelfSigned");
  if (/unable to verify the first certificate|unable to get (?:local )?issuer certificate|UNABLE_TO_VERIFY/i.test(line))
    return t("failure.tlsUnverified");
  if (/wrong version number|EPROTO|packet length too long|ERR_SSL/i.test(line)) return t("failure.tlsProtocol");
  if ((found = /^No ([A-Z_]+) is configured/.exec(line))) {
    const kind = `failure.kind.${found[1]}`;
    if (t(kind) !== kind) return t("failure.notConfigured").replace("{kind}", t(kind)).replace("{setting}", found[1]);
  }
  return text;
}
