// The worker's task list and schedule. Each task lives in its own file, named <subject>__<verb>.
import type { TaskList } from "graphile-worker";
import type pg from "pg";
import type { Config } from "../lib/config.ts";
import { notificationSettings } from "../lib/monitors/notification-delivery.ts";
import { aircraft__load_demo } from "./aircraft__load_demo.ts";
import { makeAircraftPoll } from "./aircraft__poll.ts";
import { alerts__load_demo } from "./alerts__load_demo.ts";
import { makeArchivePublish } from "./archive__publish.ts";
import { makeAlertsPollAmber } from "./alerts__poll_amber.ts";
import { makeAlertsPollNl } from "./alerts__poll_nl.ts";
import { analytics__refresh_cache } from "./analytics__refresh_cache.ts";
import { api_tokens__purge_stale } from "./api_tokens__purge_stale.ts";
import { auth__purge_expired } from "./auth__purge_expired.ts";
import { makeChannelsClearMqttDiscovery } from "./channels__clear_mqtt_discovery.ts";
import { makeDemoTick } from "./demo__tick.ts";
import { makeEmailsSend } from "./emails__send.ts";
import { meteo__load_demo } from "./meteo__load_demo.ts";
import { makeMeteoPoll } from "./meteo__poll.ts";
import { monitors__end_follows } from "./monitors__end_follows.ts";
import { monitors__check_crew } from "./monitors__check_crew.ts";
import { monitors__match_feed } from "./monitors__match_feed.ts";
import { makeNotificationsDeliver } from "./notifications__deliver.ts";
import { makeP2000LoadDemo } from "./p2000__load_demo.ts";
import { pollerCrontabLine } from "./poll-schedule.ts";
import { makeRailPoll } from "./rail__poll.ts";
import { receivers__watch_silence } from "./receivers__watch_silence.ts";
import { makeRssPoll } from "./rss__poll.ts";
import { traffic__load_demo } from "./traffic__load_demo.ts";
import { makeTrafficPoll } from "./traffic__poll.ts";

/** The settings the tasks take: what goes out (e-mail, notifications), each feed's poller, the live demo, the open archive. */
export type TaskConfig = Pick<Config, "delivery" | "feeds" | "demoData" | "archive">;

/** `ownerPool`: the worker's own pool, for tasks that work on several connections at once. */
export function makeTaskList(config: TaskConfig, ownerPool: pg.Pool): TaskList {
  const { delivery, feeds, demoData, archive } = config;
  // One SMTP transport for account mail and notifications.
  const outbox = notificationSettings(delivery);
  return {
    aircraft__load_demo,
    aircraft__poll: makeAircraftPoll(feeds.aircraft),
    alerts__load_demo,
    alerts__poll_amber: makeAlertsPollAmber(feeds.amber),
    alerts__poll_nl: makeAlertsPollNl(feeds.nlAlert),
    analytics__refresh_cache,
    archive__publish: makeArchivePublish(archive, ownerPool),
    api_tokens__purge_stale,
    auth__purge_expired,
    channels__clear_mqtt_discovery: makeChannelsClearMqttDiscovery(outbox),
    demo__tick: makeDemoTick(demoData, ownerPool),
    emails__send: makeEmailsSend(outbox),
    meteo__load_demo,
    meteo__poll: makeMeteoPoll(feeds.meteo),
    monitors__check_crew,
    monitors__end_follows,
    monitors__match_feed,
    notifications__deliver: makeNotificationsDeliver(outbox),
    p2000__load_demo: makeP2000LoadDemo(ownerPool),
    // WEBHOOK_ALLOW_PRIVATE_TARGETS covers the feed URLs of rss monitors too.
    rss__poll: makeRssPoll(feeds.rss, delivery.allowPrivateTargets, ownerPool),
    rail__poll: makeRailPoll(feeds.rail),
    receivers__watch_silence,
    traffic__load_demo,
    traffic__poll: makeTrafficPoll(feeds.traffic),
  };
}

/**
 * The feed pollers, each booking its own rounds (tasks/poll-schedule.ts). The worker starts them
 * when it starts, and the crontab once a minute in case a chain has ended; neither moves a booked
 * round. A poller that is switched off runs, reads nothing and books nothing.
 */
export const POLL_TASKS = [
  "aircraft__poll",
  "alerts__poll_amber",
  "alerts__poll_nl",
  "meteo__poll",
  "rail__poll",
  "rss__poll",
  "traffic__poll",
] as const;

/**
 * The recurring jobs. ?fill=1h: a worker that was down at the full hour catches up when it starts.
 * The live demo's tick only with DEMO_DATA: no job a minute where no demo can run.
 */
export function crontabFor({ demoData }: Pick<TaskConfig, "demoData">): string {
  return [
    "0 * * * * analytics__refresh_cache ?fill=1h",
    "30 3 * * * api_tokens__purge_stale",
    "45 3 * * * auth__purge_expired",
    // The open archive's due days, one run at a time (its own queue) across worker processes.
    "10 * * * * archive__publish ?queue=archive__publish&jobKey=archive__publish&jobKeyMode=preserve_run_at",
    "15 4 * * * monitors__end_follows",
    // A job a minute, one at a time: a receiver quiet for a receiver_silence monitor's minutes.
    "* * * * * receivers__watch_silence ?jobKey=receivers__watch_silence&jobKeyMode=preserve_run_at",
    // One tick at a time, after the demo flights of the first start (queue demo_live), so the demo
    // helicopter's positions arrive in order.
    ...(demoData ? ["* * * * * demo__tick ?queue=demo_live&jobKey=demo__tick&jobKeyMode=preserve_run_at"] : []),
    ...POLL_TASKS.map(pollerCrontabLine),
  ].join("\n");
}
