// "Tell me when this gets worse" (/console/monitors/follow/<incident>): the map's incident panel
// links here. It names the incident, offers the environment's channels (all ticked: most people
// have one phone), and follows it with followIncident, which makes a monitor that hears of the
// incident's raises only; then the monitor's page, where it can be paused or deleted.
import { h, replaceChildren } from "../../dom.ts";
import { formatDateTime, t } from "../../i18n.ts";
import type { ConsoleContext } from "../console-context.ts";
import { statusLine } from "../form.ts";
import { FollowedIncidentQuery, FollowIncidentMutation, MonitorsQuery } from "./monitor-queries.ts";

export function followIncident(root: HTMLElement, context: ConsoleContext, incident: string): void {
  const { element: status, say } = statusLine();
  const section = h("section", { class: "follow-incident", "aria-labelledby": "follow-heading" });
  root.append(section);

  void Promise.all([
    context.api.request(FollowedIncidentQuery, { uuid: incident }),
    context.session.api.request(MonitorsQuery),
  ])
    .then(([{ p2000Dossiers }, { channels }]) => {
      const dossier = p2000Dossiers[0];
      if (!dossier) {
        replaceChildren(section, h("h1", { id: "follow-heading" }, t("monitors.follow.notFound")));
        return;
      }
      const heading = h("h1", { id: "follow-heading" }, t("monitors.follow.heading"));
      const about = h(
        "p",
        { class: "follow-about", id: "follow-about" },
        h("strong", {}, dossier.title),
        ` · ${formatDateTime(dossier.firstSended)}`,
      );
      const explained = h("p", { class: "field-hint" }, t("monitors.follow.explained"));
      if (!channels?.length) {
        replaceChildren(
          section,
          heading,
          about,
          explained,
          h("p", { class: "notice", id: "follow-no-channel" }, t("monitors.follow.noChannel"), " "),
          context.link("/console/channels", t("monitors.follow.makeChannel")),
        );
        return;
      }
      const boxes = channels.map((channel) =>
        h("input", { type: "checkbox", value: channel.uuid, checked: true, id: `follow-channel-${channel.uuid}` }),
      );
      const submit = h("button", { type: "submit", class: "primary" }, t("monitors.follow.submit"));
      const form = h(
        "form",
        { id: "follow-form" },
        h(
          "fieldset",
          { class: "field checkboxes monitor-channels" },
          h("legend", {}, t("monitors.channels.legend")),
          ...channels.map((channel, index) =>
            h("label", { class: "checkbox" }, boxes[index], ` ${channel.name} (${channel.type})`),
          ),
        ),
        submit,
        status,
      );
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        const chosen = boxes.filter((box) => box.checked).map((box) => box.value);
        if (!chosen.length) return say(t("monitors.follow.chooseChannel"));
        submit.disabled = true;
        say(t("monitors.follow.saving"));
        context.session.api
          .request(FollowIncidentMutation, { incident: dossier.uuid, channels: JSON.stringify(chosen) })
          .then(({ followIncident: follow }) => {
            if (follow) context.go(`/console/monitors/${follow.uuid}`);
          })
          .catch((error: Error) => {
            submit.disabled = false;
            say(error.message);
          });
      });
      replaceChildren(section, heading, about, explained, form);
    })
    .catch((error: Error) => {
      say(error.message);
      section.append(status);
    });
}
