// createP2000Message (spec 4.2) with the spec's signature, returning the stored message. The SQL
// (app_accounts.create_p2000_message → app_private.ingest_p2000_message) checks the caller and the
// input and gives the message the same enrichment and grouping as every other ingestion path.
import { extendSchema, gql } from "postgraphile/utils";
import { mutationSteps } from "../lib/graphql/plan-steps.ts";

export const P2000MutationsPlugin = extendSchema((build) => {
  const { sql } = mutationSteps(build);
  const messages = build.input.pgRegistry.pgResources.p2000_messages_table;
  return {
    typeDefs: gql`
      input CreateP2000MessageCapcodeInput {
        """
        The capcode, 7 or 9 digits (001420059 or 1420059).
        """
        name: String!
      }
      input CreateP2000MessageInput {
        message: String!
        """
        ISO-8601 date-time; without a zone it is UTC.
        """
        sended: String!
        capcodes: [CreateP2000MessageCapcodeInput!]
      }
      extend type Mutation {
        """
        Adds a P2000 message (administrators): enriched and grouped like received traffic; unknown capcodes are created.
        """
        createP2000Message(input: CreateP2000MessageInput!): P2000Message
      }
    `,
    objects: {
      Mutation: {
        plans: {
          createP2000Message: (_, fieldArgs) =>
            messages.get({
              uuid: sql(fieldArgs, "app_accounts.create_p2000_message($1, $2, $3)", ({ input }) => [
                input.message,
                input.sended,
                (input.capcodes ?? []).map((capcode: { name: string }) => capcode.name),
              ]),
            }),
        },
      },
    },
  };
}, "P2000MutationsPlugin");
