/**
 * `tmas log DIR`: the message log as JSONL, filtered, for jq and pandas.
 * Streams from LevelDB: a log of any size is never held in memory.
 */
import type { Envelope } from '../../kernel/protocol.ts';
import { openRun } from '../../analysis/open-run.ts';
import { checkRunFilters } from './run-filters.ts';

/** Filters of `tmas log`; each given one must match. */
export interface LogFilters {
  problem?: string;
  iteration?: number;
  /** The role a message is to or from (`solution`, `verification`, …). */
  role?: string;
  /** A message type, or a prefix ending in `.` (e.g. `bank.`). */
  type?: string;
}

/** True when an envelope passes the filters. */
export function matchesFilters(envelope: Envelope, filters: LogFilters): boolean {
  const { message } = envelope;
  if (filters.problem !== undefined && message.problem !== filters.problem) return false;
  if (filters.iteration !== undefined && message.iteration !== filters.iteration) return false;
  if (filters.type !== undefined && !(filters.type.endsWith('.') ? message.type.startsWith(filters.type) : message.type === filters.type)) return false;
  if (filters.role !== undefined) {
    const address = `role:${filters.role}`;
    if (envelope.from !== address && envelope.to !== address) return false;
  }
  return true;
}

/** Writes the matching envelopes, one JSON line each; returns how many. */
export async function runLogCommand(runDir: string, filters: LogFilters, write: (line: string) => Promise<void> | void): Promise<number> {
  const { store, manifest } = await openRun(runDir);
  let count = 0;
  try {
    await checkRunFilters(store, manifest, runDir, filters);
    for await (const envelope of store.envelopes()) {
      if (!matchesFilters(envelope, filters)) continue;
      await write(JSON.stringify(envelope));
      count++;
    }
  } finally {
    await store.close();
  }
  return count;
}
