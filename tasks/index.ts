// The worker's task list and schedule. Each task lives in its own file, named <subject>__<verb>.
import type { TaskList } from "graphile-worker";
import { api_tokens__purge_stale } from "./api_tokens__purge_stale.ts";

export const taskList: TaskList = {
  api_tokens__purge_stale,
};

export const crontab = [
  "30 3 * * * api_tokens__purge_stale",
].join("\n");
