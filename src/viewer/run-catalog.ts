/**
 * The runs one viewer serves, opened only when needed. The runs page lists
 * each from its metrics.json (run-listing.ts); a run's store is opened (a
 * private copy, by analysis/open-run.ts, which the command passes in) the
 * first time one of its pages, its problem figures, or a listing without
 * metrics.json asks for it, and kept open until the viewer closes.
 *
 * A run that another process is writing (its tmas.lock is held) is read from a
 * copy made without taking its lock; the copy is made again when it is asked
 * for and older than REFRESH_MS (and than five times what it took to make), so its pages move as the run goes, and once
 * the lock is gone the run is read as finished. The copy before the current one
 * is closed only at the next refresh, so a request still reading it ends first.
 */
import path from 'node:path';
import type { RunManifest } from '../host/run/run-manifest.ts';
import { TmasError, UserError } from '../kernel/errors.ts';
import { metricsFromLog } from '../observers/log-metrics.ts';
import type { IterationMetrics } from '../observers/metrics.ts';
import { checkStoreFiles } from '../store/disk/store-files.ts';
import { checkStoreBlocks } from '../store/disk/block-check.ts';
import { hasStore } from '../store/repair/check.ts';
import { runLockHolder } from '../store/run-lock.ts';
import type { Store } from '../store/store.ts';
import type { FoundDir, FolderScan } from './run-folder.ts';
import { blankListing, factsFromMetrics, factsFromRun, readRunMetrics, type ListedMetrics, type RunFacts, type RunListing } from './run-listing.ts';
import { listingFromStore } from './store-listing.ts';
import { finishedRun, type ViewedRun } from './viewed-run.ts';

/** How old a copy of a run written by another process may be before it is made again (at least five times what the copy took). */
export const REFRESH_MS = 3000;

/** The runs of a viewer. */
export interface RunCatalog {
  /** How many runs are listed. */
  readonly size: number;
  /** What the scan left out to stay bounded (see run-folder.ts). */
  readonly truncated: string | null;
  /** A run's row of the runs page, from what is small (its metrics.json, else its manifest and counts: store-listing.ts); a run that cannot be read is a row with its error. */
  listing(index: number): Promise<RunListing>;
  /** A run's row, curves and comparison basis, for the runs compared (its log folded when it has no metrics.json); a run that cannot be read is a row with its error. */
  facts(index: number): Promise<RunFacts>;
  /** A run, its store open; throws the error that keeps it from being read. */
  run(index: number): Promise<ViewedRun>;
  close(): Promise<void>;
}

/** Opens a run directory for reading without taking its lock: analysis/open-run.ts's openRun (a private copy), given by the command. */
export type OpenRun = (dir: string) => Promise<{ store: Store; manifest: RunManifest }>;

/** A run the catalog opens from its directory. */
interface DirEntry {
  found: FoundDir;
  opened: Promise<ViewedRun> | null;
  /** When the open copy was ready; null while it is being made. */
  readyAt: number | null;
  /** How long the last copy took: a large store is copied again less often. */
  copyMs: number;
  /** Whether the open copy is of a run another process was writing. */
  foreign: boolean;
  previous: Promise<ViewedRun> | null;
  /** The facts of a run that no process writes any more: they do not change. */
  settled: RunFacts | null;
  /** The row of a run listed from its store that no process writes any more: it does not change. */
  listed: RunListing | null;
}

/** A run read from a copy while another process writes it: live until a later look finds its lock gone. */
function foreignRun(dir: string, opened: Awaited<ReturnType<OpenRun>>): ViewedRun {
  let curves: Promise<IterationMetrics[]> | null = null;
  return { name: path.basename(dir), dir, ...opened, live: () => true, curves: () => (curves ??= metricsFromLog(opened.store)) };
}

function codedError(error: unknown): { code: string; message: string } {
  return { code: error instanceof TmasError ? error.code : 'TMAS_INTERNAL', message: (error as Error).message };
}

async function closeRun(run: Promise<ViewedRun> | null): Promise<void> {
  const opened = await run?.catch(() => null);
  await opened?.store.close().catch(() => {});
}

/**
 * A run's row: a finished run's from its metrics.json (its facts, kept), any
 * other's from its store's manifest and counts (store-listing.ts), its log
 * left for its page.
 */
async function listingOf(entry: DirEntry, index: number, read: Pick<RunCatalog, 'facts' | 'run'>): Promise<RunListing> {
  if (entry.settled) return entry.settled.listing;
  if (entry.listed) return entry.listed;
  const base = blankListing(index, entry.found.label, entry.found.dir, entry.found.error);
  if (entry.found.error) return base;
  try {
    const live = (await runLockHolder(entry.found.dir)) !== null;
    if (!live && (await readRunMetrics(entry.found.dir)) !== null) return (await read.facts(index)).listing;
    const row = await listingFromStore(base, await read.run(index));
    if (row.status !== 'live') entry.listed = row;
    return row;
  } catch (error) {
    return { ...base, status: 'error', error: codedError(error) };
  }
}

/**
 * A finished run's row, from its metrics.json, once its store's structure is checked (what `tmas report`
 * checks first: CURRENT, its MANIFEST, the tables it names; a stat and a few bytes a file) and its
 * write-ahead logs read (a few megabytes at most, whose records LevelDB's open would drop without a word).
 * Before, a run whose store lost its CURRENT or a table, or held a corrupt log record, was listed `done`
 * with its Pass@1 and overlaid with the others, where every page of it and the report said the store was damaged.
 */
async function factsOfFinished(dir: string, base: RunListing, metrics: ListedMetrics): Promise<RunFacts> {
  if (hasStore(dir)) await checkStoreBlocks(dir, await checkStoreFiles(dir), { everyBlock: false });
  return factsFromMetrics(base, metrics, false);
}

/** The catalog of the runs a scan found, each opened by `openRun` when first needed. */
export function createRunCatalog(scan: FolderScan, openRun: OpenRun): RunCatalog {
  const entries: DirEntry[] = scan.found.map((found) => ({ found, opened: null, readyAt: null, copyMs: 0, foreign: false, previous: null, settled: null, listed: null }));
  const entryAt = (index: number): DirEntry => {
    const entry = entries[index];
    if (!entry) throw new RangeError(`no run ${index}`);
    return entry;
  };

  async function open(entry: DirEntry): Promise<ViewedRun> {
    const { dir } = entry.found;
    const foreign = (await runLockHolder(dir)) !== null;
    const opened = await openRun(dir);
    return foreign ? foreignRun(dir, opened) : finishedRun(dir, opened.store, opened.manifest);
  }

  async function run(index: number): Promise<ViewedRun> {
    const entry = entryAt(index);
    if (entry.found.error) throw new UserError(entry.found.error.code, entry.found.error.message);
    // A copy of a live run is made again once the last one is done and old enough: never two at once.
    const stale = entry.foreign && entry.readyAt !== null && Date.now() - entry.readyAt > Math.max(REFRESH_MS, 5 * entry.copyMs);
    if (entry.opened === null || stale) {
      await closeRun(entry.previous);
      entry.previous = entry.opened;
      entry.readyAt = null;
      const started = Date.now();
      const opening = open(entry);
      entry.opened = opening;
      opening.then(
        (opened) => {
          entry.foreign = opened.live();
          entry.copyMs = Date.now() - started;
          entry.readyAt = Date.now();
        },
        // A failed open is not kept: the next request tries again (a copy taken while the store changed).
        () => {
          if (entry.opened === opening) entry.opened = null;
        },
      );
    }
    return entry.opened as Promise<ViewedRun>;
  }

  async function facts(index: number): Promise<RunFacts> {
    const entry = entryAt(index);
    if (entry.settled) return entry.settled;
    const base = blankListing(index, entry.found.label, entry.found.dir, entry.found.error);
    if (entry.found.error) return { listing: base, iterations: [], evaluation: null, problems: [], maxIterations: null, grading: '?' };
    try {
      const live = (await runLockHolder(entry.found.dir)) !== null;
      const metrics = await readRunMetrics(entry.found.dir);
      // A run going on (a resume, when metrics.json is there) is read from its store, as is one stopped before writing metrics.json.
      const result = metrics && !live ? await factsOfFinished(entry.found.dir, base, metrics) : await factsFromRun(base, await run(index));
      if (result.listing.status !== 'live') entry.settled = result;
      return result;
    } catch (error) {
      return { listing: { ...base, status: 'error', error: codedError(error) }, iterations: [], evaluation: null, problems: [], maxIterations: null, grading: '?' };
    }
  }

  return {
    size: entries.length,
    truncated: scan.truncated,
    listing: (index) => listingOf(entryAt(index), index, { facts, run }),
    facts,
    run,
    async close() {
      for (const entry of entries) {
        await closeRun(entry.previous);
        await closeRun(entry.opened);
      }
    },
  };
}

/** A catalog of runs already open in this process (`tmas run --view`: the run going on). */
export function openRunsCatalog(runs: ViewedRun[]): RunCatalog {
  const at = (index: number): ViewedRun => {
    const run = runs[index];
    if (!run) throw new RangeError(`no run ${index}`);
    return run;
  };
  return {
    size: runs.length,
    truncated: null,
    // The run of this process: its curves are its live collector's, read without its log.
    listing: async (index) => (await factsFromRun(blankListing(index, at(index).name, at(index).dir, null), at(index))).listing,
    facts: (index) => factsFromRun(blankListing(index, at(index).name, at(index).dir, null), at(index)),
    run: async (index) => at(index),
    close: async () => {},
  };
}
