/**
 * The rank of each call (gateway/held-calls.ts orders held calls by it): how
 * far its problem is ahead of the slowest problem of the run. Problems within
 * one iteration of the slowest rank alike, so their calls go first come first
 * served and the problems drift apart freely (holding them in lockstep would
 * bring all their iteration ends, where a problem's work narrows to one
 * chain, at the same moments: the GPU then idles); a problem further ahead
 * waits, so that none is left far behind to run its last iterations alone at
 * the end of the run. Measured on the capacity model (README, *Keeping the
 * servers busy*).
 */
import type { CallRank } from '../gateway/completion.ts';

/** Iterations a problem may be ahead of the slowest before its calls wait behind the others'. */
const SLACK = 1;

/** Ranks calls as they come. */
export interface CallRanks {
  rankOf(call: { problem: string; iteration: number; grading: boolean }): CallRank;
}

/** Creates an empty ranking. */
export function createCallRanks(): CallRanks {
  const latest = new Map<string, number>();
  // Problems at each iteration, so the slowest is found without a scan.
  const atIteration = new Map<number, number>();
  let slowest = Infinity;
  return {
    rankOf({ problem, iteration, grading }) {
      const before = latest.get(problem);
      if (before === undefined || iteration > before) {
        latest.set(problem, iteration);
        atIteration.set(iteration, (atIteration.get(iteration) ?? 0) + 1);
        if (before !== undefined) atIteration.set(before, (atIteration.get(before) ?? 1) - 1);
        slowest = Math.min(slowest, iteration);
        while ((atIteration.get(slowest) ?? 0) === 0 && slowest < iteration) slowest++;
      }
      return { grading, lead: Math.max(0, iteration - slowest - SLACK) };
    },
  };
}
