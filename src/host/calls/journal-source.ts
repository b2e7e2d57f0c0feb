/**
 * The journal of the run a fork came from (`tmas fork DIR`), read through:
 * a call the fork's own journal lacks is looked up there by the same key (the
 * request itself), and when it is found its whole record is copied into the
 * fork's journal before the reply is delivered, as a sent call is journaled.
 * So the fork's store holds exactly the calls of the fork (its resume, replay,
 * viewer and export need nothing of DIR), and DIR is only read, through a
 * private view of its store (store/repair/check.ts): its files never change, and a
 * read-only DIR can be forked.
 */
import path from 'node:path';
import { isUserError } from '../../kernel/errors.ts';
import { hasStore, openStoreView } from '../../store/repair/check.ts';
import { findRefit, keepRefit, type Refit } from '../../store/refit.ts';
import type { CallAnswer, ForkedFrom, Store } from '../../store/store.ts';

/** An open source journal and how many calls it answered. */
export interface JournalSource {
  /** The source run's directory, as its manifest in the fork names it. */
  readonly dir: string;
  /** Calls it answered (copied into the fork's journal) in this process. */
  readonly answered: number;
  /** The call under `key`, copied into `into`'s journal when the source holds it; undefined otherwise. */
  answer(key: string, into: Store): Promise<CallAnswer | undefined>;
  /**
   * A judge call asked under `key` at `iteration` that the source asked at another iteration: the first
   * of `elsewhere` (its keys there) the source holds, copied into `into`'s journal under `key`.
   */
  answerElsewhere(key: string, iteration: number, elsewhere: readonly string[], into: Store): Promise<CallAnswer | undefined>;
  /** The iterations the source run was run to: where a call of its is looked up at other iterations. */
  readonly iterations: number;
  /** Where the call asked under `asked` was answered in a smaller window, kept in `into` too when the source holds it (refit.ts). */
  refit(asked: string, into: Store): Promise<Refit | undefined>;
  close(): Promise<void>;
}

/**
 * Reads through to the journal of an open store (a view of the source run's), counting its own answers.
 * `closes`: whether closing it closes the view; a fork's estimate and the fork itself read one view
 * (one snapshot of a run still being written), each through a source of its own, and the fork's closes it.
 */
export function journalSourceOf(dir: string, view: Store, config: unknown, options: { closes: boolean }): JournalSource {
  return sourceOf(dir, view, iterationsOf(config), options.closes);
}

function sourceOf(dir: string, view: Store, iterations: number, closes = true): JournalSource {
  let answered = 0;
  return {
    dir,
    iterations,
    get answered() {
      return answered;
    },
    async answer(key, into) {
      const record = await view.getCall(key);
      if (record === undefined) return undefined;
      // Durable in the fork before its reply exists, as a sent call: a crash after this never asks DIR again.
      await into.putCall(record);
      answered++;
      return record;
    },
    async answerElsewhere(key, iteration, elsewhere, into) {
      // One read of every key (a miss costs one getMany, not one get per iteration), then the record found, whole.
      const stored = elsewhere.length === 0 ? [] : await view.calls().getMany([...elsewhere]);
      const at = elsewhere[stored.findIndex((value) => value !== undefined)];
      const record = at === undefined ? undefined : await view.getCall(at);
      if (record === undefined) return undefined;
      // Under the fork's key and iteration, so its resume and replay find it as a call of its own; `request` stays what was sent.
      await into.putCall({ ...record, key, iteration, askedAs: record.key });
      answered++;
      return record;
    },
    async refit(asked, into) {
      const refit = await findRefit(view, asked);
      // Kept before its record is copied (journaledAt reads it next): a crash between leaves a refit whose record the fork sends again.
      if (refit !== undefined) await keepRefit(into, asked, refit);
      return refit;
    },
    close: () => (closes ? view.close() : Promise.resolve()),
  };
}

/**
 * Where the run a fork came from lies now, when the fork was moved with it: `from.dir` when it holds a
 * run, else the place that stands to the fork's directory now (`forkNow`) as `from.dir` stood to it
 * when its manifest was last written (`forkThen`), when that holds one (runs/a and runs/a-fork both
 * moved to scratch/: scratch/a). Which run it holds is checked as the journal opens (openJournalSource).
 */
export function forkSourceNow(from: ForkedFrom, forkThen: string, forkNow: string): ForkedFrom {
  if (hasStore(from.dir)) return from;
  const moved = path.resolve(forkNow, path.relative(path.resolve(forkThen), from.dir));
  return moved !== from.dir && hasStore(moved) ? { ...from, dir: moved } : from;
}

/**
 * Opens the journal of the run `from` names, or null when its directory no
 * longer holds that run (moved, removed, or another run there now): `say`
 * tells the user that the calls it would have answered are sent instead.
 */
export async function openJournalSource(from: ForkedFrom, say: (line: string) => void): Promise<JournalSource | null> {
  const gone = (why: string): null => {
    say(
      `tmas: warning: this run was forked from ${from.dir}, which ${why}: calls of the fork not yet in its own journal are sent rather than answered from that run's. ` +
        `To have them answered from it, stop (Ctrl-C) and put that run back at ${from.dir}, or beside this one as it was when forked, then resume again.`,
    );
    return null;
  };
  if (!hasStore(from.dir)) return gone('holds no run now');
  let view: Store;
  try {
    view = await openStoreView(path.resolve(from.dir));
  } catch (error) {
    if (!isUserError(error)) throw error;
    return gone(`cannot be read (${error.message})`);
  }
  const manifest = await view.getManifest().catch(() => undefined);
  if (manifest?.run !== from.run) {
    await view.close();
    return gone(`holds another run now (${manifest?.run ?? 'none'}, not ${from.run})`);
  }
  return sourceOf(from.dir, view, iterationsOf(manifest.config));
}

/** The iterations a run's configuration was run to (its manifest's latest target), 0 when it names none. */
function iterationsOf(config: unknown): number {
  const loop = typeof config === 'object' && config !== null ? (config as { loop?: { maxIterations?: unknown } }).loop : undefined;
  const iterations = loop?.maxIterations;
  return typeof iterations === 'number' && Number.isSafeInteger(iterations) && iterations > 0 ? iterations : 0;
}
