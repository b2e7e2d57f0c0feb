/**
 * What a run's outputs say its store held. results.jsonl is written from the
 * store's iteration records, one line each, and metrics.json records how many
 * lines it was written with; the store never deletes an iteration record. So a
 * store holding fewer iteration records than that lost them: a write-ahead
 * log emptied or cut short reads to LevelDB as a store that never held its
 * records (no checksum fails), and a resume would pay again, without a word,
 * for every call it held. A stopped run's results.jsonl may hold no line, so
 * metrics.json also records how many messages the log held when it was written
 * (`log.messages`): a log that ends before that lost its end, with the calls
 * journaled there. Only `tmas repair` drops records knowingly: it notes
 * the outputs it made stale (`repairedOutputs`), which are then no evidence.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { UserError } from '../../kernel/errors.ts';
import { pathKind } from '../../kernel/file-kind.ts';
import { storeDamaged } from '../disk/damage.ts';
import type { Store } from '../store.ts';

/** The key, in the store's manifest sublevel, of the results digest of the outputs a repair made stale. */
const REPAIRED_OUTPUTS = 'repairedOutputs';

/** A metrics.json larger than this is not read as evidence (tmas's own are far smaller; the report refuses it). */
const METRICS_READ_LIMIT = 256 * 2 ** 20;

/** What metrics.json says of the outputs and the store they were written from: see outputsRecord. */
export interface OutputsRecord {
  lines: number;
  sha256: string;
  run?: string;
  messages?: number;
}

/**
 * What metrics.json says of the results.jsonl it was written with, of the run that wrote it (`run`) and of its
 * message log's length then (`messages`), each absent in files written before it was recorded; null where it
 * says nothing readable.
 */
export async function outputsRecord(runDir: string): Promise<OutputsRecord | null> {
  const text = await readSmallFile(path.join(runDir, 'metrics.json'));
  if (text === null) return null;
  try {
    const parsed = JSON.parse(text) as { run?: unknown; results?: { lines?: unknown; sha256?: unknown }; log?: { messages?: unknown } } | null;
    const results = parsed?.results;
    if (!Number.isSafeInteger(results?.lines) || typeof results?.sha256 !== 'string') return null;
    const messages = parsed?.log?.messages;
    return { lines: results.lines as number, sha256: results.sha256, ...(typeof parsed?.run === 'string' ? { run: parsed.run } : {}), ...(Number.isSafeInteger(messages) ? { messages: messages as number } : {}) };
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
 * metrics.json says was written from it (see above; `outputs`: outputsRecord's,
 * read once by the caller). Outputs that cannot be read say nothing, and outputs
 * a repair made stale are not evidence. Outputs another run wrote are refused
 * first (checkOutputsRun).
 */
export async function checkOutputsCovered(runDir: string, store: Store, outputs: OutputsRecord | null): Promise<void> {
  if (outputs === null) return;
  await checkOutputsRun(runDir, store, outputs.run);
  if (outputs.lines === 0) return;
  if ((await store.manifest().get(REPAIRED_OUTPUTS)) === outputs.sha256) return;
  let held = 0;
  for await (const _ of store.iterations().keys({ limit: outputs.lines })) held++;
  if (held >= outputs.lines) return;
  throw storeDamaged(
    runDir,
    `it holds ${held} iteration records where metrics.json says results.jsonl was written from ${outputs.lines}: records were lost from the store (a write-ahead log in store/ emptied or cut short?), and a resume would pay again for the calls they held. Restore store/ from a copy if you have one`,
  );
}

/**
 * Refuses a message log shorter than metrics.json says it was when written (`log.messages`; absent in files written
 * before it was recorded): checked after the log's own end (log-end-check.ts), which names the messages lost where
 * the store still says how far its processes logged. Outputs a repair made stale are not evidence.
 */
export async function checkLogCovered(runDir: string, store: Store, outputs: OutputsRecord | null): Promise<void> {
  const messages = outputs?.messages;
  if (outputs === null || messages === undefined) return;
  if ((await store.manifest().get(REPAIRED_OUTPUTS)) === outputs.sha256) return;
  const held = await store.nextSeq();
  if (held >= messages) return;
  throw storeDamaged(
    runDir,
    `its message log holds ${held} messages where metrics.json says it held ${messages} when written: the end of the store was lost (a write-ahead log in store/ emptied or cut short?), with the calls journaled there, and a resume would pay again for them. Restore store/ from a copy if you have one`,
  );
}

/**
 * Refuses outputs that another run wrote (TMAS_REPORT_INCONSISTENT): metrics.json and results.jsonl copied
 * together agree with each other, and the report would print that run's figures under this one's settings.
 * A metrics.json written before the run id was recorded in it says nothing.
 */
async function checkOutputsRun(runDir: string, store: Store, written: string | undefined): Promise<void> {
  const run = (await store.getManifest())?.run;
  if (written === undefined || run === undefined || written === run) return;
  throw new UserError(
    'TMAS_REPORT_INCONSISTENT',
    `The outputs in ${runDir} are not its store's: metrics.json was written by run ${written}, and the store holds run ${run} (one of them copied from another run's directory). Nothing was changed. ` +
      `If the store is this directory's, move metrics.json and results.jsonl out of it and write them again from the store with: tmas run --resume ${runDir}; else restore the directory from a copy.`,
  );
}
