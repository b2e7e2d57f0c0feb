/**
 * `tmas replay DIR`: re-runs the actors of a finished run with every
 * completion served from its journal and no network, and reports whether the
 * messages are identical to the logged ones or the first one that diverges.
 *
 * The run's store is copied to a scratch directory and its iteration marks
 * and banks are cleared, so the replay starts every problem from iteration 0
 * while the journal (and the old log, for comparison) stay. The run directory
 * itself is never written. Messages are matched by (type, correlation), since
 * a run at concurrency > 1 logs them in arrival order.
 */
import type { LoopConfig, RunConfig, Secrets } from '../settings/config.ts';
import { resolveStrategy } from '../host/strategy/plugins.ts';
import { checkJournalVersion } from '../host/resume.ts';
import type { JournalUse } from '../store/repair/journal-check.ts';
import { checkRunAgents } from '../settings/files/agents-file.ts';
import { checkRunTokenizer, relocateRunTokenizer } from '../settings/files/tokenizer-file.ts';
import { runEvaluation } from '../host/run/run-evaluation.ts';
import { makeScratchDir, removeScratchDir } from '../store/repair/scratch.ts';
import { checkRecordsReadable } from '../store/repair/check.ts';
import { openRun, requireFinishedRun } from './open-run.ts';
import { compareLogs, type ReplayReport } from './replay-compare.ts';
import { iterationsIn, replayPhases, type ReplayPhases } from './replay-phases.ts';

export type { ReplayReport } from './replay-compare.ts';

/**
 * Problems replayed at once. Served from the journal, a problem runs as fast
 * as the CPU allows, so more at once only holds more state: on a run of
 * 100 problems, all at once peaked higher and took longer than 8 at once, and
 * 4 or 16 did about as well as 8.
 * It does not change what is replayed: the active-problem limit shapes no call.
 */
const REPLAY_ACTIVE_PROBLEMS = 8;

/** Problems re-run at once from a journal: the run's own limit, at most REPLAY_ACTIVE_PROBLEMS (0: no limit of its own). */
export function replayActiveProblems(active: number): number {
  return active === 0 ? REPLAY_ACTIVE_PROBLEMS : Math.min(active, REPLAY_ACTIVE_PROBLEMS);
}

/**
 * A private copy of a run's store in `work` (its tables linked) with its
 * iteration marks and banks cleared, so a run started on it does every
 * problem again from iteration 0 with the journal (and the old log) kept.
 * Returns the run's manifest, its problems, where its log ended and, asked for
 * (`phases`), the iteration targets its processes were run to (replay-phases.ts).
 */
export async function copyForRerun(runDir: string, work: string, options: { everyBlock?: boolean; phases?: boolean; journal?: JournalUse }) {
  // The copy is the re-run's own store: the run directory is never written. A replay reads every message
  // and call, so it checks every block first (everyBlock): a corrupt one is named, never read as other text.
  const { store: copy, manifest } = await openRun(runDir, work, options);
  try {
    checkJournalVersion(manifest, runDir);
    // Every record is read by the re-run: one that cannot be is named now, by the run it is in, not by the copy.
    if (options.everyBlock === true) await checkRecordsReadable(runDir, copy);
    const logEnd = await copy.nextSeq();
    const problems = await copy.loadProblems();
    const final = manifest.config.loop.maxIterations;
    const phases: ReplayPhases = options.phases === true ? await replayPhases(copy, logEnd, final) : { targets: [final], firstReached: new Map() };
    await copy.iterations().clear();
    await copy.banks().clear();
    return { manifest, problems, logEnd, phases };
  } finally {
    await copy.close();
  }
}

/** Replays a run. `changes` are settings to alter (e.g. the Jaccard threshold); `live` sends journal misses to the endpoint. */
export async function replayRun(
  runDir: string,
  options: {
    changes?: Partial<Pick<LoopConfig, 'jaccardThreshold' | 'agents' | 'agentsDigest'>>;
    live?: boolean;
    secrets: Secrets;
    stderr?: (line: string) => void;
    /** Where the run's own tokenizer lies now (`--tokenizer-path`), when the run or the tokenizer was moved. */
    tokenizerPath?: string;
    /** `--timeout`: the calls' idle limit, which also bounds an agents module's own machines; left out, the run's own. */
    timeoutSeconds?: number;
  },
): Promise<ReplayReport> {
  // A run still being written has a log that ends where it is now: its replay would read as a run stopped there.
  await requireFinishedRun(runDir, 'a replay');
  // Removed on every exit path, or by the next command after a kill -9 (scratch.ts).
  const work = await makeScratchDir('replay');
  try {
    const { manifest, problems, logEnd, phases } = await copyForRerun(runDir, work, { everyBlock: true, phases: true, journal: { none: 'A replay would find no call to serve and list each as a divergence', some: 'A replay would find no journaled reply for them and list each as a divergence' } });
    // Where the run's tokenizer lies now: where the user says (checked to be the same one), else where the manifest says.
    const located =
      options.tokenizerPath === undefined
        ? checkRunTokenizer(manifest.config.context, runDir, { force: false, command: 'tmas replay' })
        : relocateRunTokenizer(manifest.config.context, options.tokenizerPath, runDir);
    // Its agents module: the one given (a change, or the same module moved), else the manifest's, still there and the same.
    const loop = options.changes?.agents === undefined ? checkRunAgents(manifest.config.loop, runDir, { force: false, command: 'tmas replay' }) : manifest.config.loop;
    const activeProblems = replayActiveProblems(loop.activeProblems);
    const gateway = options.timeoutSeconds === undefined ? manifest.config.gateway : { ...manifest.config.gateway, timeoutSeconds: options.timeoutSeconds };
    const config: RunConfig = { ...structuredClone(manifest.config), gateway: structuredClone(gateway), context: located, loop: { ...structuredClone(loop), ...options.changes, activeProblems }, outputs: { ...manifest.config.outputs, dir: work } };
    const quiet = { stdout: () => {}, stderr: options.stderr ?? (() => {}) };
    const strategy = await resolveStrategy(config.loop);
    // The run's history in order: each target it was taken to, the later ones as the resumes that extended it.
    for (const maxIterations of phases.targets) {
      const iterationsOf = iterationsIn(phases, maxIterations);
      await runEvaluation({ ...config, loop: { ...config.loop, maxIterations } }, options.secrets, problems, quiet, { resume: true, offline: !options.live, outputs: false, strategy, iterationsOf });
    }
    return await compareLogs(work, logEnd);
  } finally {
    await removeScratchDir(work);
  }
}
