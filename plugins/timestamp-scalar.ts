// The spec's Timestamp scalar: a moment as Unix seconds. In SQL it is the domain
// app_public.unix_time (a bigint); PostGraphile would give a domain a copy of its base type
// (BigInt, serialised as a string), so this plugin claims the domain first and gives it a scalar
// that reads and writes a JSON number and refuses anything but whole seconds in range.
import { GraphQLError, Kind, type ValueNode } from "graphql";

/** The domain's check: 1970-01-01T00:00:00Z up to the end of the year 9999. */
const MAX_SECONDS = 253_402_300_799;

function toSeconds(value: unknown): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > MAX_SECONDS) {
    const shown = typeof value === "string" ? JSON.stringify(value.slice(0, 40)) : String(value);
    // Like every other value of the wrong type, answered before execution as GRAPHQL_VALIDATION_FAILED.
    throw new GraphQLError(`Timestamp must be a whole number of Unix seconds from 0 to ${MAX_SECONDS}, not ${shown}.`);
  }
  return value;
}

function literalSeconds(ast: ValueNode): number {
  // An Int literal may exceed GraphQL's 32-bit Int: read its digits as a number.
  if (ast.kind === Kind.INT || ast.kind === Kind.FLOAT) return toSeconds(Number(ast.value));
  return toSeconds(ast.kind === Kind.STRING ? ast.value : ast.kind);
}

export const TimestampScalarPlugin: GraphileConfig.Plugin = {
  name: "TimestampScalarPlugin",
  version: "1.0.0",
  description: "The Timestamp scalar (Unix seconds) for the domain app_public.unix_time.",
  schema: {
    hooks: {
      init: {
        before: ["PgCodecsPlugin"],
        callback(_, build) {
          const codec = Object.values(build.input.pgRegistry.pgCodecs).find((candidate) => {
            const pg = candidate.extensions?.pg;
            return pg?.schemaName === "app_public" && pg?.name === "unix_time";
          });
          if (!codec) return _;
          build.registerScalarType(
            "Timestamp",
            {},
            () => ({
              description: "A moment as Unix seconds (a whole number, UTC).",
              // Out of PostgreSQL a bigint arrives as a string.
              serialize: (value: unknown) => Number(value),
              parseValue: toSeconds,
              parseLiteral: literalSeconds,
            }),
            "TimestampScalarPlugin",
          );
          build.setGraphQLTypeForPgCodec(codec, ["input", "output"], "Timestamp");
          return _;
        },
      },
    },
  },
};
