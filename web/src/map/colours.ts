// The colours of the map's signs, shared by the markers, the list and the legend. Discipline
// colours are the ones Dutch emergency services are known by; warning colours are KNMI's code
// colours. Both themes use them, as they keep their contrast on the light and the dark base map.

export const DISCIPLINE_COLOURS: Readonly<Record<string, string>> = {
  brandweer: "#d1242f",
  ambulance: "#e3a008",
  politie: "#1f6feb",
  knrm: "#f97316",
  reddingsbrigade: "#0ea5e9",
  gemeente: "#8250df",
  dares: "#6e7781",
};
const OTHER_DISCIPLINE_COLOUR = "#6e7781";
export const EXERCISE_COLOUR = "#8c959f";

export function disciplineColour(slug: string | null | undefined): string {
  return (slug && DISCIPLINE_COLOURS[slug]) || OTHER_DISCIPLINE_COLOUR;
}

/** KNMI status codes: 0 none, 1 yellow, 2 orange, 3 red. */
export const WARNING_COLOURS = ["transparent", "#f5d90a", "#f97316", "#dc2626"] as const;

export const TRAFFIC_COLOUR = "#bf3989";
export const NL_ALERT_COLOUR = "#cf222e";
export const AIRCRAFT_COLOURS: Readonly<Record<string, string>> = { trauma: "#e3a008", police: "#1f6feb" };

/** The base map's own colours, light and dark, following prefers-color-scheme. */
export interface BaseColours {
  background: string;
  land: string;
  provinceLine: string;
  regionLine: string;
  /** The offline map's place names, and the halo that keeps them readable over lines and fills. */
  label: string;
  labelHalo: string;
}

export function baseColours(dark: boolean): BaseColours {
  return dark
    ? {
        background: "#0b1d2e",
        land: "#1c2128",
        provinceLine: "#8b949e",
        regionLine: "#3d444d",
        label: "#c9d1d9",
        labelHalo: "#1c2128",
      }
    : {
        background: "#cfe3f3",
        land: "#f6f8fa",
        provinceLine: "#57606a",
        regionLine: "#c5ccd3",
        label: "#3b4249",
        labelHalo: "#f6f8fa",
      };
}
