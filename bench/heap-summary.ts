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

export function summariseHeapSnapshot(file: string, top = 25): { totalMb: number; groups: HeapGroup[] } {
  const snapshot = JSON.parse(fs.readFileSync(file, "utf8")) as Snapshot;
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf("type");
  const nameAt = fields.indexOf("name");
  const sizeAt = fields.indexOf("self_size");
  const groups = new Map<string, HeapGroup>();
  let total = 0;
  for (let i = 0; i < snapshot.nodes.length; i += width) {
    const type = types[snapshot.nodes[i + typeAt]];
    const size = snapshot.nodes[i + sizeAt];
    total += size;
    // strings and code by their type: their "names" are their contents
    const name = type === "object" || type === "closure" ? snapshot.strings[snapshot.nodes[i + nameAt]] : `(${type})`;
    const key = `${type}\u0000${name}`;
    const group = groups.get(key) ?? { type, name, count: 0, selfMb: 0 };
    group.count++;
    group.selfMb += size / 2 ** 20;
    groups.set(key, group);
  }
  const largest = [...groups.values()].sort((a, b) => b.selfMb - a.selfMb).slice(0, top);
  return {
    totalMb: +(total / 2 ** 20).toFixed(1),
    groups: largest.map((g) => ({ ...g, selfMb: +g.selfMb.toFixed(1) })),
  };
}
