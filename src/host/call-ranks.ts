/**
 * The rank of each call (gateway/held-calls.ts orders held calls by it): its
 * problem's iteration, and its step within the iteration, numbered by the
 * order in which the iteration's roles first call (a TMAS iteration: solution
 * 0, verification 1, summary 2, the banks 3 and 4). Generic over strategies:
 * no role name is known here.
 */
import type { CallRank } from '../gateway/completion.ts';

/** Iterations of a problem remembered behind its latest: a late call of an older one still finds its steps. */
const KEPT_ITERATIONS = 2;

/** Ranks calls as they come. */
export interface CallRanks {
  rankOf(call: { problem: string; iteration: number; role: string; grading: boolean }): CallRank;
}

/** Creates an empty ranking. */
export function createCallRanks(): CallRanks {
  // Per problem: its roles in the order they first called, per iteration.
  const problems = new Map<string, Map<number, string[]>>();
  return {
    rankOf({ problem, iteration, role, grading }) {
      let iterations = problems.get(problem);
      if (iterations === undefined) problems.set(problem, (iterations = new Map()));
      let roles = iterations.get(iteration);
      if (roles === undefined) {
        iterations.set(iteration, (roles = []));
        for (const old of iterations.keys()) if (old < iteration - KEPT_ITERATIONS) iterations.delete(old);
      }
      let step = roles.indexOf(role);
      if (step < 0) step = roles.push(role) - 1;
      return { grading, iteration, step };
    },
  };
}
