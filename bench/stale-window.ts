// The response cache's stale window (issue 33): how long after a new P2000 message's commit an
// answer without it may still be given. A writer stores one message at a time through the FLEX
// reader's path (app_private.ingest_p2000_messages) and waits; readers ask the cached service for
// the newest message without pause, each request timed from its start. For every message, the
// window is from its commit (the writer's acknowledgement) to the start of the last request that
// began after it and still answered an older message; 0 when no such request was answered.
import pg from "pg";
import { percentile } from "./results.ts";

const NEWEST = JSON.stringify({ query: "{ p2000Messages(first: 1) { message } }" });

export interface StaleWindow {
  writes: number;
  readers: number;
  answers: number;
  staleAnswers: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

interface Answer {
  start: number;
  message: string;
}

export async function measureStaleWindow(options: {
  owner: pg.Pool;
  graphqlUrl: string;
  headers: Record<string, string>;
  writes: number;
  readers?: number;
  pauseMs?: number;
}): Promise<StaleWindow> {
  const { owner, graphqlUrl, headers, writes, readers = 8, pauseMs = 250 } = options;
  const run = Date.now().toString(36);
  const answers: Answer[] = [];
  let writing = true;
  const read = async () => {
    while (writing) {
      const start = performance.now();
      const response = await fetch(graphqlUrl, { method: "POST", headers, body: NEWEST });
      const body = (await response.json()) as { data?: { p2000Messages: Array<{ message: string }> } };
      const message = body.data?.p2000Messages[0]?.message;
      if (message !== undefined) answers.push({ start, message });
    }
  };
  const readerLoops = Array.from({ length: readers }, read);
  const commits: Array<{ message: string; at: number }> = [];
  for (let i = 0; i < writes; i++) {
    const message = `P 2 BDH-99 Stale window ${run} ${i} Utrecht`;
    await owner.query("select app_private.ingest_p2000_messages($1::json, 'bench')", [
      JSON.stringify([{ message, capcodes: ["0923001"], sended: new Date().toISOString() }]),
    ]);
    commits.push({ message, at: performance.now() });
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  writing = false;
  await Promise.all(readerLoops);
  const order = new Map(commits.map((commit, i) => [commit.message, i]));
  const windows = commits.map((commit, i) => {
    const stale = answers.filter((answer) => answer.start > commit.at && (order.get(answer.message) ?? -1) < i);
    return stale.length === 0 ? 0 : Math.max(...stale.map((answer) => answer.start - commit.at));
  });
  // Answers that began after a commit and still showed an older message.
  const staleAnswers = answers.filter((answer) => {
    const newestCommitted = commits.findLastIndex((commit) => commit.at < answer.start);
    return newestCommitted >= 0 && (order.get(answer.message) ?? -1) < newestCommitted;
  }).length;
  windows.sort((a, b) => a - b);
  const round = (ms: number) => Number(ms.toFixed(1));
  return {
    writes,
    readers,
    answers: answers.length,
    staleAnswers,
    p50Ms: round(percentile(windows, 50)),
    p99Ms: round(percentile(windows, 99)),
    maxMs: round(windows.at(-1) ?? 0),
  };
}
