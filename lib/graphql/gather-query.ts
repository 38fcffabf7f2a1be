// A query run while the schema is built (a plugin's gather phase), on the database the API serves:
// for what the schema's shape or descriptions take from the catalog or from reference tables. It
// runs as the connection's role (the authenticator, which reads the catalog) unless `settings`
// names another (the visitor, to read a public table).
import { withPgClientFromPgService } from "postgraphile/@dataplan/pg";

export async function gatherQuery<Row extends object>(
  info: { resolvedPreset: GraphileConfig.ResolvedPreset },
  text: string,
  who: string,
  settings: Record<string, string> | null = null,
): Promise<readonly Row[]> {
  const services = info.resolvedPreset.pgServices ?? [];
  const service = services.find((s) => s.schemas?.includes("app_public")) ?? services[0];
  if (!service) throw new Error(`${who}: no pgService to read from`);
  const { rows } = await withPgClientFromPgService(
    service,
    settings ?? service.pgSettingsForIntrospection ?? null,
    (client) => client.query<Row>({ text }),
  );
  return rows;
}
