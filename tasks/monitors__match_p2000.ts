// Matches a new P2000 message against the active P2000 monitors (queued by a trigger on
// p2000_messages for each live message). The SQL records the matches and queues the deliveries in
// one transaction, so a retried job finds the work done and queues nothing twice.
import type { Task } from "graphile-worker";

export const monitors__match_p2000: Task = async (payload, helpers) => {
  const { uuid } = payload as { uuid: string };
  await helpers.query("select app_private.match_p2000_message($1)", [uuid]);
};
