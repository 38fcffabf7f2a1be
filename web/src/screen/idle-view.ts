// The idle screen's side: the latest incidents the screen's monitors matched, the weather warnings
// for the station's province, the NL-Alerts and traffic around it (area.ts says what "around" is),
// and the crew's availability. Each list is drawn again only when what it shows changed.
import { h, replaceChildren } from "../dom.ts";
import { language, t } from "../i18n.ts";
import type { ProvinceWarning } from "../map/layers/weather-layer.ts";
import type { NlAlerts } from "../map/layers/nl-alert-layer.ts";
import { AREA_KM } from "./area.ts";
import type { ScreenData } from "./alarm-state.ts";
import { placeOf, urgencyBadge } from "./match-words.ts";
import type { TrafficIncident } from "./nearby-traffic.ts";
import { timeOfDay } from "./screen-texts.ts";

/** The latest incidents listed: the newest few fit a screen read from across a room. */
const LISTED = 6;

export interface IdleView {
  element: HTMLElement;
  showScreen(screen: ScreenData): void;
  showWarnings(province: string | null, warnings: ProvinceWarning[]): void;
  showAlerts(alerts: NlAlerts): void;
  showTraffic(incidents: TrafficIncident[]): void;
}

/** A section with a heading and a list that is drawn again only when its items' texts change. */
function section(id: string, heading: string, empty: string) {
  const title = h("h2", { id }, heading);
  const list = h("ul", { class: "screen-list" });
  const none = h("p", { class: "screen-none" }, empty);
  const element = h("section", { class: `screen-section ${id}`, "aria-labelledby": id }, title, list, none);
  let drawn = "";
  return {
    element,
    title,
    show(key: string, items: HTMLElement[] | (() => HTMLElement[])) {
      if (key === drawn) return;
      drawn = key;
      const made = typeof items === "function" ? items() : items;
      replaceChildren(list, ...made);
      list.hidden = made.length === 0;
      none.hidden = made.length > 0;
    },
  };
}

/** The live map's word for a kind of traffic incident, else the feed's own. */
function trafficKind(type: string): string {
  const word = t(`traffic.${type}`);
  return word === `traffic.${type}` ? type : word;
}

export function idleView(): IdleView {
  const recent = section("screen-recent", t("screen.recent"), t("screen.recentNone"));
  const weather = section("screen-weather", t("screen.weatherHere"), t("screen.weatherNone"));
  const alerts = section("screen-alerts", t("screen.alerts").replace("{km}", String(AREA_KM)), t("screen.alertsNone"));
  const traffic = section(
    "screen-traffic",
    t("screen.traffic").replace("{km}", String(AREA_KM)),
    t("screen.trafficNone"),
  );
  const crew = section("screen-crew", t("screen.crew"), "");
  const element = h(
    "div",
    { class: "screen-idle" },
    recent.element,
    h("div", { class: "screen-feeds" }, weather.element, alerts.element, traffic.element),
    crew.element,
  );

  return {
    element,
    showScreen(screen) {
      const listed = screen.matches.slice(0, LISTED);
      recent.show(listed.map((match) => match.messageUuid).join(" "), () =>
        listed.map((match) => {
          // The plain words start with the urgency ("A1 spoed, …"); a page without them gets a badge.
          const badge = match.plainText ? null : urgencyBadge(match);
          return h(
            "li",
            { class: "screen-match" },
            h(
              "span",
              { class: "screen-match-title" },
              badge ? h("span", { class: "screen-badge" }, badge) : null,
              badge ? " " : null,
              match.plainText ?? match.message,
            ),
            h(
              "span",
              { class: "screen-match-meta" },
              [timeOfDay(match.lastSended), placeOf(match), match.monitorName].filter(Boolean).join(" · "),
            ),
          );
        }),
      );
      // An availability past its until no longer holds; nothing tells the screen when it passes,
      // so the view is shown again each minute (live-screen.ts) and looks at the time itself.
      const now = Date.now();
      const members = screen.crew.filter(
        (member) => member.availability && (!member.until || Date.parse(member.until) > now),
      );
      crew.element.hidden = members.length === 0;
      crew.show(members.map((member) => `${member.name} ${member.availability}`).join("\n"), () =>
        members.map((member) =>
          h(
            "li",
            { class: "screen-crew-member", "data-availability": member.availability },
            `${member.name}: ${t(`screen.crew.${member.availability}`)}`,
          ),
        ),
      );
    },
    showWarnings(province, warnings) {
      weather.title.textContent = province
        ? t("screen.weather").replace("{province}", province)
        : t("screen.weatherHere");
      const here = province ? warnings.filter((warning) => warning.name === province) : warnings;
      weather.show(here.map((warning) => `${warning.name} ${warning.level}`).join("\n"), () =>
        here.map((warning) =>
          h(
            "li",
            { class: `screen-warning level-${warning.level}` },
            `${warning.name}: ${t(`weather.level${warning.level}`)}`,
          ),
        ),
      );
    },
    showAlerts(list) {
      alerts.show(list.map((alert) => alert.uuid).join(" ") + language, () =>
        list.map((alert) =>
          h("li", { class: "screen-alert" }, (language === "en" && alert.messageEn) || alert.messageNl),
        ),
      );
    },
    showTraffic(incidents) {
      traffic.show(incidents.map((incident) => incident.uuid).join(" "), () =>
        incidents.map((incident) =>
          h(
            "li",
            { class: "screen-traffic-item" },
            [trafficKind(incident.type), incident.roadNumber].filter(Boolean).join(" "),
          ),
        ),
      );
    },
  };
}
