// Every minute: tells receiver_silence monitors' channels when a receiver has gone quiet while
// pages arrived from elsewhere, and when it is heard again (app_private.watch_p2000_receivers).
import type { Task } from "graphile-worker";

export const receivers__watch_silence: Task = async (_payload, helpers) => {
  await helpers.query("select app_private.watch_p2000_receivers()");
};
