// The station screen's texts, Dutch and English (the URL's ?lang=, else the browser's language).
import { addTexts, dateFormat } from "../i18n.ts";

addTexts({
  "screen.title": { nl: "Kazernescherm", en: "Station screen" },
  "screen.pair.heading": { nl: "Koppel dit scherm", en: "Pair this screen" },
  "screen.pair.how": {
    nl: "Open de console op een telefoon of computer, ga naar Schermen → ‘Scherm koppelen’ en typ deze code:",
    en: "Open the console on a phone or computer, go to Screens → ‘Pair a screen’ and type this code:",
  },
  "screen.pair.codeLabel": { nl: "Koppelcode", en: "Pairing code" },
  "screen.pair.expires": {
    nl: "De code werkt tot {time}; daarna toont het scherm vanzelf een nieuwe.",
    en: "The code works until {time}; then the screen shows a new one by itself.",
  },
  "screen.pair.waiting": {
    nl: "Dit scherm wacht op de koppeling en gaat dan vanzelf verder.",
    en: "This screen waits for the pairing and then carries on by itself.",
  },
  "screen.pair.asking": { nl: "Een code wordt opgevraagd…", en: "Asking for a code…" },
  "screen.pair.failed": {
    nl: "Geen code gekregen ({reason}); het scherm probeert het zo opnieuw.",
    en: "No code was given ({reason}); the screen tries again shortly.",
  },
  "screen.revoked": {
    nl: "De koppeling van dit scherm is ingetrokken: koppel het opnieuw.",
    en: "This screen's pairing was revoked: pair it again.",
  },
  "screen.map": { nl: "Kaart van het gebied van de kazerne", en: "Map of the station's area" },
  "screen.alarmMap": {
    nl: "Kaart met de kazerne, de melding en de lijn ertussen",
    en: "Map with the station, the incident and the line between them",
  },
  "screen.recent": { nl: "Laatste meldingen", en: "Latest incidents" },
  "screen.recentNone": { nl: "Nog geen meldingen voor dit scherm.", en: "No incidents for this screen yet." },
  "screen.weather": { nl: "Weerwaarschuwingen in {province}", en: "Weather warnings in {province}" },
  "screen.weatherHere": { nl: "Weerwaarschuwingen", en: "Weather warnings" },
  "screen.weatherNone": { nl: "Geen waarschuwing.", en: "No warning." },
  "screen.alerts": { nl: "NL-Alerts (binnen {km} km)", en: "NL-Alerts (within {km} km)" },
  "screen.alertsNone": { nl: "Geen NL-Alert.", en: "No NL-Alert." },
  "screen.traffic": { nl: "Verkeer (binnen {km} km)", en: "Traffic (within {km} km)" },
  "screen.trafficNone": { nl: "Geen verkeersincidenten.", en: "No traffic incidents." },
  "screen.crew": { nl: "Ploeg", en: "Crew" },
  "screen.crew.available": { nl: "beschikbaar", en: "available" },
  "screen.crew.unavailable": { nl: "niet beschikbaar", en: "not available" },
  "screen.noPlace": {
    nl: "De kazerne heeft geen plek: geef haar er een in de console (Schermen).",
    en: "The station has no place: give it one in the console (Screens).",
  },
  "screen.alarm": { nl: "Alarm", en: "Alarm" },
  "screen.elapsed": { nl: "sinds alarm", en: "since the alarm" },
  "screen.pagerText": { nl: "Piepertekst", en: "Pager text" },
  "screen.units": { nl: "Gealarmeerd", en: "Units paged" },
  "screen.distance": {
    nl: "{km} km hemelsbreed vanaf de kazerne (rechte lijn: geen routegegevens beschikbaar)",
    en: "{km} km as the crow flies from the station (a straight line: no routing data at hand)",
  },
  "screen.noPosition": {
    nl: "De plek van de melding is niet bekend: geen lijn op de kaart.",
    en: "The incident's place is not known: no line on the map.",
  },
  "screen.responders": { nl: "Wie komt", en: "Who is coming" },
  "screen.responders.count": { nl: "{coming} komen", en: "{coming} coming" },
  "screen.responders.wanted": { nl: "{coming} van {wanted} komen", en: "{coming} of {wanted} coming" },
  "screen.responders.none": { nl: "Nog niemand heeft gereageerd.", en: "Nobody has answered yet." },
  "screen.going": { nl: "komt", en: "coming" },
  "screen.cancelled": { nl: "komt niet", en: "not coming" },
  "screen.arrives": { nl: "er om {time} ({minutes} min)", en: "there at {time} ({minutes} min)" },
  "screen.arrived": { nl: "er om {time}", en: "there at {time}" },
  "screen.reAlert": {
    nl: "Heralarm om {time}: te weinig mensen komen.",
    en: "Re-alert at {time}: too few people are coming.",
  },
  "screen.toIdle": { nl: "Terug naar rust", en: "Back to idle" },
  "screen.idleAt": { nl: "Vanzelf terug naar rust om {time}.", en: "Back to idle by itself at {time}." },
  "screen.offline": {
    nl: "Offline sinds {time}: het scherm verbindt vanzelf opnieuw en haalt dan op wat het miste.",
    en: "Offline since {time}: the screen reconnects by itself and then fetches what it missed.",
  },
  "screen.sound.blocked": {
    nl: "Geluid staat uit: de browser laat geen geluid toe voordat iemand op de pagina tikt of klikt. Tik of klik één keer op het scherm, of sta geluid toe voor deze site in de instellingen van de browser.",
    en: "Sound is off: the browser allows no sound before someone taps or clicks the page. Tap or click the screen once, or allow sound for this site in the browser's settings.",
  },
  "screen.problem": { nl: "Er ging iets mis: {reason}", en: "Something went wrong: {reason}" },
});

/** "14:05", Dutch time, as the wall clock and every time on the screen. */
export function timeOfDay(at: Date | string | number): string {
  return dateFormat({ hour: "2-digit", minute: "2-digit", timeZone: "Europe/Amsterdam" }).format(new Date(at));
}
