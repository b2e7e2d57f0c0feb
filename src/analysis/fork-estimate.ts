/**
 * How many calls a fork (`tmas fork DIR`) expects its source's journal to
 * answer, said before it starts. The fork's own configuration is run offline
 * on a private copy of DIR's store, every problem from iteration 0, as a
 * replay is: a call whose request DIR journaled is answered; the first that
 * it did not (a request the change reaches) stops that problem's iteration
 * there, as a replay's miss does, since what follows depends on an answer
 * not yet known. Calls after a problem's first changed one that happen to be
 * the same again (a later stage the change does not reach) are reused but
 * not counted; calls of that iteration answered offline only because the
 * missed answers are absent (a bank update over the candidates DIR had, where
 * the change adds candidates) are counted but sent: an estimate, not a bound.
 * It costs what a replay of that part costs; DIR is only read. Every call is
 * answered through `source`, the view of DIR's journal the fork itself reads
 * (journal-source.ts), and none from the copy's own journal: so a judge call
 * the fork asks at another iteration than DIR did is counted as the fork
 * answers it, and a DIR still being written is estimated as the fork will
 * find it, not as its journal had grown by the time the copy was made.
 */
import type { RunConfig, Secrets } from '../settings/config.ts';
import { runEvaluation, type RunOptions } from '../host/run/run-evaluation.ts';
import { makeScratchDir, removeScratchDir } from '../store/repair/scratch.ts';
import { copyForRerun, replayActiveProblems } from './replay.ts';
import type { JournalSource } from '../host/calls/journal-source.ts';
import { Store } from '../store/store.ts';

/** Empties the journal of the copy at `work` (a run directory): its calls are answered through the fork's own view of DIR. */
async function forgetCopiedCalls(work: string): Promise<void> {
  const copy = await Store.open(work);
  try {
    await copy.calls().clear();
  } finally {
    await copy.close();
  }
}

/** The calls of a fork of `sourceDir` under `config` that DIR's journal (read through `source`) is sure to answer (see above). */
export async function forkReuseEstimate(sourceDir: string, config: RunConfig, options: { strategy: NonNullable<RunOptions['strategy']>; secrets: Secrets; source: JournalSource }): Promise<number> {
  const { source } = options;
  const work = await makeScratchDir('fork-estimate');
  try {
    // Every block checked first, as a replay does: a corrupt one is TMAS_STORE_DAMAGED naming DIR, not an error of this scratch copy.
    // Its journal was checked as the fork was prepared (prepareFork): the check reads the whole log, once is enough.
    const { problems } = await copyForRerun(sourceDir, work, { everyBlock: true });
    await forgetCopiedCalls(work);
    const loop = { ...config.loop, activeProblems: replayActiveProblems(config.loop.activeProblems) };
    const quiet = { stdout: () => {}, stderr: () => {} };
    const outcome = await runEvaluation({ ...config, loop, outputs: { ...config.outputs, dir: work } }, options.secrets, problems, quiet, { resume: true, offline: true, outputs: false, strategy: options.strategy, source });
    return outcome.calls.reused;
  } finally {
    await source.close();
    await removeScratchDir(work);
  }
}
