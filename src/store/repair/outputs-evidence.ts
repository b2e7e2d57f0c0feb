/**
 * What a run's outputs say its store held. results.jsonl is written from the
 * store's iteration records, one line each, and metrics.json records how many
 * lines it was written with; the store never deletes an iteration record. So a
 * store holding fewer iteration records than that lost them: a write-ahead
 * log emptied or cut short reads to LevelDB as a store that never held its
 * records (no checksum fails), and a resume would pay again, without a word,
 * for every call it held. Only `tmas repair` drops records knowingly: it notes
 * the outputs it made stale (`repairedOutputs`), which are then no evidence.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathKind } from '../../kernel/file-kind.ts';
import { storeDamaged } from '../disk/damage.ts';
import type { Store } from '../store.ts';

/** The key, in the store's manifest sublevel, of the results digest of the outputs a repair made stale. */
const REPAIRED_OUTPUTS = 'repairedOutputs';

/** A metrics.json larger than this is not read as evidence (tmas's own are far smaller; the report refuses it). */
const METRICS_READ_LIMIT = 256 * 2 ** 20;

/** What metrics.json says of the results.jsonl it was written with, or null where it says nothing readable. */
export async function outputsRecord(runDir: string): Promise<{ lines: number; sha256: string } | null> {
  const text = await readSmallFile(path.join(runDir, 'metrics.json'));
  if (text === null) return null;
  try {
    const results = (JSON.parse(text) as { results?: { lines?: unknown; sha256?: unknown } } | null)?.results;
    return Number.isSafeInteger(results?.lines) && typeof results?.sha256 === 'string' ? { lines: results.lines as number, sha256: results.sha256 } : null;
  } catch {
    return null;
  }
}

/** A regular file's text, or null when it is missing, not a regular file (a FIFO is never opened) or too large. */
async function readSmallFile(file: string): Promise<string | null> {
  const found = await pathKind(file).catch(() => null);
  if (found?.kind !== 'file' || found.size > METRICS_READ_LIMIT) return null;
  return readFile(file, 'utf8').catch(() => null);
}

/** Notes that a repair dropped records: the outputs as they are now describe a store it changed. */
export async function noteRepairedOutputs(runDir: string, store: Store): Promise<void> {
  const outputs = await outputsRecord(runDir);
  if (outputs !== null) await store.manifest().put(REPAIRED_OUTPUTS, outputs.sha256);
}

/**
 * Refuses a store that holds fewer iteration records than the results.jsonl
 * metrics.json says was written from it (see above). Outputs that cannot be
 * read say nothing, and outputs a repair made stale are not evidence.
 */
export async function checkOutputsCovered(runDir: string, store: Store): Promise<void> {
  const outputs = await outputsRecord(runDir);
  if (outputs === null || outputs.lines === 0) return;
  if ((await store.manifest().get(REPAIRED_OUTPUTS)) === outputs.sha256) return;
  let held = 0;
  for await (const _ of store.iterations().keys({ limit: outputs.lines })) held++;
  if (held >= outputs.lines) return;
  throw storeDamaged(
    runDir,
    `it holds ${held} iteration records where metrics.json says results.jsonl was written from ${outputs.lines}: records were lost from the store (a write-ahead log in store/ emptied or cut short?), and a resume would pay again for the calls they held. Restore store/ from a copy if you have one`,
  );
}
