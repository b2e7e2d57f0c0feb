/**
 * Which solution a grading call read, so that its RL record carries that solution's grade as
 * `candidate_correct`: the reward a generative-reward record is compared with. Each grading role
 * reads its candidate where its strategy keeps it: TMAS's verification, verify-refine's rating,
 * MAS-TTS's evaluation and every judge pass read the solution their own iteration's record holds;
 * Self-Refine's critique of iteration t reads the solution saved at t-1 (its rewrite then replaces it
 * in t's record); a MAS-TTS critic reads the draft of its turn, which is the round's solution only
 * when no later turn revised it. A role not listed (a plugin's) has no grade: null, never a guess.
 */
import type { CandidateResult } from '../../kernel/protocol.ts';
import type { CallRecord, Store } from '../../store/store.ts';

/** Where the solution a grading role read is recorded. */
type GradedSolution = 'this iteration' | 'the previous iteration' | 'its turn, if the last';

const GRADED_SOLUTION: Record<string, GradedSolution> = {
  verification: 'this iteration',
  judge: 'this iteration',
  rater: 'this iteration',
  evaluator: 'this iteration',
  critique: 'the previous iteration',
  critic: 'its turn, if the last',
};

/** A critic's index is `turn × 100 + critic` (mas-ceo.roles.ts); a solver turn's index is the turn. */
const CRITICS_PER_TURN = 100;

/** The candidates of a problem's iteration, as its record holds them. */
export type IterationCandidates = (iteration: number) => Promise<CandidateResult[]>;

/** The grade of a candidate: the judge's where it ran (correct only when more than half of its passes say so), else the rule's. */
export function gradeOf(candidate: CandidateResult | undefined): boolean | null {
  if (!candidate) return null;
  if (candidate.correctJudge !== null && candidate.correctJudge !== undefined) return candidate.correctJudge > 0.5;
  return candidate.correct;
}

/** The last solver turn journaled in a problem's iteration: a failed revision is not journaled, and the round keeps the draft before it. */
async function lastSolverTurn(store: Store, call: CallRecord): Promise<number> {
  const prefix = `${call.problem}/${call.iteration}/solver/`;
  let last = -1;
  for await (const solver of store.callRecords({ gte: prefix, lt: `${prefix}\uffff` })) {
    if (solver.problem === call.problem && solver.role === 'solver') last = Math.max(last, solver.index);
  }
  return last;
}

/** The grade of the solution `call` read, for its `candidate` (null when the role grades none, or that solution was not graded). */
export async function gradedCandidateCorrect(store: Store, call: CallRecord, role: string, candidate: number | null, candidates: IterationCandidates): Promise<boolean | null> {
  const graded = GRADED_SOLUTION[role];
  if (graded === undefined || candidate === null) return null;
  const find = (list: CandidateResult[]) => list.find((c) => c.candidate === candidate);
  if (graded === 'the previous iteration') return call.iteration === 0 ? null : gradeOf(find(await candidates(call.iteration - 1)));
  if (graded === 'its turn, if the last' && Math.floor(call.index / CRITICS_PER_TURN) !== (await lastSolverTurn(store, call))) return null;
  return gradeOf(find(await candidates(call.iteration)));
}
