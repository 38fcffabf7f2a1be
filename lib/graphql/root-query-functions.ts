// The SQL function behind a root Query field, for schema hooks that read a function's smart tags
// or signature. PostGraphile puts the resource in the scope of list fields (pgFieldResource) but
// not of single-row ones (me, monitor(uuid:), p2000Dossier), so those are found by the field name
// their inflection gives.
import type { PgResource, PgResourceParameter } from "postgraphile/@dataplan/pg";

export type FunctionResource = PgResource<any, any, any, readonly PgResourceParameter[], any>;

const byBuild = new WeakMap<GraphileBuild.Build, Map<string, FunctionResource>>();

/** The function resource of a root Query field (from the scope, else by name), if it has one. */
export function rootQueryFunction(
  build: GraphileBuild.Build,
  scope: { fieldName?: string; pgFieldResource?: unknown },
): FunctionResource | undefined {
  const fromScope = scope.pgFieldResource as FunctionResource | undefined;
  if (fromScope?.parameters) return fromScope;
  let byField = byBuild.get(build);
  if (!byField) {
    byField = new Map();
    for (const resource of Object.values(build.input.pgRegistry.pgResources)) {
      if (!resource.parameters || resource.isMutation) continue;
      const fn = resource as FunctionResource;
      byField.set(build.inflection.customQueryField({ resource: fn }), fn);
    }
    byBuild.set(build, byField);
  }
  return scope.fieldName === undefined ? undefined : byField.get(scope.fieldName);
}
