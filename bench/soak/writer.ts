// The soak's writer: an administrator publishing P2000 pages through createP2000Message (spec 4.2)
// at a steady rate, whatever the service answers: a page refused or unanswered (the database away)
// is not sent again, as a pager gateway moves on. Each page holds its number (so no two merge as
// copies of one message) and ends in a word of letters naming the run and its incident (not in a
// number, which would read as an incident number): dossiers group texts without their numbers, so
// three pages in a row make one incident, as real call-outs do, rather than one dossier of
// thousands. Each carries one to three of the monitors' capcodes, so
// that the report knows which monitors it must reach. "Acknowledged" is a 200 with the stored
// message's uuid; the report compares those with what the database holds at the end.
import type { RequestLog } from "./requests.ts";

export interface Page {
  /** The page's number in the run: the number its text ends with. */
  n: number;
  capcodes: string[];
  /** The stored message's uuid, when acknowledged. */
  uuid?: string;
  status: number;
  sentAt: number;
}

const MUTATION =
  "mutation ($i: CreateP2000MessageInput!) { createP2000Message(input: $i) { uuid sended capcodes { name } } }";
/** Texts as pagers show them (urgency, service, place), so that enrichment does its usual work. */
const TEXTS = [
  "A1 Ambulance Dorpsstraat Utrecht",
  "P 2 BDH-01 Buitenbrand Stationsweg Amersfoort",
  "A2 Ambu 09101 Kerkstraat Zeist",
  "P 1 BDH-03 Gebouwbrand Molenweg Nieuwegein",
  "B1 Ambulance Schoolstraat Houten",
];
/** A number in letters (a, b, …, z, ba, …): a word that survives the dossiers' removal of numbers. */
export function letters(value: number): string {
  let word = "";
  do {
    word = String.fromCharCode(97 + (value % 26)) + word;
    value = Math.floor(value / 26);
  } while (value > 0);
  return word;
}

/** A new access token well before the 15 minutes of one run out. */
const RELOGIN_MS = 10 * 60_000;
/** Pages in flight at most: a service that hangs does not pile up requests without bound. */
const MAX_IN_FLIGHT = 20;

export function startWriter(options: {
  log: RequestLog;
  /** Logs in (again) and gives a new access token; throws while the service cannot. */
  login: () => Promise<string>;
  accessToken: string;
  perSecond: number;
  capcodes: string[];
  /** Letters naming the run: its pages' texts hold "soak<runWord>". */
  runWord: string;
}) {
  const pages: Page[] = [];
  const recent: string[] = [];
  let token = options.accessToken;
  let loggedInAt = Date.now();
  let inFlight = 0;
  let sequence = 0;
  let relogging = false;

  const send = async () => {
    const n = ++sequence;
    const incident = Math.floor(n / 3);
    // One to three distinct capcodes of the monitors'.
    const count = 1 + (n % 3);
    const start = (n * 7) % options.capcodes.length;
    const capcodes = Array.from(
      { length: count },
      (_, k) => options.capcodes[(start + k * 13) % options.capcodes.length],
    );
    const page: Page = { n, capcodes, status: 0, sentAt: Date.now() };
    pages.push(page);
    if (inFlight >= MAX_IN_FLIGHT) return; // counted as sent and unanswered
    inFlight++;
    try {
      const { status, body } = await options.log.post("createP2000Message", token, MUTATION, {
        i: {
          message: `${TEXTS[incident % TEXTS.length]} ${n} soak${options.runWord}${letters(incident)}`,
          sended: new Date().toISOString(),
          capcodes: capcodes.map((name) => ({ name })),
        },
      });
      page.status = status;
      const stored = body.data?.createP2000Message as { uuid?: string } | null | undefined;
      if (status === 200 && stored?.uuid) {
        page.uuid = stored.uuid;
        recent.push(stored.uuid);
        if (recent.length > 200) recent.shift();
      }
    } finally {
      inFlight--;
    }
    if (Date.now() - loggedInAt > RELOGIN_MS && !relogging) {
      relogging = true;
      options
        .login()
        .then((fresh) => {
          token = fresh;
          loggedInAt = Date.now();
        })
        .catch(() => {}) // the next page tries again
        .finally(() => (relogging = false));
    }
  };

  const started = performance.now();
  let stopped = false;
  const sending: Promise<void>[] = [];
  // Evenly spaced by the clock, not by answers: a slow answer does not slow the writer down.
  const loop = (async () => {
    for (let i = 0; !stopped; i++) {
      const wait = started + (i * 1000) / options.perSecond - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (stopped) break;
      sending.push(send());
    }
  })();

  return {
    pages,
    recent: () => recent,
    async stop() {
      stopped = true;
      await loop;
      await Promise.all(sending);
    },
  };
}
