// The worker's task list and schedule. Each task lives in its own file, named <subject>__<verb>.
import type { TaskList } from "graphile-worker";
import { api_tokens__purge_stale } from "./api_tokens__purge_stale.ts";
import { auth__purge_expired } from "./auth__purge_expired.ts";
import { makeEmailsSend, type MailSettings } from "./emails__send.ts";
import { p2000__load_demo } from "./p2000__load_demo.ts";

export function makeTaskList(mail: MailSettings): TaskList {
  return {
    api_tokens__purge_stale,
    auth__purge_expired,
    emails__send: makeEmailsSend(mail),
    p2000__load_demo,
  };
}

export const crontab = [
  "30 3 * * * api_tokens__purge_stale",
  "45 3 * * * auth__purge_expired",
].join("\n");
