/**
 * The iteration targets a run was taken to, in order: one per stretch of its
 * history run with another `--max-iterations` (a run of T = 2 extended with
 * `--resume --max-iterations 3` has [2, 3]), and the target each problem
 * first reached its end under. A replay re-runs them in turn, as the run was
 * made, rather than the last target alone: a method whose iterations depend on
 * T (majority's iteration t holds the first ⌊n(t+1)/T⌋ samples) judged each
 * sample at the iteration it first showed under the target its problem ran to
 * then, and a re-run under the last alone asked the judge of the same samples
 * at other iterations, under seeds no journal entry answers: its replay
 * diverged with every judge call a miss.
 */
import { seqKey, type Store } from '../store/store.ts';

/** Nothing of a message's long texts is read: only types, problems and counts. */
const NO_TEXTS = () => false;

/** The targets a run was taken to, and the one each problem first ran to its end under. */
export interface ReplayPhases {
  /** Increasing, the last the run's target now. */
  targets: number[];
  /** Problems that first ran to their end under an earlier or later target than a phase's: that target, by problem id. */
  firstReached: Map<string, number>;
}

/**
 * The phases of the run whose log lies in `store` before `logEnd`: the target of each process that logged it, the
 * iterations its problems reached when they ran to their end (a problem stopped by a failed call, or a process stopped
 * before any problem ended, says nothing of its target), ending with `final`, the run's target now.
 */
export async function replayPhases(store: Store, logEnd: number, final: number): Promise<ReplayPhases> {
  const targets: number[] = [];
  const firstReached = new Map<string, number>();
  let current = 0;
  const close = (): void => {
    if (current > (targets.at(-1) ?? 0) && current < final) targets.push(current);
    current = 0;
  };
  for await (const { message } of store.envelopeOutlines(NO_TEXTS, { lt: seqKey(logEnd) })) {
    if (message.type === 'run.started') close();
    // A problem that ran to its end completes after its last iteration (T − 1); one stopped, at the iteration it stopped.
    else if (message.type === 'problem.completed' && message.iteration === message.iterations - 1) {
      current = Math.max(current, message.iterations);
      if (!firstReached.has(message.problem)) firstReached.set(message.problem, message.iterations);
    }
  }
  close();
  return { targets: [...targets, final], firstReached };
}

/**
 * The T of each problem in the phase of `target`: a problem that first ran to its end under a later target (a process
 * stopped before it finished, the resume that extended the run took it there) runs to that one, as it was made.
 */
export function iterationsIn(phases: ReplayPhases, target: number): Map<string, number> {
  return new Map([...phases.firstReached].filter(([, reached]) => reached > target));
}
