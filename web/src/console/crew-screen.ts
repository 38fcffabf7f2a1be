// The crew of the current environment (issue 49): every channel is a person (or a group) that alerts
// reach, listed with their availability, which a member sets here for anyone (setCrewAvailability):
// available, not available or not said, optionally until a time. The people set their own from a
// notification's respond link; the station screens show it. A screen of its own rather than a part
// of Screens: the crew is the environment's whether or not it has a screen (a reAlert rule leaves
// out those who said they are unavailable), and it changes daily where a screen is paired once.
import { graphql } from "../api/graphql.ts";
import { h, replaceChildren } from "../dom.ts";
import { addTexts, t } from "../i18n.ts";
import { availabilityForm, availabilityText } from "./availability.ts";
import { typeLabel } from "./channels/channel-kinds.ts";
import type { ConsoleScreen } from "./console-context.ts";
import { statusLine } from "./form.ts";

addTexts({
  "crew.heading": { nl: "Ploeg", en: "Crew" },
  "crew.why": {
    nl: "Iedereen die meldingen krijgt: elk kanaal van deze omgeving is een persoon (of een groep). Wie beschikbaar is, zien de stationsschermen en deze lijst; mensen zetten het ook zelf, via de reageerlink in een melding.",
    en: "Everyone who gets alerts: each channel of this environment is a person (or a group). Who is available shows on the station screens and in this list; people also set it themselves, from the respond link in an alert.",
  },
  "crew.list": { nl: "De ploeg van deze omgeving", en: "The crew of this environment" },
  "crew.none": {
    nl: "Nog geen kanalen: maak er een per persoon.",
    en: "No channels yet: make one for each person.",
  },
});

const CrewQuery = graphql(`
  query ConsoleCrew {
    crew {
      channelUuid
      name
      type
      availability
      until
    }
  }
`);

const SetAvailabilityMutation = graphql(`
  mutation ConsoleSetCrewAvailability($channel: UUID!, $status: String, $until: DateTime) {
    setCrewAvailability(channel: $channel, status: $status, until: $until) {
      availability
      until
    }
  }
`);

export const crewScreen: ConsoleScreen = (root, { session, link }) => {
  const list = h("ul", { class: "rows", "aria-labelledby": "crew-list-heading" });
  const { element: status, say } = statusLine();

  async function show(): Promise<void> {
    const { crew } = await session.api.request(CrewQuery);
    replaceChildren(
      list,
      ...(crew.length
        ? crew.map((member) => {
            const now = h("p", { class: "row-meta crew-availability", id: `crew-${member.channelUuid}-now` });
            now.textContent = availabilityText(member);
            const form = availabilityForm({
              id: `crew-${member.channelUuid}`,
              label: t("availability.of").replace("{name}", member.name),
              current: member,
              submitLabel: t("console.save"),
              className: "console-form inline",
              save: async (chosen, until) =>
                (
                  await session.api.request(SetAvailabilityMutation, {
                    channel: member.channelUuid,
                    status: chosen,
                    until,
                  })
                ).setCrewAvailability,
              saved: (answer) => (now.textContent = availabilityText(answer)),
            });
            // Each row's form is named by its person, so its Save button is told apart from the others'.
            form.element.setAttribute("aria-label", member.name);
            return h(
              "li",
              { class: "row crew-member" },
              h("div", {}, h("p", { class: "row-title" }, member.name, ` (${typeLabel(member.type)})`), now),
              form.element,
            );
          })
        : [h("li", { class: "empty" }, t("crew.none"), " ", link("/console/channels", t("console.nav.channels")))]),
    );
  }

  root.append(
    h("h1", {}, t("crew.heading")),
    h("p", {}, t("crew.why")),
    h(
      "section",
      { "aria-labelledby": "crew-list-heading" },
      h("h2", { id: "crew-list-heading" }, t("crew.list")),
      status,
      list,
    ),
  );
  void show().catch((error: Error) => say(error.message));
};
