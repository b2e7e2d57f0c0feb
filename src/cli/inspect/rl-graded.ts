/**
 * Which solution a grading call read, so that its RL record carries that solution's grade as
 * `candidate_correct`: the reward a generative-reward record is compared with. Each grading role
 * reads its candidate where its strategy keeps it: TMAS's verification, verify-refine's rating,
 * MAS-TTS's evaluation and every judge pass read the solution their own iteration's record holds;
 * Self-Refine's critique of iteration t reads the solution saved at t-1 (its rewrite then replaces it
 * in t's record); a MAS-TTS critic reads the draft of its turn, which is the round's solution only
 * when no later turn revised it. A role not listed (a plugin's) has no grade: null, never a guess.
 * A solution role's record carries the answer, grade and score of the candidate it wrote, found the same way.
 */
import type { CandidateResult } from '../../kernel/protocol.ts';
import type { CallRecord, Store } from '../../store/store.ts';

/** Where a solution a role read (a grading role) or wrote (a solution role) is recorded. */
type Recorded = { at: 'this iteration' } | { at: 'the previous iteration' } | { at: 'its turn, if the last'; turnOf: (index: number) => number };

const THIS_ITERATION: Recorded = { at: 'this iteration' };

/** A critic's index is `turn × 100 + critic`, a solver turn's the turn (mas-ceo.roles.ts). */
const CRITICS_PER_TURN = 100;

/** The solution each grading role read. */
const READS: Record<string, Recorded> = {
  verification: THIS_ITERATION,
  judge: THIS_ITERATION,
  rater: THIS_ITERATION,
  evaluator: THIS_ITERATION,
  critique: { at: 'the previous iteration' },
  critic: { at: 'its turn, if the last', turnOf: (index) => Math.floor(index / CRITICS_PER_TURN) },
};

/**
 * The solution each solution role wrote: its iteration's candidate (a rewrite, a proof, a synthesis, a rollout and a
 * refinement replace or make it), a MAS-TTS solver's turn only when no later turn revised it.
 */
const WRITES: Record<string, Recorded> = {
  solution: THIS_ITERATION,
  rewrite: THIS_ITERATION,
  prover: THIS_ITERATION,
  synthesis: THIS_ITERATION,
  rollout: THIS_ITERATION,
  refine: THIS_ITERATION,
  solver: { at: 'its turn, if the last', turnOf: (index) => index },
};

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

/** The candidate record that holds the solution `call` read or wrote, as `rule` says where; undefined when none does. */
async function recordedCandidate(store: Store, call: CallRecord, rule: Recorded | undefined, candidate: number | null, candidates: IterationCandidates): Promise<CandidateResult | undefined> {
  if (rule === undefined || candidate === null) return undefined;
  const find = (list: CandidateResult[]) => list.find((c) => c.candidate === candidate);
  if (rule.at === 'the previous iteration') return call.iteration === 0 ? undefined : find(await candidates(call.iteration - 1));
  if (rule.at === 'its turn, if the last' && rule.turnOf(call.index) !== (await lastSolverTurn(store, call))) return undefined;
  return find(await candidates(call.iteration));
}

/** The grade of the solution `call` read, for its `candidate` (null when the role grades none, or that solution was not graded). */
export async function gradedCandidateCorrect(store: Store, call: CallRecord, role: string, candidate: number | null, candidates: IterationCandidates): Promise<boolean | null> {
  return gradeOf(await recordedCandidate(store, call, READS[role], candidate, candidates));
}

/**
 * The candidate record of the solution `call` wrote: undefined for a role that writes none, for a multi-call role's later
 * call or a forced continuation (`<role>#k`), and for an output its role could not use (it asked again, or went on without it).
 */
export async function writtenCandidate(store: Store, call: CallRecord, how: { unusable: boolean; upFront: boolean }, candidate: number | null, candidates: IterationCandidates): Promise<CandidateResult | undefined> {
  if (how.unusable) return undefined;
  const written = await recordedCandidate(store, call, WRITES[call.role], candidate, candidates);
  if (written !== undefined || !how.upFront || candidate === null) return written;
  // Majority draws every sample in iteration 0, and a later iteration is the first whose results hold it.
  for (let later = call.iteration + 1; ; later++) {
    const list = await candidates(later);
    if (list.length === 0) return undefined;
    const found = list.find((c) => c.candidate === candidate);
    if (found !== undefined) return found;
  }
}
