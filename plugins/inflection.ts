// Names as the spec writes them. Every operation is a snake_case SQL function named like the spec
// field (p2000_regions → p2000Regions), which often equals a table's name; tables therefore get
// resource names of their own (their GraphQL type names come from their codecs and are unchanged),
// list fields keep the function's name instead of PostGraphile's `…List`, and reference inputs
// keep theirs, `@exactName` columns keep their SQL name, and timestamps are the spec's DateTime.
const REF_OUTPUT_SUFFIX = "Record";

export const InflectionPlugin: GraphileConfig.Plugin = {
  name: "InflectionPlugin",
  version: "1.0.0",
  description: "Spec names: functions own the plain names; list fields keep them.",
  inflection: {
    replace: {
      tableResourceName(previous, _options, details) {
        return `${previous!(details)}_table`;
      },
      // `@typeName` on a type keeps a plural the spec wants (P2000Statistics, HubAnalyticsWeekdays).
      // Reference composites (p2000_message_ref) are inputs only; their unused output type gets a
      // suffix so the input can have the spec's name (P2000MessageRef, MonitorRef, RoadRef).
      tableType(previous, _options, codec) {
        const typeName = codec.extensions?.tags?.typeName;
        const name = typeof typeName === "string" ? typeName : previous!(codec);
        return name.endsWith("Ref") ? `${name}${REF_OUTPUT_SUFFIX}` : name;
      },
      inputType(previous, _options, typeName) {
        return typeName.endsWith(`Ref${REF_OUTPUT_SUFFIX}`)
          ? typeName.slice(0, -REF_OUTPUT_SUFFIX.length)
          : previous!(typeName);
      },
      // The spec's scalar is DateTime (PostGraphile calls timestamptz's scalar Datetime).
      builtin(previous, _options, name) {
        return name === "Datetime" ? "DateTime" : previous!(name);
      },
      listField(_previous, _options, baseName) {
        return baseName;
      },
      // `@exactName` on a column keeps a name the spec writes in snake_case (distance_km).
      attribute(previous, _options, details) {
        const exactName = details.codec.attributes[details.attributeName]?.extensions?.tags?.exactName;
        return typeof exactName === "string" ? exactName : previous!(details);
      },
    },
  },
};
