// Nightly: ends the follows of incidents (followIncident) without a page for a week
// (app_private.end_stale_follows says why a week).
import type { Task } from "graphile-worker";

export const monitors__end_follows: Task = async (_payload, helpers) => {
  await helpers.query("select app_private.end_stale_follows()");
};
