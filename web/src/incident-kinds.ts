// The kinds of incident (p2000Categories: brand, ongeval, medisch, …) in the reader's language, and
// the list a person chooses from: the map's filter and a monitor's "kinds of incident" offer the
// same list, the service's own, so a kind a DBA adds is offered too (under the service's name
// until it has texts here).
import type { Api } from "./api/client.ts";
import { graphql } from "./api/graphql.ts";
import { addTexts, t } from "./i18n.ts";

addTexts({
  "category.brand": { nl: "Brand", en: "Fire" },
  "category.automatisch_alarm": { nl: "Automatisch brandalarm", en: "Automatic fire alarm" },
  "category.hulpverlening": { nl: "Hulpverlening", en: "Rescue and assistance" },
  "category.ongeval": { nl: "Ongeval", en: "Accident" },
  "category.waterongeval": { nl: "Waterongeval", en: "Water incident" },
  "category.gevaarlijke_stoffen": { nl: "Gevaarlijke stoffen", en: "Hazardous materials" },
  "category.medisch": { nl: "Medisch", en: "Medical" },
  "category.besteld_vervoer": { nl: "Besteld vervoer", en: "Planned transport" },
  "category.dienstverlening": { nl: "Dienstverlening", en: "Service call" },
  "category.informatie": { nl: "Informatie", en: "Information" },
  "category.test": { nl: "Test of proefalarm", en: "Test or test alarm" },
  "category.monitor": { nl: "Monitorbericht", en: "Monitor page" },
});

export const CategoriesQuery = graphql(`
  query IncidentKinds {
    p2000Categories {
      code
      name
      isCallOut
    }
  }
`);

/** The kind of incident in the reader's language; the service's (Dutch) name for one without texts here. */
export function kindName(code: string | null, name: string | null): string | null {
  if (!code) return name;
  const key = `category.${code}`;
  const text = t(key);
  return text === key ? name : text;
}

/** The kinds a person may choose, call-outs first (tests and monitor pages last), in the service's order. */
export async function kindChoices(api: Api): Promise<Array<{ value: string; label: string }>> {
  const { p2000Categories } = await api.request(CategoriesQuery);
  return [...p2000Categories]
    .sort((a, b) => Number(b.isCallOut) - Number(a.isCallOut))
    .map((kind) => ({ value: kind.code, label: kindName(kind.code, kind.name) ?? kind.code }));
}
