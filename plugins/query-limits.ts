// Query limits: a document that is too deep, has too many aliases, directives or tokens, or costs
// too much is refused before any SQL runs, with extensions.code QUERY_TOO_COMPLEX (the type
// graph has cycles: P2000Message.dossier.messages.dossier… and one document may hold hundreds of
// aliases). Depth, aliases, directives and tokens are GraphQL Armor's rules; the cost is ours
// (lib/graphql/query-cost.ts: Armor's priced a spec page of plain columns over the limit, issue 25).
// This plugin wires them into grafserv's validation (the same path serves HTTP and WebSocket
// requests) and gives their errors our code. Field suggestions ("Did you mean …?") are removed
// from validation errors where configured, so the schema cannot be mapped by guessing.
import { maxAliasesRule } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthRule } from "@escape.tech/graphql-armor-max-depth";
import { maxDirectivesRule } from "@escape.tech/graphql-armor-max-directives";
import { MaxTokensParserWLexer } from "@escape.tech/graphql-armor-max-tokens";
import { GraphQLError, type ValidationContext } from "graphql";
import type { QueryLimits } from "../lib/config.ts";
import { queryCostRule } from "../lib/graphql/query-cost.ts";
import { required } from "./service-runtime.ts";

export const QUERY_TOO_COMPLEX = "QUERY_TOO_COMPLEX";

/** Armor prefixes its messages with "Syntax Error: "; ours say what was exceeded and what to do. */
function limitError(error: GraphQLError): GraphQLError {
  const message = error.message.replace(/^Syntax Error: /, "");
  return new GraphQLError(`${message} Split the query or ask for fewer fields.`, {
    extensions: { code: QUERY_TOO_COMPLEX },
  });
}

/** Longer documents are lexed on every request rather than kept (500 × 10 KB at most). */
const MAX_REMEMBERED_LENGTH = 10_000;

const SUGGESTION = / ?Did you mean .+\?$/;

type ParseAndValidate = (query: string) => { errors?: readonly GraphQLError[]; document?: unknown };

/** The validation rules and the parse wrapper of one service's limits (QUERY_MAX_*). */
function limitsOf(limits: QueryLimits) {
  // Report (not throw) so every exceeded limit is one error in the answer.
  const reject = (context: ValidationContext | null, error: GraphQLError) => context?.reportError(limitError(error));
  const rejectWith = { propagateOnRejection: false, exposeLimits: true, onReject: [reject] };
  const rules = [
    maxDepthRule({ n: limits.maxDepth, ignoreIntrospection: true, ...rejectWith }),
    maxAliasesRule({ n: limits.maxAliases, ...rejectWith }),
    maxDirectivesRule({ n: limits.maxDirectives, ...rejectWith }),
    queryCostRule(limits.maxCost, reject),
  ];

  // The token limit is the parser's (a document of a million tokens costs its parse before any
  // rule runs), so it wraps grafserv's cached parseAndValidate: a document it has accepted
  // before is not lexed again.
  const accepted = new Map<string, true>();
  const wrappers = new WeakMap<ParseAndValidate, ParseAndValidate>();
  const withLimits =
    (parseAndValidate: ParseAndValidate): ParseAndValidate =>
    (query) => {
      if (!accepted.has(query)) {
        try {
          new MaxTokensParserWLexer(query, {
            n: limits.maxTokens,
            exposeLimits: true,
            propagateOnRejection: true,
            onAccept: [],
            onReject: [],
          }).parseDocument();
        } catch (error) {
          if (error instanceof GraphQLError && /Token limit/.test(error.message))
            return { errors: [limitError(error)] };
          // A syntax error: grafserv's parse reports it as usual.
        }
        if (query.length <= MAX_REMEMBERED_LENGTH) {
          if (accepted.size >= 500) accepted.delete(accepted.keys().next().value!);
          accepted.set(query, true);
        }
      }
      const result = parseAndValidate(query);
      if (!limits.blockFieldSuggestions || !result.errors) return result;
      return {
        errors: result.errors.map((e) =>
          SUGGESTION.test(e.message)
            ? new GraphQLError(e.message.replace(SUGGESTION, ""), { nodes: e.nodes, extensions: e.extensions })
            : e,
        ),
      };
    };

  return { rules, withLimits, wrappers };
}

export const QueryLimitsPlugin: GraphileConfig.Plugin = {
  name: "QueryLimitsPlugin",
  version: "1.0.0",
  description: "Depth, alias, directive and token limits (GraphQL Armor) and our cost limit on every document.",
  grafserv: {
    middleware: {
      setPreset(next, event) {
        const { rules, withLimits, wrappers } = limitsOf(required(event.resolvedPreset.nlis).api.queryLimits);
        event.validationRules.push(...rules);
        const getExecutionConfig = event.getExecutionConfig;
        event.getExecutionConfig = async function (ctx) {
          const config = await getExecutionConfig.call(this, ctx);
          let wrapped = wrappers.get(config.parseAndValidate);
          if (!wrapped) wrappers.set(config.parseAndValidate, (wrapped = withLimits(config.parseAndValidate)));
          return { ...config, parseAndValidate: wrapped as typeof config.parseAndValidate };
        };
        return next();
      },
    },
  },
};
