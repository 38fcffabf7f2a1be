// A crew member's availability (issue 49): available or not, until a time or until changed. A member
// sets it for anyone on the Crew screen (setCrewAvailability), the person themselves from a
// notification's respond link (respondAvailability); the station screen and the console show it.
// Both use this one form. Its "until" is Dutch time, as every time the console shows is, whatever
// zone the browser is in; the browser checks it lies in the next 30 days, as the API allows.
import { dateFormat, addTexts, formatDateTime, t } from "../i18n.ts";
import { consoleForm, selectField, textField, type ConsoleForm } from "./form.ts";

addTexts({
  "availability.label": { nl: "Beschikbaarheid", en: "Availability" },
  "availability.of": { nl: "Beschikbaarheid van {name}", en: "Availability of {name}" },
  "availability.available": { nl: "beschikbaar", en: "available" },
  "availability.unavailable": { nl: "niet beschikbaar", en: "not available" },
  "availability.none": { nl: "niet gezegd", en: "not said" },
  "availability.until": { nl: "Tot (niet verplicht)", en: "Until (optional)" },
  "availability.untilHint": {
    nl: "Nederlandse tijd, binnen 30 dagen. Leeg: tot het weer veranderd wordt.",
    en: "Dutch time, within 30 days. Empty: until it is changed again.",
  },
  "availability.untilTime": { nl: "{status} tot {time}", en: "{status} until {time}" },
  "availability.saved": { nl: "Opgeslagen: {availability}.", en: "Saved: {availability}." },
});

export interface Availability {
  availability: string | null;
  until: string | null;
}

const STATUSES = ["available", "unavailable"];
const DAYS_AHEAD = 30;

/** "available until 30 Nov 2026, 18:00", "not available", "not said". */
export function availabilityText({ availability, until }: Availability): string {
  if (!availability || !STATUSES.includes(availability)) return t("availability.none");
  const status = t(`availability.${availability}`);
  return until
    ? t("availability.untilTime").replace("{status}", status).replace("{time}", formatDateTime(until))
    : status;
}

/** A moment as a datetime-local value in Dutch time ("2026-11-30T18:00"). */
function dutchLocal(at: number): string {
  // Sweden writes dates and times as ISO 8601 does: "2026-11-30 18:00".
  const format = dateFormat(
    {
      timeZone: "Europe/Amsterdam",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    },
    "sv-SE",
  );
  return format.format(at).replace(" ", "T");
}

/** A datetime-local value read as Dutch time: the moment it is. */
function fromDutchLocal(value: string): Date {
  const asUtc = Date.parse(`${value}Z`);
  // Dutch time is one or two hours ahead of UTC; the offset is taken again at the moment found, for
  // the nights the clocks change.
  const offset = (at: number) => Date.parse(`${dutchLocal(at)}Z`) - at;
  return new Date(asUtc - offset(asUtc - offset(asUtc)));
}

/**
 * The form that sets an availability: available, not available or not said, and until when.
 * `save` sends it and answers what the API stored; the form then says it.
 */
export function availabilityForm(options: {
  id: string;
  label: string;
  current: Availability;
  submitLabel: string;
  save(status: string | null, until: string | null): Promise<Availability | null | undefined>;
  /** Called with what was stored (a list drawn again). */
  saved?(answer: Availability): void;
  className?: string;
}): ConsoleForm {
  const status = selectField({
    id: `${options.id}-status`,
    label: options.label,
    value: options.current.availability ?? "",
    apiNames: ["status"],
    choices: [...STATUSES, ""].map((value) => ({ value, text: t(`availability.${value || "none"}`) })),
  });
  const until = textField({
    id: `${options.id}-until`,
    label: t("availability.until"),
    hint: t("availability.untilHint"),
    type: "datetime-local",
    value: options.current.until ? dutchLocal(Date.parse(options.current.until)) : "",
    apiNames: ["until"],
  });
  until.control.setAttribute("min", dutchLocal(Date.now()));
  until.control.setAttribute("max", dutchLocal(Date.now() + DAYS_AHEAD * 24 * 3600_000));
  return consoleForm({
    id: options.id,
    className: options.className,
    fields: [status, until],
    submitLabel: options.submitLabel,
    secondary: true,
    submit: async () => {
      const chosen = status.control.value || null;
      // Not said has no end.
      const end = chosen && until.control.value ? fromDutchLocal(until.control.value).toISOString() : null;
      const answer = (await options.save(chosen, end)) ?? { availability: null, until: null };
      options.saved?.(answer);
      return t("availability.saved").replace("{availability}", availabilityText(answer));
    },
  });
}
