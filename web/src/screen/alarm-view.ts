// The alarm's side of the screen, read from across the room: the urgency and the time since the
// alarm, the page in plain words and as sent, the place and its distance from the station (a
// straight line: the service has no routing data, and the screen says so), the units paged, who is
// coming with their arrival estimate and who is not, a re-alert, and the way back to idle (by
// itself at alarmMinutes after the last page, or with the button). Its elements are made once and
// filled again at each update.
import { h, replaceChildren } from "../dom.ts";
import { formatNumber, t } from "../i18n.ts";
import { distanceKm } from "./area.ts";
import { alarmEnds, elapsedText, type Match, type ScreenData } from "./alarm-state.ts";
import { placeOf, urgencyBadge } from "./match-words.ts";
import { stationOf } from "./screen-map.ts";
import { timeOfDay } from "./screen-texts.ts";

export interface AlarmView {
  element: HTMLElement;
  show(screen: ScreenData, match: Match, startedAt: number): void;
  /** The elapsed time, each second. */
  tick(now: number): void;
}

export function alarmView(onIdle: () => void): AlarmView {
  const badge = h("span", { class: "alarm-badge" });
  const elapsed = h("span", { class: "alarm-elapsed", role: "timer", "aria-label": t("screen.elapsed") });
  const plain = h("p", { class: "alarm-plain" });
  const raw = h("p", { class: "alarm-raw" });
  const place = h("p", { class: "alarm-place" });
  const distance = h("p", { class: "alarm-distance" });
  const units = h("ul", { class: "alarm-units" });
  const reAlert = h("p", { class: "alarm-re-alert", role: "alert", hidden: true });
  const coming = h("p", { class: "alarm-coming" });
  const responders = h("ul", { class: "alarm-responders" });
  const idleAt = h("p", { class: "alarm-idle-at" });
  const back = h("button", { type: "button", class: "alarm-back" }, t("screen.toIdle"));
  back.addEventListener("click", onIdle);
  const element = h(
    "section",
    { class: "screen-alarm", "aria-labelledby": "alarm-heading" },
    h(
      "div",
      { class: "alarm-head" },
      h("h2", { id: "alarm-heading", class: "alarm-heading" }, t("screen.alarm"), " ", badge),
      h("p", { class: "alarm-clock" }, elapsed, " ", h("span", { class: "alarm-since" }, t("screen.elapsed"))),
    ),
    plain,
    h("p", { class: "alarm-raw-label" }, t("screen.pagerText")),
    raw,
    place,
    distance,
    reAlert,
    h(
      "div",
      { class: "alarm-columns" },
      h(
        "section",
        { "aria-labelledby": "alarm-responders-heading" },
        h("h3", { id: "alarm-responders-heading" }, t("screen.responders")),
        coming,
        responders,
      ),
      h(
        "section",
        { "aria-labelledby": "alarm-units-heading" },
        h("h3", { id: "alarm-units-heading" }, t("screen.units")),
        units,
      ),
    ),
    h("div", { class: "alarm-foot" }, back, idleAt),
  );
  const responderLine = (responder: Match["responders"][number], now: number) => {
    if (!responder) return null;
    const going = responder.status === "going";
    const eta = responder.arrivesAt ? Date.parse(responder.arrivesAt) : null;
    const minutes = eta === null ? null : Math.max(0, Math.round((eta - now) / 60_000));
    const when =
      eta === null
        ? null
        : t(minutes ? "screen.arrives" : "screen.arrived")
            .replace("{time}", timeOfDay(eta))
            .replace("{minutes}", String(minutes));
    return h(
      "li",
      { class: "alarm-responder", "data-status": responder.status },
      h("span", { class: "responder-name" }, responder.name),
      " ",
      h("span", { class: "responder-status" }, t(going ? "screen.going" : "screen.cancelled")),
      when ? h("span", { class: "responder-eta" }, ` · ${when}`) : null,
    );
  };

  let since = 0;
  /** The answers shown, drawn again each minute so that "(5 min)" counts down. */
  let answers: Match["responders"] = [];
  let drawnMinute = 0;
  const drawResponders = (now: number) => {
    drawnMinute = Math.floor(now / 60_000);
    replaceChildren(responders, ...answers.map((responder) => responderLine(responder, now)));
  };

  return {
    element,
    show(screen, match, startedAt) {
      since = startedAt;
      badge.textContent = urgencyBadge(match) ?? "";
      badge.hidden = !badge.textContent;
      plain.textContent = match.plainText ?? match.message;
      raw.textContent = match.message;
      // The plain words name the place already ("A1 spoed, ambulance, Bachplein, Schiedam").
      place.textContent = match.plainText ? "" : (placeOf(match) ?? "");
      place.hidden = !place.textContent;
      const station = stationOf(screen);
      distance.textContent =
        station && match.latitude !== null && match.longitude !== null
          ? t("screen.distance").replace(
              "{km}",
              formatNumber(
                Math.round(distanceKm(station, { latitude: match.latitude, longitude: match.longitude }) * 10) / 10,
              ),
            )
          : t("screen.noPosition");
      replaceChildren(units, ...match.units.filter(Boolean).map((unit) => h("li", {}, unit)));
      reAlert.hidden = !match.reAlertedAt;
      reAlert.textContent = match.reAlertedAt
        ? t("screen.reAlert").replace("{time}", timeOfDay(match.reAlertedAt))
        : "";
      const answered = match.responders.filter((responder) => responder !== null);
      const going = answered.filter((responder) => responder.status === "going").length;
      coming.textContent = match.comingWanted
        ? t("screen.responders.wanted")
            .replace("{coming}", String(going))
            .replace("{wanted}", String(match.comingWanted))
        : answered.length
          ? t("screen.responders.count").replace("{coming}", String(going))
          : t("screen.responders.none");
      answers = answered;
      drawResponders(Date.now());
      idleAt.textContent = t("screen.idleAt").replace("{time}", timeOfDay(alarmEnds(screen, match)));
    },
    tick(now) {
      elapsed.textContent = elapsedText(now - since);
      if (Math.floor(now / 60_000) !== drawnMinute) drawResponders(now);
    },
  };
}
