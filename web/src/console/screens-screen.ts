// Station screens of the current environment (issue 49): a TV or tablet on a station's wall that
// shows what happens around the station and turns to an alarm when one of its monitors matches.
// Pairing works as TV apps do: the screen opens /screen and shows a short code; a member types it
// here with a name, the monitors to show, how long an alarm stays and, optionally, where the station
// is (pairStationScreen); the screen then takes its own read-only credential. The list says whether
// each screen has connected and when it was last seen; Change sets its name, monitors, minutes and
// place (updateStationScreen), Remove revokes its credential after a confirmation
// (deleteStationScreen): the screen shows a pairing code again.
import "./monitors/monitor-texts.ts";
import type { Api } from "../api/client.ts";
import { graphql, type ResultOf } from "../api/graphql.ts";
import { h, replaceChildren } from "../dom.ts";
import { addTexts, formatDateTime, formatNumber, t } from "../i18n.ts";
import type { ConsoleScreen } from "./console-context.ts";
import { confirmDialog } from "./confirm.ts";
import { actionButton, checkboxesField, consoleForm, statusLine, textField, type FormField } from "./form.ts";
import { addressSearch, locationSearch } from "./monitors/address-search.ts";
import { typeLabel } from "./monitors/monitor-form.ts";

addTexts({
  "screens.heading": { nl: "Stationsschermen", en: "Station screens" },
  "screens.why": {
    nl: "Een scherm aan de muur van de kazerne (een tv of tablet): in rust toont het wat er rond de kazerne gebeurt, bij een treffer van een van zijn monitors slaat het alarm, met wie er komen.",
    en: "A screen on the station's wall (a TV or tablet): idle it shows what happens around the station; when one of its monitors matches it turns to an alarm, with who is coming.",
  },
  "screens.pair": { nl: "Een scherm koppelen", en: "Pair a screen" },
  "screens.how1": {
    nl: "Open {address} op de tv of tablet, op volledig scherm.",
    en: "Open {address} on the TV or tablet, full screen.",
  },
  "screens.how2": {
    nl: "Het scherm toont een code zoals ABC-DEF. Typ die hieronder binnen 10 minuten, met de monitors die het moet tonen.",
    en: "The screen shows a code such as ABC-DEF. Type it below within 10 minutes, with the monitors it is to show.",
  },
  "screens.how3": {
    nl: "Het scherm verbindt zich binnen enkele seconden vanzelf. Niets in te loggen op de tv.",
    en: "The screen connects by itself within seconds. Nobody signs in on the TV.",
  },
  "screens.code": { nl: "Code op het scherm", en: "Code on the screen" },
  "screens.codeHint": {
    nl: "Zes letters en cijfers; hoofdletters en het streepje maken niet uit.",
    en: "Six letters and digits; capitals and the dash do not matter.",
  },
  "screens.nameHint": {
    nl: "De kazerne of ruimte, zoals \u201cKazerne Oss\u201d.",
    en: "The station or room, such as \u201cKazerne Oss\u201d.",
  },
  "screens.monitors": { nl: "Monitors op het scherm", en: "Monitors on the screen" },
  "screens.monitorsHint": {
    nl: "1 tot 20. Een treffer van een van deze monitors is een alarm op het scherm.",
    en: "1 to 20. A match of any of these monitors is an alarm on the screen.",
  },
  "screens.noMonitors": {
    nl: "Deze omgeving heeft nog geen monitors; een scherm toont er minstens één.",
    en: "This environment has no monitors yet; a screen shows at least one.",
  },
  "screens.makeMonitor": { nl: "Een monitor maken", en: "Make a monitor" },
  "screens.alarmMinutes": { nl: "Alarm in minuten", en: "Alarm in minutes" },
  "screens.alarmMinutesHint": {
    nl: "Zo lang blijft het alarm staan na het laatste bericht over het incident (1 tot 240); daarna is het scherm weer in rust.",
    en: "How long the alarm stays after the incident's last page (1 to 240); then the screen is idle again.",
  },
  "screens.place": { nl: "Waar de kazerne staat (niet verplicht)", en: "Where the station is (optional)" },
  "screens.placeHint": {
    nl: "Typ het adres en kies een suggestie: de kaart in rust staat daar, en de lijn naar een incident begint daar.",
    en: "Type the address and pick a suggestion: the idle map is centred there, and the line to an incident starts there.",
  },
  "screens.placeAt": { nl: "De kazerne: {name} ({lat}, {lon}).", en: "The station: {name} ({lat}, {lon})." },
  "screens.placeAtPoint": { nl: "De kazerne: {lat}, {lon}.", en: "The station: {lat}, {lon}." },
  "screens.placeFirst": {
    nl: "Geen plaats gekozen: de plaats van de eerste monitor met een gebied wordt gebruikt.",
    en: "No place chosen: the place of the first monitor with an area is used.",
  },
  "screens.placeClear": { nl: "De plaats van de eerste monitor gebruiken", en: "Use the first monitor's place" },
  "screens.pairButton": { nl: "Scherm koppelen", en: "Pair the screen" },
  "screens.paired": {
    nl: "Gekoppeld: \u201c{name}\u201d. Het scherm verbindt zich binnen enkele seconden.",
    en: "Paired: \u201c{name}\u201d. The screen connects within seconds.",
  },
  "screens.change": { nl: "Wijzigen", en: "Change" },
  "screens.changeHeading": { nl: "Scherm \u201c{name}\u201d wijzigen", en: "Change the screen \u201c{name}\u201d" },
  "screens.saved": { nl: "Scherm opgeslagen.", en: "Screen saved." },
  "screens.list": { nl: "Schermen van deze omgeving", en: "Screens of this environment" },
  "screens.none": { nl: "Nog geen schermen.", en: "No screens yet." },
  "screens.connected": { nl: "Verbonden", en: "Connected" },
  "screens.waiting": { nl: "Wacht op het scherm", en: "Waiting for the screen" },
  "screens.shows": { nl: "toont", en: "shows" },
  "screens.alarmFor": { nl: "alarm {minutes} minuten", en: "alarm for {minutes} minutes" },
  "screens.lastSeen": { nl: "laatst gezien {time}", en: "last seen {time}" },
  "screens.notSeen": { nl: "nog niet gezien", en: "not seen yet" },
  "screens.remove": { nl: "Verwijderen", en: "Remove" },
  "screens.removeQuestion": {
    nl: "Scherm \u201c{name}\u201d verwijderen? Het scherm kan dan meteen niets meer lezen en toont weer een koppelcode.",
    en: "Remove the screen \u201c{name}\u201d? It can read nothing more from now on, and goes back to showing a pairing code.",
  },
  "screens.removed": { nl: "Scherm verwijderd.", en: "Screen removed." },
});

const ScreensQuery = graphql(`
  query ConsoleStationScreens {
    stationScreens {
      uuid
      name
      latitude
      longitude
      alarmMinutes
      paired
      lastSeenAt
      monitors {
        uuid
        name
      }
    }
    monitors {
      uuid
      name
      type
    }
  }
`);

type Data = ResultOf<typeof ScreensQuery>;
type StationScreen = Data["stationScreens"][number];
type Monitor = NonNullable<Data["monitors"]>[number];

const PairMutation = graphql(`
  mutation ConsolePairStationScreen($input: PairStationScreenInput!) {
    pairStationScreen(input: $input) {
      uuid
      name
    }
  }
`);

const UpdateMutation = graphql(`
  mutation ConsoleUpdateStationScreen($input: UpdateStationScreenInput!) {
    updateStationScreen(input: $input) {
      uuid
    }
  }
`);

const DeleteMutation = graphql(`
  mutation ConsoleDeleteStationScreen($uuid: UUID!) {
    deleteStationScreen(uuid: $uuid)
  }
`);

interface Point {
  latitude: number;
  longitude: number;
}

/**
 * Where the station is: an address picked from the suggestions (the monitor form's search), or
 * none, when the service takes the first monitor's place.
 */
function stationPlace(api: Api, initial: Point | null): { element: HTMLElement; point(): Point | null } {
  let point = initial;
  let named: string | null = null;
  const line = h("p", { class: "field-hint", id: "screen-place-chosen", "aria-live": "polite" });
  const clear = h("button", { type: "button" }, t("screens.placeClear"));
  const draw = () => {
    line.textContent = point
      ? t(named ? "screens.placeAt" : "screens.placeAtPoint")
          .replace("{name}", named ?? "")
          .replace("{lat}", point.latitude.toFixed(5))
          .replace("{lon}", point.longitude.toFixed(5))
      : t("screens.placeFirst");
    clear.hidden = !point;
  };
  const search = addressSearch({
    id: "screen-place",
    label: t("screens.place"),
    hint: t("screens.placeHint"),
    search: locationSearch(api),
    onChoose(suggestion) {
      point = { latitude: suggestion.latitude, longitude: suggestion.longitude };
      named = suggestion.label;
      draw();
    },
  });
  clear.addEventListener("click", () => {
    point = null;
    named = null;
    search.clear();
    draw();
  });
  draw();
  return {
    element: h("div", { class: "field console-screen-place" }, search.element, line, clear),
    point: () => point,
  };
}

export const screensScreen: ConsoleScreen = (root, { session, api, link }) => {
  const list = h("ul", { class: "rows", "aria-labelledby": "screens-list-heading" });
  const card = h("section", { class: "card", "aria-labelledby": "screen-form-heading" });
  const { element: status, say } = statusLine();
  let monitors: Monitor[] = [];

  /** The form to pair a screen (none given) or to change one: the same fields, less the code. */
  function drawForm(screen: StationScreen | null): void {
    const code = textField({
      id: "screen-code",
      label: t("screens.code"),
      hint: t("screens.codeHint"),
      required: true,
      apiNames: ["code"],
    });
    code.control.setAttribute("autocapitalize", "characters");
    code.control.setAttribute("spellcheck", "false");
    const name = textField({
      id: "screen-name",
      label: t("console.name"),
      hint: t("screens.nameHint"),
      required: true,
      value: screen?.name ?? "",
      apiNames: ["name"],
    });
    const shown = checkboxesField({
      id: "screen-monitors",
      legend: t("screens.monitors"),
      hint: monitors.length
        ? [t("screens.monitorsHint")]
        : [t("screens.noMonitors"), " ", link("/console/monitors/new", t("screens.makeMonitor"))],
      choices: monitors.map((monitor) => ({
        value: monitor.uuid,
        text: `${monitor.name} (${typeLabel([], monitor.type)})`,
      })),
      chosen: screen?.monitors.map((monitor) => monitor.uuid) ?? [],
      apiNames: ["monitors", "monitor"],
    });
    const minutes = textField({
      id: "screen-alarm-minutes",
      label: t("screens.alarmMinutes"),
      hint: t("screens.alarmMinutesHint"),
      type: "number",
      inputmode: "numeric",
      required: true,
      value: String(screen?.alarmMinutes ?? 30),
      apiNames: ["alarmMinutes"],
    });
    minutes.control.setAttribute("min", "1");
    minutes.control.setAttribute("max", "240");
    const place = stationPlace(
      api,
      screen?.latitude != null && screen.longitude != null
        ? { latitude: screen.latitude, longitude: screen.longitude }
        : null,
    );
    const fields: FormField[] = [...(screen ? [] : [code]), name, shown, minutes];
    const settings = () => ({
      name: name.control.value,
      monitorUuids: shown.values(),
      alarmMinutes: Number(minutes.control.value),
      latitude: place.point()?.latitude ?? null,
      longitude: place.point()?.longitude ?? null,
    });
    const form = consoleForm({
      id: "screen-form",
      fields,
      extra: [place.element],
      submitLabel: screen ? t("console.save") : t("screens.pairButton"),
      submit: async () => {
        if (screen) {
          await session.api.request(UpdateMutation, { input: { uuid: screen.uuid, ...settings() } });
          say(t("screens.saved"));
        } else {
          const { pairStationScreen } = await session.api.request(PairMutation, {
            input: { code: code.control.value, ...settings() },
          });
          say(t("screens.paired").replace("{name}", pairStationScreen?.name ?? ""));
        }
        drawForm(null);
        await show();
      },
    });
    const heading = screen ? t("screens.changeHeading").replace("{name}", screen.name) : t("screens.pair");
    replaceChildren(
      card,
      h("h2", { id: "screen-form-heading" }, heading),
      screen
        ? null
        : h(
            "ol",
            { class: "console-screen-how" },
            h("li", {}, t("screens.how1").replace("{address}", new URL("/screen", location.origin).href)),
            h("li", {}, t("screens.how2")),
            h("li", {}, t("screens.how3")),
          ),
      form.element,
      screen ? h("button", { type: "button", onclick: () => drawForm(null) }, t("console.cancel")) : null,
    );
  }

  function row(screen: StationScreen): HTMLElement {
    const change = h(
      "button",
      { type: "button", "aria-label": `${t("screens.change")}: ${screen.name}` },
      t("screens.change"),
    );
    change.addEventListener("click", () => {
      drawForm(screen);
      card.scrollIntoView({ block: "start" });
      document.getElementById("screen-name")?.focus();
    });
    return h(
      "li",
      { class: "row console-screen-row" },
      h(
        "div",
        {},
        h(
          "p",
          { class: "row-title" },
          screen.name,
          h(
            "span",
            { class: screen.paired ? "badge" : "badge quiet" },
            t(screen.paired ? "screens.connected" : "screens.waiting"),
          ),
        ),
        h(
          "p",
          { class: "row-meta" },
          [
            `${t("screens.shows")} ${screen.monitors.map((monitor) => monitor.name).join(", ")}`,
            t("screens.alarmFor").replace("{minutes}", formatNumber(screen.alarmMinutes)),
            screen.lastSeenAt
              ? t("screens.lastSeen").replace("{time}", formatDateTime(screen.lastSeenAt))
              : t("screens.notSeen"),
          ].join(" · "),
        ),
      ),
      h(
        "div",
        { class: "row-actions" },
        change,
        actionButton(
          t("screens.remove"),
          async () => {
            const question = t("screens.removeQuestion").replace("{name}", screen.name);
            if (!(await confirmDialog(question, t("screens.remove")))) return;
            await session.api.request(DeleteMutation, { uuid: screen.uuid });
            await show();
            say(t("screens.removed"));
          },
          say,
          { ariaLabel: `${t("screens.remove")}: ${screen.name}`, className: "danger" },
        ),
      ),
    );
  }

  async function show(): Promise<void> {
    const data = await session.api.request(ScreensQuery);
    monitors = data.monitors ?? [];
    // The form is drawn once the monitors to tick are known.
    if (!card.childElementCount) drawForm(null);
    replaceChildren(
      list,
      ...(data.stationScreens.length ? data.stationScreens.map(row) : [h("li", { class: "empty" }, t("screens.none"))]),
    );
  }

  root.append(
    h("h1", {}, t("screens.heading")),
    h("p", {}, t("screens.why")),
    card,
    h(
      "section",
      { "aria-labelledby": "screens-list-heading" },
      h("h2", { id: "screens-list-heading" }, t("screens.list")),
      status,
      list,
    ),
  );
  void show().catch((error: Error) => say(error.message));
};
