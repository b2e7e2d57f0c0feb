/**
 * MV@k of a finished majority run, per problem, as `tmas table1` reports it:
 * the mean vote over draws of k of the samples of the problem's last
 * iteration (its whole pool: src/observers/majority-draws.ts), read from the
 * run's store. Each problem's draws are seeded by the problem and k.
 */
import type { CandidateResult } from '../kernel/protocol.ts';
import { seedFor } from '../kernel/prng.ts';
import { majorityOverDraws } from '../observers/majority-draws.ts';
import { openStoreView } from '../store/repair/check.ts';

/** MV@k per graded problem, and the samples a problem's pool held (the most of any problem). */
export interface VoteDraws {
  byProblem: Map<string, number>;
  pool: number;
}

/** Reads a majority run's last iteration per problem and draws MV@k from each problem's samples. */
export async function readVoteDraws(dir: string, k: number): Promise<VoteDraws> {
  const store = await openStoreView(dir);
  const last = new Map<string, CandidateResult[]>();
  try {
    // Records come in input order, then iteration order: the last one read of a problem is its last iteration.
    for await (const record of store.iterationRecords({}, ['problem', 'candidates'])) last.set(record.problem, record.candidates);
  } finally {
    await store.close();
  }
  const byProblem = new Map<string, number>();
  let pool = 0;
  for (const [problem, candidates] of last) {
    pool = Math.max(pool, candidates.length);
    const value = majorityOverDraws(candidates, k, seedFor('mv-draws', problem, k));
    if (value !== null) byProblem.set(problem, value);
  }
  return { byProblem, pool };
}
