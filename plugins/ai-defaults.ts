// aiDefaults (spec 4.3 "Other"): the configuration lib/ai/defaults.ts loaded at start, served as it is.
import { context, lambda } from "postgraphile/grafast";
import { extendSchema, gql } from "postgraphile/utils";
import { required } from "./service-runtime.ts";

export const AiDefaultsPlugin: GraphileConfig.Plugin = extendSchema({
  typeDefs: gql`
    """
    A language model a client may offer for summaries.
    """
    type AiModel {
      id: String!
      """
      openai, anthropic, mistral, ollama …
      """
      provider: String!
      label: String!
      description: String
    }
    """
    A prompt: system and user texts with {{placeholders}} the client fills in.
    """
    type AiPrompt {
      key: String!
      label: String!
      system: String!
      user: String!
      """
      The placeholders the texts use (keys of AiDefaults.placeholders).
      """
      placeholders: [String!]!
    }
    type AiPlaceholder {
      key: String!
      description: String!
      example: String!
    }
    """
    Read-only defaults for clients that summarise incidents with a language model; no secrets.
    """
    type AiDefaults {
      defaultModel: String!
      models: [AiModel!]!
      prompts: [AiPrompt!]!
      placeholders: [AiPlaceholder!]!
    }
    extend type Query {
      """
      Models, prompts and placeholders for summaries (data/ai-defaults.json, or AI_DEFAULTS_FILE).
      """
      aiDefaults: AiDefaults!
    }
  `,
  objects: {
    Query: {
      plans: {
        // Read from a file at start, the same until the next start: the response cache may keep it
        // and no change drops it (lib/graphql/cache-rules.ts).
        aiDefaults: {
          scope: { cacheReads: { relations: [] } },
          plan: () => lambda(context().get("service"), (service) => required(service).aiDefaults),
        },
      },
    },
  },
});
