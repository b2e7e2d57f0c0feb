/**
 * What a finished (or stopped) run did, from its directory: its settings
 * (the manifest) and, per journaled call, what it was, its tokens and when
 * it ran. The run directory is read through a copy (src/analysis/open-run.ts):
 * it is never written.
 */
import type { RunConfig } from '../settings/config.ts';
import { openRun, requireFinishedRun } from '../analysis/open-run.ts';
import { unusableCalls } from '../analysis/unusable-outputs.ts';
import { UserError } from '../kernel/errors.ts';

/** One journaled call, as a plan reads it. */
export interface JournalCall {
  problem: string;
  iteration: number;
  role: string;
  index: number;
  promptTokens: number;
  outputTokens: number;
  startedAt: number;
  latencyMs: number;
  /** Its output was unusable and its role asked again (--parse-retries): a call more than the strategy declares. */
  askedAgain: boolean;
}

/** A run's settings and calls. */
export interface RunJournal {
  dir: string;
  config: RunConfig;
  /** Whether the run's model was the simulator. */
  simulated: boolean;
  calls: JournalCall[];
  /** The run's problems in the order of its problem file, and whether each has a reference the judge checks. */
  problems: Array<{ id: string; judged: boolean }>;
  /** From the first call's start to the last one's end, in the run's own (wall-clock) seconds. */
  spanSeconds: number;
  /** When its first call started and its last one ended, ms since the epoch. */
  startedAt: number;
  endedAt: number;
  /** The problem-iterations it completed, of the problems × T its settings ask for: fewer when it stopped before its end (a Ctrl-C, a kill, a full disk, a call failed for good). */
  progress: { done: number; of: number };
}

/**
 * Reads a run directory; a run with no journaled call is a usage error (there is nothing to compare or replay).
 * `whole`: what the plan does with the run (`--check`, `--from`), which needs all of it: a run still being written is refused.
 */
export async function readRunJournal(dir: string, whole?: string): Promise<RunJournal> {
  if (whole !== undefined) await requireFinishedRun(dir, whole);
  const { store, manifest } = await openRun(dir, undefined, { journal: { none: 'A plan would read its calls as none made', some: 'A plan would read them as calls not made' } });
  const calls: JournalCall[] = [];
  let problems: Array<{ id: string; judged: boolean }>;
  let done = 0;
  try {
    const proof = manifest.config.loop.proof;
    const unusable = await unusableCalls(store);
    problems = (await store.loadProblems()).map((problem) => ({ id: problem.id, judged: (proof ? problem.solution : problem.answer) !== undefined }));
    done = await completedProblemIterations(store, problems.length);
    for await (const call of store.callRecords()) {
      calls.push({
        problem: call.problem,
        iteration: call.iteration,
        role: call.role,
        index: call.index,
        promptTokens: call.usage.promptTokens,
        outputTokens: call.usage.completionTokens,
        startedAt: call.timings.startedAt,
        latencyMs: call.timings.latencyMs,
        askedAgain: unusable.get(call.key)?.askedAgain === true,
      });
    }
  } finally {
    await store.close();
  }
  if (calls.length === 0) throw new UserError('TMAS_USAGE', `${dir} has no journaled call: a plan can compare or replay only a run that made calls.`);
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const call of calls) {
    first = Math.min(first, call.startedAt);
    last = Math.max(last, call.startedAt + call.latencyMs);
  }
  const progress = { done, of: problems.length * manifest.config.loop.maxIterations };
  return { dir, config: manifest.config, simulated: manifest.simulated, calls, problems, spanSeconds: (last - first) / 1000, startedAt: first, endedAt: last, progress };
}

/** The iterations the run's problems completed, summed: each problem's last completed iteration, plus one. */
async function completedProblemIterations(store: Awaited<ReturnType<typeof openRun>>['store'], problems: number): Promise<number> {
  let done = 0;
  for (let ordinal = 0; ordinal < problems; ordinal++) done += ((await store.lastIteration(ordinal))?.record.iteration ?? -1) + 1;
  return done;
}

/** Whether a run stopped before its end: what a plan of it says of its figures (null when it completed every iteration). */
export function stoppedEarly(journal: RunJournal): string | null {
  const { done, of } = journal.progress;
  if (done >= of) return null;
  return `${journal.dir} stopped before its end: ${done} of its ${of} problem-iterations (${journal.problems.length} problems × T=${journal.config.loop.maxIterations}) completed`;
}
