// The dashboards' own texts, Dutch and English (i18n.ts holds the shell's).
import { addTexts } from "../i18n.ts";

addTexts({
  "dash.title": { nl: "Dashboards", en: "Dashboards" },
  "dash.intro": {
    nl: "Cijfers uit de opgeslagen meldingen en waarschuwingen. Echte meldingen, geen oefeningen of proefalarmen.",
    en: "Figures from the stored messages and warnings. Real alerts, no exercises or test pages.",
  },
  "dash.choice": { nl: "Keuze", en: "Choice" },
  "dash.period": { nl: "Periode", en: "Period" },
  "dash.period.7d": { nl: "Laatste 7 dagen", en: "Last 7 days" },
  "dash.period.30d": { nl: "Laatste 30 dagen", en: "Last 30 days" },
  "dash.period.90d": { nl: "Laatste 90 dagen", en: "Last 90 days" },
  "dash.period.year": { nl: "Dit jaar", en: "This year" },
  "dash.region": { nl: "Veiligheidsregio", en: "Safety region" },
  "dash.region.all": { nl: "Heel Nederland", en: "All of the Netherlands" },
  "dash.region.country": { nl: "heel Nederland", en: "the whole country" },
  "dash.window": { nl: "Van {start} tot en met {end}", en: "From {start} to {end} inclusive" },
  "dash.loading": { nl: "Laden…", en: "Loading…" },
  "dash.noData": { nl: "Nog geen gegevens voor deze keuze.", en: "No data yet for this choice." },
  "dash.rateLimited": {
    nl: "Te veel verzoeken: wacht even en probeer het opnieuw.",
    en: "Too many requests: wait a moment and try again.",
  },
  "dash.networkError": {
    nl: "De dienst is niet bereikbaar. Controleer de verbinding.",
    en: "The service cannot be reached. Check the connection.",
  },
  "dash.table": { nl: "Cijfers als tabel", en: "Numbers as a table" },
  "dash.total": { nl: "Totaal", en: "Total" },
  "dash.unknown": { nl: "Onbekend", en: "Unknown" },

  "dash.perDay.title": { nl: "Meldingen per dag", en: "Alerts per day" },
  "dash.perWeek.title": { nl: "Meldingen per week", en: "Alerts per week" },
  "dash.perDay.description": {
    nl: "Aantal P2000-meldingen per dag (Nederlandse tijd), voor {region}.",
    en: "Number of P2000 alerts per day (Dutch time), for {region}.",
  },
  "dash.perWeek.description": {
    nl: "Aantal P2000-meldingen per week (vanaf maandag), voor {region}.",
    en: "Number of P2000 alerts per week (from Monday), for {region}.",
  },
  "dash.day": { nl: "Dag", en: "Day" },
  "dash.week": { nl: "Week vanaf", en: "Week from" },
  "dash.alerts": { nl: "Meldingen", en: "Alerts" },

  "dash.perRegion.title": { nl: "Meldingen per veiligheidsregio", en: "Alerts per safety region" },
  "dash.perRegion.description": {
    nl: "Alle regio's in de periode, meeste eerst; de gekozen regio is gemarkeerd.",
    en: "Every region in the period, most first; the chosen region is highlighted.",
  },

  "dash.hours.title": { nl: "Uur van de dag per weekdag", en: "Hour of the day by weekday" },
  "dash.hours.description": {
    nl: "Meldingen per uur (Nederlandse tijd) en weekdag, voor {region}; hoe voller de kleur, hoe drukker.",
    en: "Alerts per hour (Dutch time) and weekday, for {region}; the stronger the colour, the busier.",
  },
  "dash.hour": { nl: "Uur", en: "Hour" },

  "dash.urgency.title": { nl: "Urgentie", en: "Urgency mix" },
  "dash.urgency.description": {
    nl: "Meldingen per urgentiecode (A1, P1, …), voor {region}.",
    en: "Alerts per urgency code (A1, P1, …), for {region}.",
  },
  "dash.urgency": { nl: "Urgentie", en: "Urgency" },
  "dash.share": { nl: "Aandeel", en: "Share" },

  "dash.warnings.title": { nl: "Weerwaarschuwingsdagen per provincie", en: "Weather warning days per province" },
  "dash.warnings.description": {
    nl: "Dagen met een KNMI-waarschuwing per provincie en maand (hele maanden van de periode), op het hoogste niveau van de dag.",
    en: "Days with a KNMI warning per province and month (whole months of the period), at the day's highest level.",
  },
  "dash.province": { nl: "Provincie", en: "Province" },
  "dash.month": { nl: "Maand", en: "Month" },
  "dash.level.yellow": { nl: "Geel", en: "Yellow" },
  "dash.level.orange": { nl: "Oranje", en: "Orange" },
  "dash.level.red": { nl: "Rood", en: "Red" },
  "dash.warningDays": { nl: "Waarschuwingsdagen", en: "Warning days" },

  "dash.flights.title": { nl: "Vluchten per helikopter", en: "Flights per helicopter" },
  "dash.flights.description": {
    nl: "Vluchten en vlieguren van de traumahelikopters en politiehelikopters over de laatste {days} dagen (los van de gekozen periode).",
    en: "Flights and flight hours of the trauma and police helicopters over the last {days} days (whatever the chosen period).",
  },
  "dash.aircraft": { nl: "Helikopter", en: "Helicopter" },
  "dash.kind": { nl: "Soort", en: "Kind" },
  "dash.kind.trauma": { nl: "Trauma", en: "Trauma" },
  "dash.kind.police": { nl: "Politie", en: "Police" },
  "dash.flights": { nl: "Vluchten", en: "Flights" },
  "dash.hours": { nl: "Vlieguren", en: "Flight hours" },
});
