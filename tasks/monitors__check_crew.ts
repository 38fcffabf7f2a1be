// Queued when a page matches a monitor with a reAlert rule, for its minutes later: alerts the
// monitor's channels again when too few answered "going" (app_private.check_crew).
import type { Task } from "graphile-worker";

interface CheckCrewPayload {
  monitor: string;
  message: string;
}

export const monitors__check_crew: Task = async (payload, helpers) => {
  const { monitor, message } = payload as CheckCrewPayload;
  await helpers.query("select app_private.check_crew($1, $2)", [monitor, message]);
};
