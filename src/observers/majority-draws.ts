/**
 * MV@k over a pool of n ≥ k samples: the mean, over draws of k of the n
 * (without replacement), of whether the majority vote of the draw is right.
 * One draw of k, the vote over the k samples a run happened to get, moves by
 * a whole problem on a lucky or unlucky draw; the mean over draws is the
 * expected MV@k of the model on that problem, estimated from the pool.
 *
 * Every k-subset is counted once when there are at most MAJORITY_DRAWS of them
 * (the exact mean); otherwise MAJORITY_DRAWS random subsets are, from a PRNG
 * seeded by the caller, so the figure is the same on every machine. A draw is
 * voted and graded as metrics.ts votes and grades an iteration's candidates
 * (answers the grader finds equal as one, ties to the higher total score then the lower index;
 * the judge's verdicts on every drawn candidate that gave the answer when the
 * pool was judged, else the rule's grade).
 */
import type { CandidateResult } from '../kernel/protocol.ts';
import { createRandom } from '../kernel/prng.ts';
import { answerKeys, answerRight, majorityCandidate, scoreIteration } from './metrics.ts';

/** Draws of k per problem when the k-subsets are more than this. */
export const MAJORITY_DRAWS = 1000;

/** C(n, k), or Infinity once it passes `cap` (only whether it is at most the cap matters). */
function subsetsUpTo(n: number, k: number, cap: number): number {
  let count = 1;
  for (let i = 1; i <= k; i++) {
    count = (count * (n - k + i)) / i;
    if (count > cap) return Infinity;
  }
  return Math.round(count);
}

/** Every k-subset of 0..n-1, as ascending index lists, in lexicographic order. */
function* allSubsets(n: number, k: number): Generator<number[]> {
  const subset = Array.from({ length: k }, (_, i) => i);
  for (;;) {
    yield [...subset];
    let i = k - 1;
    while (i >= 0 && subset[i] === n - k + i) i--;
    if (i < 0) return;
    subset[i] = (subset[i] ?? 0) + 1;
    for (let j = i + 1; j < k; j++) subset[j] = (subset[j - 1] ?? 0) + 1;
  }
}

/** `draws` random k-subsets of 0..n-1 (a partial Fisher-Yates shuffle each), ascending. */
function* randomSubsets(n: number, k: number, draws: number, seed: number): Generator<number[]> {
  const random = createRandom(seed);
  const indices = Array.from({ length: n }, (_, i) => i);
  for (let d = 0; d < draws; d++) {
    for (let i = 0; i < k; i++) {
      const j = i + Math.floor(random() * (n - i));
      [indices[i], indices[j]] = [indices[j] ?? 0, indices[i] ?? 0];
    }
    yield indices.slice(0, k).sort((a, b) => a - b);
  }
}

/**
 * The mean over draws of k of `candidates` of whether the draw's majority vote
 * is right; null when the candidates are not graded. With k at least their
 * number, the vote over all of them (metrics.ts's majority).
 */
export function majorityOverDraws(candidates: CandidateResult[], k: number, seed: number, draws = MAJORITY_DRAWS): number | null {
  const pool = scoreIteration(candidates);
  if (pool.majority === null) return null;
  const n = candidates.length;
  if (k >= n) return pool.majority ? 1 : 0;
  const keys = answerKeys(candidates);
  const judged = pool.judgeRan && pool.judgeCovered > 0;
  const subsets = subsetsUpTo(n, k, draws) === Infinity ? randomSubsets(n, k, draws, seed) : allSubsets(n, k);
  let right = 0;
  let counted = 0;
  for (const subset of subsets) {
    const drawn = subset.map((i) => candidates[i] as CandidateResult);
    if (answerRight(drawn, keys, judged, majorityCandidate(drawn, keys))) right++;
    counted++;
  }
  return right / counted;
}
