/**
 * The iteration targets a run was taken to, in order: one per stretch of its
 * history run with another `--max-iterations` (a run of T = 2 extended with
 * `--resume --max-iterations 3` has [2, 3]). A replay (and a fork's estimate)
 * re-runs them in turn, as the run was made, rather than the last target
 * alone: a method whose iterations depend on T (majority's iteration t holds
 * the first ⌊n(t+1)/T⌋ samples) judged each sample at the iteration it first
 * showed under the first target, and a re-run under the last alone asked the
 * judge of the same samples at other iterations, under seeds no journal entry
 * answers: its replay diverged with every judge call a miss.
 */
import { seqKey, type Store } from '../store/store.ts';

/** Nothing of a message's long texts is read: only types, problems and counts. */
const NO_TEXTS = () => false;

/**
 * The targets of the processes that logged `store`'s messages before `logEnd`, each the iterations its problems
 * reached when they ran to their end (a problem stopped by a failed call, or a process stopped before any problem
 * ended, says nothing of its target), increasing, ending with `final`, the run's target now.
 */
export async function iterationTargets(store: Store, logEnd: number, final: number): Promise<number[]> {
  const targets: number[] = [];
  let current = 0;
  const close = (): void => {
    if (current > (targets.at(-1) ?? 0) && current < final) targets.push(current);
    current = 0;
  };
  for await (const { message } of store.envelopeOutlines(NO_TEXTS, { lt: seqKey(logEnd) })) {
    if (message.type === 'run.started') close();
    // A problem that ran to its end completes after its last iteration (T − 1); one stopped, at the iteration it stopped.
    else if (message.type === 'problem.completed' && message.iteration === message.iterations - 1) current = Math.max(current, message.iterations);
  }
  close();
  return [...targets, final];
}
