/**
 * `tmas repair DIR`: LevelDB's own repair of a damaged store (it rebuilds the
 * MANIFEST and CURRENT from the table and log files, keeping every entry it
 * can read), after a copy of the store as it was is kept beside it, and after
 * the blocks and log records that fail their checksums are made unreadable to
 * it (block-check.ts), since its repair would otherwise keep them. A record
 * whose text was lost is dropped (a journaled call so becomes one to issue
 * again). Then reports what the store holds: a resume re-issues only the calls the journal
 * lost.
 */
import { constants, existsSync } from 'node:fs';
import { access, cp, mkdir, readdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { ClassicLevel } from 'classic-level';
import { UserError } from '../../kernel/errors.ts';
import { hasStore, openStoreView, whyNoStore } from './check.ts';
import { requireOpenablePath } from '../run-dir-path.ts';
import { lostLogTail } from './log-end-check.ts';
import { CALLS_LOST, callsLost } from './journal-check.ts';
import { manifestMismatch } from './manifest-check.ts';
import { Store } from '../store.ts';
import { markFailingBlocks, storeBlockDamage } from '../disk/block-check.ts';
import { checkStoreFiles, misplacedStoreFile, noLevelDbStore } from '../disk/store-files.ts';
import { lockedError, runLockHolder } from '../run-lock.ts';
import { noteRepairedOutputs } from './outputs-evidence.ts';
import { iterationGaps } from './iteration-gaps.ts';
import { gapsOf, MESSAGE_GAPS } from '../message-sequence.ts';

/** What a repaired store holds. */
export interface RepairReport {
  /** Where the store as it was before the repair was copied. */
  kept: string;
  manifest: boolean;
  problems: number;
  calls: number;
  iterations: number;
  messages: number;
  /** Records dropped because a text they refer to was lost (their calls are issued again on resume). */
  dropped: string[];
  /** Calls the message log's replies name that the journal lost (whole tables, or records dropped above): noted in the store, so that its readers read the run without them (journal-check.ts). */
  callsLost: number;
  /** Table and log files with blocks or records that failed their checksums, which the repair dropped (block-check.ts). */
  unreadable: string[];
  /** Why a resume would still refuse the repaired store (its manifest is not its run's, manifest-check.ts), or null. */
  unresumable: string | null;
  /** Problems that lost an iteration before their last one (iteration-gaps.ts), which a resume does not redo. */
  iterationGaps: string[];
  /** The messages the log lost (the repair's or earlier gaps: first and last sequence number of each), noted in the store. */
  messageGaps: Array<[number, number]>;
}

/**
 * A store a later tmas wrote (its store format or journal version) is not this tmas's to rewrite: the view
 * every reader opens says so before anything is copied or changed. Any other failure to open is what the
 * repair is for.
 */
async function refuseNewerStore(runDir: string): Promise<void> {
  const view = await openStoreView(runDir).catch((error: unknown) => {
    if (error instanceof UserError && error.code === 'TMAS_STORE_FORMAT') throw error;
    return null;
  });
  await view?.close();
}

async function count(entries: AsyncIterable<unknown>): Promise<number> {
  let n = 0;
  for await (const _ of entries) n++;
  return n;
}

function stamp(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
}

/** The suffix of a copy not yet whole: a repair killed while copying leaves its folder so named. */
const PARTIAL = '.partial';

/**
 * A new folder for the copy of the store as it was, named by the time, and made under that name with
 * PARTIAL after it: one an earlier repair took, whole or not (a repair given again in the same second,
 * after one was killed or done), is left as it is and a suffix is added, where the copy used to fail
 * with an internal error on the first file it met there.
 */
async function keptPlace(runDir: string, now: Date): Promise<string> {
  const named = path.join(runDir, `store.damaged-${stamp(now)}`);
  for (let n = 1; ; n++) {
    const place = n === 1 ? named : `${named}-${n}`;
    if (existsSync(place)) continue;
    try {
      await mkdir(`${place}${PARTIAL}`);
      return place;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/** Copies the store to `kept` by way of its PARTIAL folder, renamed once the copy is whole. */
async function keepCopy(storeDir: string, kept: string): Promise<void> {
  await cp(storeDir, `${kept}${PARTIAL}`, { recursive: true, errorOnExist: true, force: false });
  await rename(`${kept}${PARTIAL}`, kept);
}

/** Repairs the store of a run directory in place, keeping a copy of it first. */
export async function repairStore(runDir: string, now = new Date()): Promise<RepairReport> {
  requireOpenablePath(runDir, 'repairs');
  if (!hasStore(runDir)) throw new UserError('TMAS_RUN_DIR', `${runDir} is not a tmas run directory (${whyNoStore(runDir)}). Give the --output-file of a run.`);
  const storeDir = path.join(runDir, 'store');
  await access(storeDir, constants.W_OK).catch((error: unknown) => {
    throw new UserError('TMAS_OUTPUT', `Cannot repair ${runDir}: its store is not writable (${(error as Error).message}). Copy the directory to a writable place and repair the copy.`, { cause: error });
  });
  // LevelDB's repair reads every file of the folder, and so does the copy kept: a FIFO or a device there never ends.
  const names = await readdir(storeDir);
  const misplaced = await misplacedStoreFile(storeDir, names);
  if (misplaced !== null) {
    throw new UserError('TMAS_STORE_DAMAGED', `Cannot repair ${runDir}: ${misplaced}. Move it out of ${storeDir}, then run tmas repair again. Nothing was changed.`);
  }
  const none = noLevelDbStore(runDir, names);
  if (none !== null) throw none;
  await refuseNewerStore(runDir);
  const kept = await keptPlace(runDir, now);
  await keepCopy(storeDir, kept);
  // A store another process holds must not be changed under it: its run lock tells before anything is written.
  const holder = await runLockHolder(runDir);
  if (holder) throw lockedError(runDir, holder);
  // Before LevelDB opens the store: its open would drop a log record that fails its checksum without a word.
  const unreadable = await markFailingBlocks(storeDir);
  // LevelDB's own lock (a holder without the run lock): an open of a whole store tells.
  await Store.open(runDir).then(
    (store) => store.close(),
    (error: unknown) => {
      if (error instanceof UserError && error.code === 'TMAS_LOCKED') throw error;
    },
  );
  await ClassicLevel.repair(storeDir).catch((error: unknown) => {
    throw new UserError('TMAS_STORE_DAMAGED', `LevelDB could not repair ${storeDir}: ${(error as Error).message}. The store as it was is kept in ${kept}.`, { cause: error });
  });
  // What a resume checks first, so that what the repair left is known to resume.
  const left = await storeBlockDamage(await checkStoreFiles(runDir), { everyBlock: true });
  if (left !== null) throw new UserError('TMAS_STORE_DAMAGED', `LevelDB's repair of ${storeDir} left it damaged: ${left}. The store as it was is kept in ${kept}.`);
  const store = await Store.open(runDir);
  try {
    await store.readAll();
    const dropped = await store.danglingRecords({ drop: true });
    // The outputs may count records the repair dropped: a resume rewrites them from what is left.
    await noteRepairedOutputs(runDir, store);
    // The messages the repair lost leave gaps in the log, which its readers then take as known.
    const gaps = await gapsOf(store.messages().keys());
    // A log that lost its end has no gap between its keys: the messages its processes logged past them are lost too.
    const tail = await lostLogTail(store);
    if (tail !== null) gaps.push(tail);
    await store.manifest().put(MESSAGE_GAPS, gaps);
    // No repair brings a lost call back: it is noted, so that the readers that refuse a journal short of its log read on.
    const { lost } = await callsLost(store);
    await store.manifest().put(CALLS_LOST, lost.size);
    // Read as known from here on too: the manifest's check below reads the first message, which may be past a gap.
    store.messageGaps = gaps;
    const mismatch = await manifestMismatch(runDir, store);
    return {
      unresumable: mismatch === null ? null : `the run manifest in ${runDir} is not the one its run wrote: ${mismatch.what}`,
      dropped,
      callsLost: lost.size,
      unreadable,
      kept,
      manifest: (await store.getManifest()) !== undefined,
      problems: await count(store.problems().keys()),
      calls: await count(store.calls().keys()),
      iterations: await count(store.iterations().keys()),
      messages: await count(store.messages().keys()),
      iterationGaps: await iterationGaps(store),
      messageGaps: gaps,
    };
  } finally {
    await store.close();
  }
}
