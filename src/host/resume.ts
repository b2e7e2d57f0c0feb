/**
 * Resuming a run: where each problem picks up, and whether this tmas can
 * reuse the run's journal. Which settings may change is src/settings/configure/resume.ts.
 */
import type { LoopStart } from '../../machines/contract.ts';
import { UserError } from '../kernel/errors.ts';
import { JOURNAL_VERSION } from '../kernel/journal-version.ts';
import type { Manifest, Store } from '../store/store.ts';
import { VERSION } from '../kernel/version.ts';

/** How many problems' last iterations are read at once: LevelDB's reads run in libuv's threads, and a few at once keep them busy. */
const STARTS_AT_ONCE = 16;

/**
 * Where one problem picks up: after its last completed iteration, with the
 * banks and rollouts of then and, in a run with a judge, the verdicts of every
 * iteration done (so a verdict is reused as it would have been without the stop).
 */
async function loadStart(store: Store, ordinal: number, judged: boolean): Promise<LoopStart> {
  const last = await store.lastIteration(ordinal);
  if (!last) return { iteration: 0, experience: [], guidelines: [], rollouts: [] };
  const verdicts = judged && last.record.judged !== undefined ? await judgedRequests(store, ordinal) : undefined;
  return { iteration: last.record.iteration + 1, experience: last.banks.experience, guidelines: last.banks.guidelines, rollouts: last.record.rollouts, ...(verdicts ? { judged: verdicts } : {}) };
}

/** The judge verdicts of a problem's completed iterations, by iteration then request key, read from the records' outlines: keys and booleans (null: a reply without one), no texts. */
async function judgedRequests(store: Store, ordinal: number): Promise<Record<number, Record<string, boolean | null>>> {
  const judged: Record<number, Record<string, boolean | null>> = {};
  for await (const record of store.iterationOutlines(ordinal)) if (record.judged !== undefined) judged[record.iteration] = record.judged;
  return judged;
}

/** Where each problem of a stored run picks up, in input order; `judged`: the run has an LLM judge, whose verdicts are read back too. */
export async function loadStarts(store: Store, count: number, judged: boolean): Promise<LoopStart[]> {
  const starts: LoopStart[] = [];
  for (let from = 0; from < count; from += STARTS_AT_ONCE) {
    const ordinals = Array.from({ length: Math.min(STARTS_AT_ONCE, count - from) }, (_, i) => from + i);
    starts.push(...(await Promise.all(ordinals.map((ordinal) => loadStart(store, ordinal, judged)))));
  }
  return starts;
}

/** The last journal version declared as `PROTOCOL_VERSION = N` in src/kernel/protocol.ts; later ones are `JOURNAL_VERSION = N` in src/kernel/journal-version.ts. */
const LAST_VERSION_NAMED_PROTOCOL = 6;

/** The git command that checks out the commit before journal version `next` began (the package version is not bumped with it). */
function checkoutBefore(next: number): string {
  const [declared, file] = next <= LAST_VERSION_NAMED_PROTOCOL ? ['PROTOCOL_VERSION', 'src/kernel/protocol.ts'] : ['JOURNAL_VERSION', 'src/kernel/journal-version.ts'];
  return `git checkout "$(git log --format=%h -S '${declared} = ${next}' -- ${file} | tail -1)~1" && npm ci`;
}

/**
 * Refuses a run written under another journal version: its journal keys would
 * not match this version's, so a resume or replay would pay for every call again.
 */
export function checkJournalVersion(manifest: Manifest, runDir: string): void {
  const written = manifest.journalVersion;
  if (written === JOURNAL_VERSION) return;
  // Every tmas wrote a whole number here: anything else ("6", 2.5, null) is damage, not a version to check out.
  if (!Number.isSafeInteger(written) || written < 1) {
    throw new UserError('TMAS_STORE_DAMAGED', `The run manifest in ${runDir} is damaged: its journalVersion is ${JSON.stringify(written)}, not a journal version (a whole number). Restore the run directory from a copy.`);
  }
  const how =
    written < JOURNAL_VERSION
      ? `a tmas of journal version ${written}: in a git clone of tmas, the commit before journal version ${written + 1}, ${checkoutBefore(written + 1)}`
      : `tmas ${manifest.tmasVersion} (journal version ${written}) or later`;
  throw new UserError(
    'TMAS_RESUME',
    `${runDir} was written by tmas ${manifest.tmasVersion} (journal version ${written}); this tmas ${VERSION} uses journal version ${JOURNAL_VERSION} and cannot reuse its journal ` +
      `(what changed: docs/concepts/journal.md, "Journal versions"). Resume or replay it with ${how}; or run it again into a new --output-file.`,
  );
}
