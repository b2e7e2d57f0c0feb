/**
 * The calls of this process that failed for good, by problem and iteration.
 * A failed call is never a result: its iteration is not marked complete (the
 * journal holds successes only), the problem's other calls of that iteration
 * are no longer sent, and the run ends saying how many failed and where. A
 * resume issues them again.
 */
import { UserError } from '../../kernel/errors.ts';

/** One problem's iteration that a failed call stopped. */
export interface StoppedIteration {
  problem: string;
  iteration: number;
  /** Calls that failed for good. */
  failed: number;
  /** Calls not sent because of them. */
  skipped: number;
  /** The first failure: `role: CODE: message`. */
  first: string;
}

/** The failures of a run, as the llm actor and the saveIteration actor share them. */
export interface CallFailures {
  /** Records a call that failed for good. */
  fail(problem: string, iteration: number, failure: string): void;
  /** True when a call of this problem's iteration failed: its other calls are not sent. */
  isStopped(problem: string, iteration: number): boolean;
  skip(problem: string, iteration: number): void;
  /** Every stopped iteration, in the order the first failure arrived. */
  stopped(): StoppedIteration[];
}

/** Creates the failure record of a run. */
export function createCallFailures(): CallFailures {
  const byIteration = new Map<string, StoppedIteration>();
  const keyOf = (problem: string, iteration: number) => `${problem}\u0000${iteration}`;
  return {
    fail(problem, iteration, failure) {
      const entry = byIteration.get(keyOf(problem, iteration));
      if (entry) entry.failed++;
      else byIteration.set(keyOf(problem, iteration), { problem, iteration, failed: 1, skipped: 0, first: failure });
    },
    isStopped: (problem, iteration) => byIteration.has(keyOf(problem, iteration)),
    skip(problem, iteration) {
      const entry = byIteration.get(keyOf(problem, iteration));
      if (entry) entry.skipped++;
    },
    stopped: () => [...byIteration.values()],
  };
}

/** The error a run ends with when calls failed for good (exit code 3). */
export function incompleteRunError(stopped: StoppedIteration[], runDir: string): UserError {
  const failed = stopped.reduce((sum, entry) => sum + entry.failed, 0);
  const listed = stopped.slice(0, 10).map((entry) => `${entry.problem} at iteration ${entry.iteration} (${entry.failed} failed${entry.skipped > 0 ? `, ${entry.skipped} not sent` : ''}; first: ${entry.first})`);
  const more = stopped.length > 10 ? `; and ${stopped.length - 10} more (metrics.json lists them all)` : '';
  return new UserError(
    'TMAS_RUN_INCOMPLETE',
    `${failed} calls failed for good, in ${stopped.length} problems: ${listed.join('; ')}${more}. ` +
      `Those problems stopped at that iteration, which is not marked complete and not in results.jsonl. Fix the cause, then issue them again with: tmas run --resume ${runDir}`,
  );
}
