// Spec §9: deprecated arguments still answer but say so in the schema. PostgreSQL has no place to
// mark one function argument, so they are listed here: field → argument → reason.
const DEPRECATED_ARGUMENTS: Record<string, Record<string, string>> = {
  aircraftRoute: { routeUuid: "Use route: { uuid }." },
};

export const DeprecatedArgumentsPlugin: GraphileConfig.Plugin = {
  name: "DeprecatedArgumentsPlugin",
  version: "1.0.0",
  description: "Marks the spec's deprecated arguments.",
  schema: {
    hooks: {
      GraphQLObjectType_fields_field_args_arg(arg, _build, context) {
        const reason = DEPRECATED_ARGUMENTS[context.scope.fieldName]?.[context.scope.argName];
        return reason && context.scope.isRootQuery ? { ...arg, deprecationReason: reason } : arg;
      },
    },
  },
};
