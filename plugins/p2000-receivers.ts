// Receivers (issue 48): createP2000Receiver and deleteP2000Receiver (an administrator, in the
// console or over GraphQL), and publishP2000Lines, with which a receiver's token sends what
// multimon-ng printed (`npm run ingest:flex -- --to …`). The lines are parsed here, with the FLEX
// reader's own parser, so that the service counts each receiver's malformed lines; the SQL
// (app_accounts.publish_p2000_pages) checks that the token is a receiver's, stores the pages
// through the path every ingestion takes (copies merged, the cleaner text kept), records the
// receiver's copy of each and its counts, and answers a batch id it has seen again without storing
// anything twice. The reads (p2000Receivers, p2000ReceiverStatistics, P2000Message.copies) are SQL
// functions.
import { access } from "postgraphile/grafast";
import { extendSchema, gql } from "postgraphile/utils";
import { apiTokenPreview, generateApiTokenSecret, hashApiTokenSecret } from "../lib/auth/api-tokens.ts";
import { userError } from "../lib/graphql/errors.ts";
import { byUuid, mutationSteps } from "../lib/graphql/plan-steps.ts";
import { FlexFragments } from "../lib/p2000/flex-fragments.ts";
import { parseFlexLine, type FlexPage } from "../lib/p2000/flex-parser.ts";
import { MAX_PAGE_LENGTH, MAX_PUBLISHED_LINE_LENGTH, MAX_PUBLISHED_LINES } from "../lib/p2000/publish-limits.ts";

/** A batch of multimon-ng lines as pages (fragments joined), with the lines that were not pages counted. */
export function pagesOfLines(lines: readonly string[]): { pages: FlexPage[]; skipped: number; malformed: number } {
  const fragments = new FlexFragments();
  const pages: FlexPage[] = [];
  let skipped = 0;
  let malformed = 0;
  for (const line of lines) {
    // A raw NUL byte (which PostgreSQL cannot store) is named as multimon-ng names the others.
    const parsed = parseFlexLine(line.replaceAll("\u0000", "<NUL>"));
    if (parsed.kind === "skipped") skipped++;
    else if (parsed.kind === "malformed") malformed++;
    else {
      const page = fragments.add(parsed.page);
      if (page) pages.push(page);
    }
  }
  // A page the database would refuse (too long, or no text) is a malformed line, not the batch's end.
  const storable = [...pages, ...fragments.drain()].filter((page) => {
    const fits = page.text.trim().length > 0 && page.text.trim().length <= MAX_PAGE_LENGTH;
    if (!fits) malformed++;
    return fits;
  });
  return { pages: storable, skipped, malformed };
}

export const P2000ReceiversPlugin = extendSchema((build) => {
  const { run, sql } = mutationSteps(build);
  const receivers = build.input.pgRegistry.pgResources.p2000_receivers_table;
  return {
    typeDefs: gql`
      input CreateP2000ReceiverInput {
        """
        Shown with the copies of the pages it hears (P2000Message.copies): public. 1-100 characters, unique in the environment.
        """
        name: String!
        """
        Where it stands, its antenna, who runs it (members of the environment see it).
        """
        description: String
      }
      type CreateP2000ReceiverPayload {
        receiver: P2000Receiver
        """
        The receiver's API token (scope p2000:publish: it publishes pages and reads nothing), shown only in this answer.
        """
        token: String!
      }
      """
      What publishP2000Lines did with a batch.
      """
      type PublishP2000LinesResult {
        batchId: String!
        """
        Lines in the batch.
        """
        lines: Int!
        """
        Pages among them (fragments joined), stored or merged into an earlier copy.
        """
        pages: Int!
        """
        Lines that were no message (numeric and tone pages).
        """
        skipped: Int!
        """
        Lines that were not multimon-ng FLEX output.
        """
        malformed: Int!
        """
        True when this batch id had been published before: nothing was stored again.
        """
        duplicate: Boolean!
      }
      extend type Mutation {
        """
        Registers a P2000 receiver in the current environment (administrators): answers its API token, shown once.
        """
        createP2000Receiver(input: CreateP2000ReceiverInput!): CreateP2000ReceiverPayload
        """
        Removes a receiver of the current environment and its token (administrators); the pages it published stay.
        """
        deleteP2000Receiver(uuid: String!): Boolean
        """
        A receiver's token (createP2000Receiver) publishes the lines multimon-ng printed, at most 500, in the order
        heard. batchId is the sender's id for the batch: sent again (its answer lost), it is answered as before and
        nothing is stored twice.
        """
        publishP2000Lines(batchId: String!, lines: [String!]!): PublishP2000LinesResult
      }
    `,
    objects: {
      Mutation: {
        plans: {
          createP2000Receiver: (_, fieldArgs) =>
            run(fieldArgs, async ({ input }, { visitor }) => {
              const token = generateApiTokenSecret();
              const [{ uuid }] = await visitor("select app_accounts.create_p2000_receiver($1, $2, $3, $4) as uuid", [
                input.name,
                input.description ?? null,
                hashApiTokenSecret(token),
                apiTokenPreview(token),
              ]);
              return { uuid, token };
            }),
          deleteP2000Receiver: (_, fieldArgs) =>
            sql(fieldArgs, "app_accounts.delete_p2000_receiver($1)", ({ uuid }) => [uuid]),
          publishP2000Lines: (_, fieldArgs) =>
            run(fieldArgs, async ({ batchId, lines }, { visitor }) => {
              const batch = lines as string[];
              if (batch.length > MAX_PUBLISHED_LINES)
                throw userError(`At most ${MAX_PUBLISHED_LINES} lines per batch.`, "BAD_USER_INPUT");
              if (batch.some((line) => line.length > MAX_PUBLISHED_LINE_LENGTH))
                throw userError(`A line has at most ${MAX_PUBLISHED_LINE_LENGTH} characters.`, "BAD_USER_INPUT");
              const { pages, skipped, malformed } = pagesOfLines(batch);
              const [{ result }] = await visitor(
                "select app_accounts.publish_p2000_pages($1, $2::jsonb, $3, $4, $5) as result",
                [
                  batchId,
                  JSON.stringify(
                    pages.map((p) => ({ message: p.text, sended: p.sended.toISOString(), capcodes: p.capcodes })),
                  ),
                  batch.length,
                  skipped,
                  malformed,
                ],
              );
              return result;
            }),
        },
      },
      CreateP2000ReceiverPayload: {
        plans: {
          receiver: ($result) => byUuid(receivers, access($result, "uuid")),
        },
      },
    },
  };
}, "P2000ReceiversPlugin");
