// Texts the console's screens share (each screen adds its own with addTexts).
import { addTexts, formatNumber, locale, t } from "../i18n.ts";

addTexts({
  "console.nav.label": { nl: "Mijn account", en: "My account" },
  "console.nav.overview": { nl: "Overzicht", en: "Overview" },
  "console.nav.account": { nl: "Profiel en sessies", en: "Profile and sessions" },
  "console.nav.organizations": { nl: "Organisaties", en: "Organisations" },
  "console.nav.tokens": { nl: "API-sleutels", en: "API tokens" },
  "console.nav.receivers": { nl: "Ontvangers", en: "Receivers" },
  "console.nav.channels": { nl: "Kanalen", en: "Channels" },
  "console.nav.monitors": { nl: "Monitors", en: "Monitors" },
  "console.nav.screens": { nl: "Schermen", en: "Screens" },
  "console.nav.crew": { nl: "Ploeg", en: "Crew" },
  "console.signOut": { nl: "Uitloggen", en: "Sign out" },
  "console.signedInAs": { nl: "Ingelogd als", en: "Signed in as" },
  "console.environment": { nl: "Omgeving", en: "Environment" },
  "console.email": { nl: "E-mailadres", en: "E-mail address" },
  "console.password": { nl: "Wachtwoord", en: "Password" },
  "console.passwordRules": {
    nl: "10 tot 128 tekens, minstens 4 verschillende, niet het eerste deel van je e-mailadres.",
    en: "10 to 128 characters, at least 4 different ones, not the first part of your e-mail address.",
  },
  "console.cancel": { nl: "Annuleren", en: "Cancel" },
  "console.save": { nl: "Opslaan", en: "Save" },
  "console.rename": { nl: "Naam wijzigen", en: "Rename" },
  "console.name": { nl: "Naam", en: "Name" },
  "console.delete": { nl: "Verwijderen", en: "Delete" },
  "console.never": { nl: "nooit", en: "never" },
  "console.copy": { nl: "Kopiëren", en: "Copy" },
  "console.copied": { nl: "Gekopieerd.", en: "Copied." },
});

const plurals = new Map<string, Intl.PluralRules>();

/**
 * A count with its noun in the reader's language: `{count}` in the key's `.one` or `.other` text
 * (Intl.PluralRules: "1 attempt", "2 attempts"; "1 poging", "2 pogingen"), never "attempt(s)".
 */
export function countText(key: string, count: number): string {
  const tag = locale();
  let rules = plurals.get(tag);
  if (!rules) plurals.set(tag, (rules = new Intl.PluralRules(tag)));
  return t(`${key}.${rules.select(count) === "one" ? "one" : "other"}`).replace("{count}", formatNumber(count));
}
