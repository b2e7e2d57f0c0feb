/**
 * Verify-Refine (V-R) as DeepSeek-Math-V2's inference runs it
 * (deepseek-ai/DeepSeek-Math-V2, inference/main.py), one round per iteration:
 *
 * - round 0: N proofs from scratch, each with its self-evaluation;
 * - every proof that finished and parses gets M ratings (0, 0.5 or 1); its
 *   score is their mean over the readable ones;
 * - after each round the rated proofs join the problem's pool, which spans all
 *   rounds (an exact repeat of a pooled proof is not added again);
 * - once a pooled proof's mean is 1 (every rating 1) the problem stops
 *   refining: its remaining iterations repeat the last round's candidates,
 *   announced without any call;
 * - otherwise the pool is shuffled (seeded) and ordered by mean score, then
 *   self-evaluation score, both descending; the best `--refine-proofs` proofs
 *   are refined, each from a prompt showing that one proof and a selection of
 *   its ratings, and the N proofs of the next round are shared among them
 *   (upstream: 32 of the best, 4 samples each, 128 a round).
 *
 * Where upstream's batch pipeline drops a problem whose last round left no
 * rated proof, this program refines from the pool, or writes afresh when the
 * pool is empty.
 */
import type { Message, Verification } from '../../../src/kernel/protocol.ts';
import { createRandom, seedFor } from '../../../src/kernel/prng.ts';
import { optionOf, type ProblemInput, type StrategyFlag } from '../../contract.ts';
import { nextIteration, waiting, type ProblemProgram, type Step } from '../../program.ts';
import { failureOf, messageBase, NO_RESPONSE, responseOf, saveOf, type CandidateView } from '../../kit.ts';
import { RATER_INDEX_STRIDE } from './verify-refine.roles.ts';

/** `--refine-proofs`: how many of the best pooled proofs each round refines (upstream's --n_agg_trials). */
export const REFINE_PROOFS_FLAG: StrategyFlag = {
  name: 'refine-proofs',
  value: '<k>',
  description: 'verify-refine: the best-scored proofs of the pool refined each round; the N proofs of a round are shared among them (upstream refines 32 of 128, whose ratio the default keeps at N = 8)',
  type: 'integer',
  min: 1,
  max: 1024,
  default: 2,
  shapesCalls: true,
};

/** Ratings shown per refined proof: up to 4 of each score, or 8 when all its ratings agree (upstream's max_rating_per_score and its cap of 8). */
const RATINGS_PER_SCORE = 4;
const RATINGS_SHOWN = 8;

interface Rating {
  index: number;
  score: number | null;
  rating: string;
}

interface Proof extends CandidateView {
  /** The `## Solution` section; null when the reply is not a usable proof (not rated, not pooled). */
  proof: string | null;
  selfScore: number;
  ratings: Rating[];
  settled: boolean;
  failures: string[];
}

/** A rated proof of any round. */
export interface PooledProof {
  proof: string;
  meanScore: number;
  selfScore: number;
  ratings: Array<{ score: number; rating: string }>;
  round: number;
  candidate: number;
}

interface VerifyRefineState {
  iteration: number;
  candidates: Proof[];
  pool: PooledProof[];
  /** A pooled proof scored 1: no more refinement. */
  stopped: boolean;
}

function fresh(candidate: number): Proof {
  return { candidate, ...NO_RESPONSE, proof: null, selfScore: 0, ratings: [], settled: false, failures: [] };
}

function prove(input: ProblemInput, iteration: number, candidate: number, refine: { proof: string; ratings: string[] } | null): Message {
  return { type: 'prover.requested', ...messageBase(input, iteration, 'prover', candidate), candidate, question: input.problem.question, refine };
}

function rate(input: ProblemInput, iteration: number, candidate: number, proof: string): Message[] {
  return Array.from({ length: input.settings.nVerifications }, (_, index): Message => ({
    type: 'rater.requested',
    ...messageBase(input, iteration, 'rater', `${candidate}.${index}`),
    candidate,
    index,
    question: input.problem.question,
    proof,
  }));
}

/** Mean of the readable ratings; null when there is none. */
function meanOf(ratings: Rating[]): number | null {
  const scores = ratings.flatMap((r) => (r.score === null ? [] : [r.score]));
  return scores.length === 0 ? null : scores.reduce((a, b) => a + b, 0) / scores.length;
}

function viewOf(proof: Proof): CandidateView {
  const verifications: Verification[] = proof.ratings.map((r) => ({ index: r.index, score: r.score, analysis: r.rating }));
  return { candidate: proof.candidate, text: proof.text, answer: proof.answer, cut: proof.cut, filtered: proof.filtered, verifications, score: meanOf(proof.ratings), failures: proof.failures };
}

function update(state: VerifyRefineState, index: number, change: (proof: Proof) => Proof, input: ProblemInput, post: Message[] = []): Step<VerifyRefineState> {
  const candidates = state.candidates.map((candidate) => {
    if (candidate.candidate !== index) return candidate;
    const changed = change(candidate);
    return { ...changed, settled: changed.proof === null || changed.ratings.length >= input.settings.nVerifications };
  });
  const next = { ...state, candidates };
  if (!candidates.every((candidate) => candidate.settled)) return waiting(next, post);
  return { state: next, post, effect: saveOf(state.iteration, candidates.map(viewOf), input) };
}

/** A seeded shuffle (Fisher-Yates). */
function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** The pool after a round: its rated proofs added, exact repeats of pooled proofs left out. */
export function pooled(pool: PooledProof[], candidates: Proof[], round: number): PooledProof[] {
  const known = new Set(pool.map((entry) => entry.proof));
  const added: PooledProof[] = [];
  for (const candidate of candidates) {
    const ratings = candidate.ratings.flatMap((r) => (r.score === null ? [] : [{ score: r.score, rating: r.rating }]));
    if (candidate.proof === null || ratings.length === 0 || known.has(candidate.proof)) continue;
    known.add(candidate.proof);
    added.push({ proof: candidate.proof, meanScore: ratings.reduce((a, r) => a + r.score, 0) / ratings.length, selfScore: candidate.selfScore, ratings, round, candidate: candidate.candidate });
  }
  return [...pool, ...added];
}

/** The proofs to refine: the pool shuffled, then ordered by mean score and self-evaluation score (descending), the first `count`. */
export function selectBest(pool: PooledProof[], count: number, random: () => number): PooledProof[] {
  return shuffled(pool, random)
    .sort((a, b) => b.meanScore - a.meanScore || b.selfScore - a.selfScore)
    .slice(0, count);
}

/**
 * The ratings a refinement prompt shows of one proof: scores ascending, each
 * score's ratings shuffled, up to 4 of each (8 when all share one score). As
 * upstream, the cap of 8 ends only the score being walked.
 */
export function ratingsShown(proof: PooledProof, random: () => number): string[] {
  const scores = [...new Set(proof.ratings.map((r) => r.score))].sort((a, b) => a - b);
  const perScore = scores.length === 1 ? RATINGS_SHOWN : RATINGS_PER_SCORE;
  const shown: string[] = [];
  for (const score of scores) {
    for (const rating of shuffled(proof.ratings.filter((r) => r.score === score), random).slice(0, perScore)) {
      shown.push(rating.rating);
      if (shown.length === RATINGS_SHOWN) break;
    }
  }
  return shown;
}

/** The next round's requests: refinements of the best pooled proofs, shared round-robin among the N candidates; fresh proofs when the pool is empty. */
function nextRound(state: VerifyRefineState, iteration: number, input: ProblemInput): Message[] {
  const n = input.settings.nCandidates;
  const random = createRandom(seedFor(input.settings.seed, 'verify-refine-pool', input.problem.id, iteration));
  const count = Math.min(Number(optionOf(input.settings, REFINE_PROOFS_FLAG)), n);
  const best = selectBest(state.pool, count, random);
  const prompts = best.map((proof) => ({ proof: proof.proof, ratings: ratingsShown(proof, random) }));
  return Array.from({ length: n }, (_, candidate) => prove(input, iteration, candidate, prompts.length === 0 ? null : (prompts[candidate % prompts.length] ?? null)));
}

/** The Verify-Refine program. */
export const verifyRefineProgram: ProblemProgram<VerifyRefineState> = {
  id: 'verify-refine',
  start(input) {
    const candidates = Array.from({ length: input.settings.nCandidates }, (_, candidate) => fresh(candidate));
    return waiting({ iteration: 0, candidates, pool: [], stopped: false }, candidates.map((c) => prove(input, 0, c.candidate, null)));
  },
  receive(state, message, input) {
    switch (message.type) {
      case 'prover.completed':
        return update(
          state,
          message.candidate,
          (c) => ({ ...c, ...responseOf(message), proof: message.proof, selfScore: message.selfScore }),
          input,
          message.proof === null ? [] : rate(input, state.iteration, message.candidate, message.proof),
        );
      case 'rater.completed':
        return update(state, message.candidate, (c) => ({ ...c, ratings: [...c.ratings, { index: message.index, score: message.score, rating: message.rating }].sort((a, b) => a.index - b.index) }), input);
      case 'llm.failed': {
        const failure = failureOf(message);
        if (message.role === 'rater') {
          const candidate = Math.floor(message.index / RATER_INDEX_STRIDE);
          return update(state, candidate, (c) => ({ ...c, ratings: [...c.ratings, { index: message.index % RATER_INDEX_STRIDE, score: null, rating: '' }], failures: [...c.failures, failure] }), input);
        }
        if (message.role === 'prover') return update(state, message.index, (c) => ({ ...c, ...NO_RESPONSE, proof: null, failures: [...c.failures, failure] }), input);
        return waiting(state);
      }
      default:
        return waiting(state);
    }
  },
  saved(state, input) {
    return nextIteration(state, state.iteration, input, (iteration) => {
      const pool = state.stopped ? state.pool : pooled(state.pool, state.candidates, state.iteration);
      // Upstream's early stop: a proof whose every rating is 1 ends the refinement of its problem.
      const stopped = state.stopped || pool.some((entry) => entry.meanScore > 0.99999);
      if (stopped) {
        return { state: { ...state, iteration, pool, stopped }, post: [], effect: saveOf(iteration, state.candidates.map(viewOf), input) };
      }
      const next = { iteration, candidates: state.candidates.map((c) => fresh(c.candidate)), pool, stopped };
      return waiting(next, nextRound(next, iteration, input));
    });
  },
};
