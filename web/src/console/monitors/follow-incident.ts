// "Tell me when this gets worse" (/console/monitors/follow/<incident>): the map's incident panel
// links here. It names the incident, offers the environment's channels (all ticked: most people
// have one phone), and follows it with followIncident, which makes a monitor that hears of the
// incident's raises only; then the monitor's page, where it can be paused or deleted.
import { h, replaceChildren } from "../../dom.ts";
import { formatDateTime, t } from "../../i18n.ts";
import type { ConsoleContext } from "../console-context.ts";
import { consoleForm, statusLine } from "../form.ts";
import { channelsField } from "./monitor-form.ts";
import { FollowedIncidentQuery, FollowIncidentMutation, MonitorChannelsQuery } from "./monitor-queries.ts";

export function followIncident(root: HTMLElement, context: ConsoleContext, incident: string): void {
  const { element: status, say } = statusLine();
  const section = h("section", { class: "follow-incident", "aria-labelledby": "follow-heading" });
  root.append(section);

  void Promise.all([
    context.api.request(FollowedIncidentQuery, { uuid: incident }),
    context.session.api.request(MonitorChannelsQuery),
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
          context.link("/console/channels", t("monitors.channels.make")),
        );
        return;
      }
      const chosen = channelsField(
        channels,
        channels.map((channel) => channel.uuid),
      );
      const form = consoleForm({
        id: "follow-form",
        fields: [chosen],
        submitLabel: t("monitors.follow.submit"),
        submit: async () => {
          const picked = chosen.values();
          if (!picked.length) {
            chosen.setError(t("monitors.follow.chooseChannel"));
            chosen.control.focus();
            return;
          }
          const { followIncident: follow } = await context.session.api.request(FollowIncidentMutation, {
            incident: dossier.uuid,
            channels: JSON.stringify(picked),
          });
          if (follow) context.go(`/console/monitors/${follow.uuid}`);
        },
      });
      replaceChildren(section, heading, about, explained, form.element);
    })
    .catch((error: Error) => {
      say(error.message);
      section.append(status);
    });
}
