// Nightly: removes ended sessions, spent one-time tokens, old rate-limit counters and old e-mail
// (app_private.purge_expired_auth_data says how old).
import type { Task } from "graphile-worker";

export const auth__purge_expired: Task = async (_payload, helpers) => {
  await helpers.query("select app_private.purge_expired_auth_data()");
};
