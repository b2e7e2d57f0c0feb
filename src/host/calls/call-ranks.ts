/**
 * The rank of each call (gateway/dispatch/held-calls.ts sends held calls by it): how
 * much of its problem is left to run, in expected tokens along the problem's
 * chain of dependent calls. That is the stages it has left, this one
 * included (the iterations to go times the stages of one iteration, less the
 * stages of this iteration already behind it: the strategy says where each
 * role stands, machines/contract.ts `stages`), times what its calls have cost
 * so far, relative to the run's mean and shrunk toward it while the problem
 * has few calls (a problem whose model thinks longer keeps doing so, and its
 * chain is the longer one).
 *
 * The problem furthest from its end goes first, so that none is left to run
 * its last iterations alone at the end of the run; among problems equally
 * far, the one that thinks longer (longest first, as in list scheduling).
 * Counting stages rather than whole iterations puts a problem whose iteration
 * is nearly done behind one that has just begun the same iteration, so the
 * problems move through their iterations together, stage by stage, as
 * evenly as their lengths allow. Measured on the capacity model (the schedule
 * benchmark in bench/results.json; docs/guide/keeping-servers-busy.md).
 *
 * Each rank also says whether the run's problems are seen to cost
 * differently (`costsDiffer`): only then does the rank name the chains that
 * will run long, and a slower replica of a pool waits rather than take a
 * call ranked near the next (gateway/dispatch/held-calls.ts slowReplicaWaits).
 *
 * Runs started together on one gateway (run-workload.ts) share one scale:
 * each problem's cost per call is then relative to the mean of every run's
 * calls, so a rank counts the same tokens in every run, and across runs the
 * problem with the longest chain left goes first, whichever method it is in.
 */
import type { CallRank, RankChange } from '../../gateway/reply/completion.ts';
import { createIterationLines } from './iteration-lines.ts';

/** How many calls of the run's mean a problem's own mean is shrunk toward: its first calls say little. */
const PRIOR_CALLS = 8;
/**
 * The problems cost differently when their mean costs per call (of those with
 * COSTED_CALLS calls at least, four problems at least) vary by more than this
 * fraction of their mean. Lengths drawn independently of the problem (the
 * simulator's, p99 five times the median) make the mean of 32 calls vary by
 * about 0.14 of itself, of 8 calls by 0.28; a model that thinks longer on
 * harder problems, by far more.
 */
const DIFFERING_COSTS = 0.25;
/** Calls a problem has finished before its mean cost is read for DIFFERING_COSTS. */
const COSTED_CALLS = 32;
/** Calls recorded between two readings of whether the costs differ. */
const DIFFERING_EVERY = 32;

/** The calls that finished and their tokens, over which a problem's cost is read: one run's, or every run's on one gateway. */
export interface RankScale {
  calls: number;
  tokens: number;
}

/** A scale with nothing known yet. */
export function createRankScale(): RankScale {
  return { calls: 0, tokens: 0 };
}

/** Ranks calls as they come, and learns from the ones that finish. */
export interface CallRanks {
  /**
   * The rank of a call about to be held. A call at a stage behind every call
   * of its iteration still out gives them slack: `changed` gets their new
   * ranks, to apply where they are held, as with `ended`.
   */
  rankOf(call: { problem: string; iteration: number; role: string; grading: boolean }, changed?: (changes: RankChange[]) => void): CallRank;
  /** A loop call of `problem` finished (from the server or the journal) with `completionTokens`. */
  record(problem: string, completionTokens: number): void;
  /**
   * The call ranked `rank` is out of the line and off the server (answered,
   * failed or aborted). What its iteration's calls still held should now be
   * ranked (iteration-lines.ts): apply each change where the call is held.
   */
  ended(rank: CallRank): RankChange[];
}

/**
 * Creates the ranking of a run of `iterations` iterations per problem, whose
 * roles stand at `stages` of an iteration (0 when not named), its problems'
 * costs read against `scale` (the run's own unless runs share one).
 */
export function createCallRanks(iterations: number, stages: Readonly<Record<string, number>> = {}, scale: RankScale = createRankScale()): CallRanks {
  const stagesPerIteration = Math.max(0, ...Object.values(stages)) + 1;
  const problems = new Map<string, { calls: number; tokens: number }>();
  let costsDiffer = false;
  let sinceReading = 0;
  const lines = createIterationLines();
  return {
    rankOf({ problem, iteration, role, grading }, changed) {
      const own = problems.get(problem);
      // A problem's cost per call relative to the run's: 1 until something is known.
      const relative = own === undefined || scale.tokens === 0 ? 1 : (own.tokens / (scale.tokens / scale.calls) + PRIOR_CALLS) / (own.calls + PRIOR_CALLS);
      const stage = stages[role] ?? 0;
      const stagesLeft = (iterations - iteration) * stagesPerIteration - stage;
      const rank: CallRank = { grading, remaining: Math.max(1, stagesLeft) * relative, costsDiffer };
      // A grading call is no stage of the loop: it neither waits on the iteration's calls nor holds them up.
      if (grading) return rank;
      const { slack, changes } = lines.add(rank, `${problem}\n${iteration}`, stage, relative);
      rank.slack = slack;
      if (changes.length > 0) changed?.(changes);
      return rank;
    },
    ended: (rank) => lines.end(rank),
    record(problem, completionTokens) {
      if (!(completionTokens >= 0)) return;
      const own = problems.get(problem) ?? { calls: 0, tokens: 0 };
      own.calls++;
      own.tokens += completionTokens;
      problems.set(problem, own);
      scale.calls++;
      scale.tokens += completionTokens;
      if (++sinceReading >= DIFFERING_EVERY) [sinceReading, costsDiffer] = [0, differ(problems.values())];
    },
  };
}

/** Whether the mean costs per call of the problems with COSTED_CALLS calls or more vary by more than DIFFERING_COSTS of their mean. */
function differ(problems: Iterable<{ calls: number; tokens: number }>): boolean {
  const means: number[] = [];
  for (const { calls, tokens } of problems) if (calls >= COSTED_CALLS) means.push(tokens / calls);
  if (means.length < 4) return false;
  const mean = means.reduce((sum, value) => sum + value, 0) / means.length;
  const variance = means.reduce((sum, value) => sum + (value - mean) ** 2, 0) / means.length;
  return mean > 0 && Math.sqrt(variance) > DIFFERING_COSTS * mean;
}
