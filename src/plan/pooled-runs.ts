/**
 * Several runs' calls as one workload on shared servers, as the methods of a
 * table run at once through one gateway: their graphs laid end to end (each
 * run's problems, calls and prompt groups numbered after the runs before
 * it), and one ranking that asks each call's own run (its iterations, its
 * stages, its problems' costs so far), so that across runs the call whose
 * problem has the longest chain left goes first.
 */
import { createCallRanks, createRankScale, type CallRanks } from '../host/calls/call-ranks.ts';
import type { CallRank } from '../gateway/reply/completion.ts';
import type { PlannedCall } from './call-graph.ts';

/** One run's calls, and what ranks them: its iterations per problem and its roles' stages. */
export interface PlannedRun {
  calls: PlannedCall[];
  iterations: number;
  stages: Readonly<Record<string, number>>;
}

/** The first problem number of each run in the pooled numbering, and the number after the last. */
function problemOffsets(runs: readonly PlannedRun[]): number[] {
  const offsets = [0];
  for (const run of runs) offsets.push((offsets.at(-1) as number) + run.calls.reduce((most, call) => Math.max(most, call.problem + 1), 0));
  return offsets;
}

/** Every run's calls in one graph: problems, deps and prompt groups numbered after the runs before. */
export function pooledCalls(runs: readonly PlannedRun[]): PlannedCall[] {
  if (runs.length === 1) return (runs[0] as PlannedRun).calls;
  const offsets = problemOffsets(runs);
  const pooled: PlannedCall[] = [];
  let groups = 0;
  runs.forEach((run, index) => {
    const [calls, problems] = [pooled.length, offsets[index] as number];
    let most = -1;
    for (const call of run.calls) {
      most = Math.max(most, call.prompt ?? -1);
      pooled.push({ ...call, problem: call.problem + problems, deps: call.deps.map((dep) => dep + calls), prompt: call.prompt === null ? null : call.prompt + groups });
    }
    groups += most + 1;
  });
  return pooled;
}

/** One ranking over the pooled problems: each call ranked, and each finished call recorded, by its own run's ranking, on one shared scale. */
export function pooledRanks(runs: readonly PlannedRun[]): CallRanks {
  const offsets = problemOffsets(runs);
  // One scale for all, as runs started together share one: a problem's calls weigh against every run's mean call.
  const scale = createRankScale();
  const ranks = runs.map((run) => createCallRanks(run.iterations, run.stages, scale));
  const runOf = (problem: string): { ranks: CallRanks; local: string } => {
    const pooled = Number(problem);
    let index = 0;
    while (pooled >= (offsets[index + 1] as number) && index < runs.length - 1) index++;
    return { ranks: ranks[index] as CallRanks, local: String(pooled - (offsets[index] as number)) };
  };
  const rankedBy = new WeakMap<CallRank, CallRanks>();
  return {
    rankOf(call, changed) {
      const { ranks: own, local } = runOf(call.problem);
      const rank = own.rankOf({ ...call, problem: local }, changed);
      rankedBy.set(rank, own);
      return rank;
    },
    ended: (rank) => rankedBy.get(rank)?.ended(rank) ?? [],
    record(problem, completionTokens) {
      const { ranks: own, local } = runOf(problem);
      own.record(local, completionTokens);
    },
  };
}
