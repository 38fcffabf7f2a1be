// Names as the spec writes them. Every operation is a snake_case SQL function named like the spec
// field (p2000_regions → p2000Regions), which often equals a table's name; tables therefore get
// resource names of their own (their GraphQL type names come from their codecs and are unchanged),
// and list fields keep the function's name instead of PostGraphile's `…List`.
export const InflectionPlugin: GraphileConfig.Plugin = {
  name: "InflectionPlugin",
  version: "1.0.0",
  description: "Spec names: functions own the plain names; list fields keep them.",
  inflection: {
    replace: {
      tableResourceName(previous, _options, details) {
        return `${previous!(details)}_table`;
      },
      listField(_previous, _options, baseName) {
        return baseName;
      },
    },
  },
};
