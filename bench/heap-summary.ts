// What a V8 heap snapshot (.heapsnapshot, as `node --heapsnapshot-signal` writes it) is made of:
// the objects' own sizes added up by kind and constructor name, the largest first. Self sizes
// only (no dominator tree): enough to say which kinds of object fill a heap, as the soak's
// memory figures need (bench/soak.ts --heap-snapshot; docs/operations.md#memory).
import fs from "node:fs";

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
}

export interface HeapGroup {
  /** V8's node type (object, string, code, array, closure, hidden, …). */
  type: string;
  /** The constructor's name for objects; the type alone for strings, code and the rest. */
  name: string;
  count: number;
  selfMb: number;
}

/** The node types grouped by name (a constructor's); the others by type alone. */
const NAMED_TYPES = ["object", "closure"];

/** Every kind and constructor of a snapshot, with its count and its objects' own bytes. */
function groupHeapSnapshot(
  file: string,
  namedTypes: readonly string[] = NAMED_TYPES,
): { totalBytes: number; groups: Map<string, HeapGroup & { bytes: number }> } {
  const snapshot = JSON.parse(fs.readFileSync(file, "utf8")) as Snapshot;
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf("type");
  const nameAt = fields.indexOf("name");
  const sizeAt = fields.indexOf("self_size");
  const groups = new Map<string, HeapGroup & { bytes: number }>();
  let totalBytes = 0;
  for (let i = 0; i < snapshot.nodes.length; i += width) {
    const type = types[snapshot.nodes[i + typeAt]];
    const size = snapshot.nodes[i + sizeAt];
    totalBytes += size;
    // strings and code by their type: their "names" are their contents
    const name = namedTypes.includes(type) ? snapshot.strings[snapshot.nodes[i + nameAt]] : `(${type})`;
    const key = `${type}\u0000${name}`;
    const group = groups.get(key) ?? { type, name, count: 0, selfMb: 0, bytes: 0 };
    group.count++;
    group.bytes += size;
    groups.set(key, group);
  }
  return { totalBytes, groups };
}

export function summariseHeapSnapshot(file: string, top = 25): { totalMb: number; groups: HeapGroup[] } {
  const { totalBytes, groups } = groupHeapSnapshot(file);
  const largest = [...groups.values()].sort((a, b) => b.bytes - a.bytes).slice(0, top);
  return {
    totalMb: +(totalBytes / 2 ** 20).toFixed(1),
    groups: largest.map(({ type, name, count, bytes }) => ({
      type,
      name,
      count,
      selfMb: +(bytes / 2 ** 20).toFixed(1),
    })),
  };
}

export interface HeapGrowth {
  type: string;
  name: string;
  countBefore: number;
  countAfter: number;
  /** The group's own bytes after less before. */
  bytes: number;
}

/**
 * What grew between two snapshots of one heap, by kind and constructor, the most bytes first: where
 * a slow rise of the heap lives (bench/screen-memory.ts --heap-snapshots).
 */
export function heapGrowth(
  beforeFile: string,
  afterFile: string,
  top = 20,
  /** Node types to group by name too: "code" and "native" say which compiled code and which browser objects. */
  namedTypes: readonly string[] = NAMED_TYPES,
): { bytes: number; groups: HeapGrowth[] } {
  const before = groupHeapSnapshot(beforeFile, namedTypes);
  const after = groupHeapSnapshot(afterFile, namedTypes);
  const keys = new Set([...before.groups.keys(), ...after.groups.keys()]);
  const groups = [...keys].map((key) => {
    const was = before.groups.get(key);
    const is = after.groups.get(key);
    return {
      type: (is ?? was)!.type,
      name: (is ?? was)!.name,
      countBefore: was?.count ?? 0,
      countAfter: is?.count ?? 0,
      bytes: (is?.bytes ?? 0) - (was?.bytes ?? 0),
    };
  });
  return {
    bytes: after.totalBytes - before.totalBytes,
    groups: groups
      .filter((g) => g.bytes !== 0 || g.countBefore !== g.countAfter)
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, top),
  };
}

/** Chromium's performance timeline entries (and the rectangles a layout shift names): capped buffers. */
const TIMELINE =
  /^(LayoutShift|LayoutShiftAttribution|PerformanceLongAnimationFrameTiming|PerformanceScriptTiming|blink::ScriptTimingInfo|TaskAttributionTiming|DOMRectReadOnly|PerformanceEventTiming|PerformanceResourceTiming|PerformanceLongTaskTiming)$/;

export interface PageHeapGrowth {
  bytes: number;
  /**
   * V8's compiled code (bytecode, baseline and optimised code, their feedback) and its own
   * bookkeeping ("system /" nodes): grows as hot functions tier up, shrinks as cold bytecode is flushed.
   */
  engineBytes: number;
  /** The browser's performance timeline entries, each kind kept up to a fixed number (the specifications' buffer sizes). */
  timelineBytes: number;
  /** Everything else: the page's own objects, strings and DOM wrappers. */
  pageBytes: number;
  /** The page's own groups that grew most. */
  page: HeapGrowth[];
}

/**
 * What grew in a browser page's heap between two snapshots, told apart by who holds it: the engine's
 * compiled code, the browser's performance timeline, or the page itself. Only the last is the
 * page's to keep flat (bench/screen-memory.ts).
 */
export function pageHeapGrowth(beforeFile: string, afterFile: string, top = 12): PageHeapGrowth {
  const all = heapGrowth(beforeFile, afterFile, Infinity, ["object", "closure", "native", "code"]);
  const sum = (groups: HeapGrowth[]) => groups.reduce((total, g) => total + g.bytes, 0);
  const code = all.groups.filter((g) => g.type === "code" || (g.type === "native" && g.name.startsWith("system / ")));
  const timeline = all.groups.filter((g) => g.type === "native" && TIMELINE.test(g.name));
  const page = all.groups.filter((g) => !code.includes(g) && !timeline.includes(g));
  return {
    bytes: all.bytes,
    engineBytes: sum(code),
    timelineBytes: sum(timeline),
    pageBytes: sum(page),
    page: page.slice(0, top),
  };
}
