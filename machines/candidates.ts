/**
 * Pure bookkeeping of one iteration's candidates, used by the problem actor:
 * who is still waiting for what, and what the iteration produced.
 */
import { afterReasoning } from '../src/grader/index.ts';
import { uniformFor } from '../src/kernel/prng.ts';
import type { CandidateResult, CandidateSource, Rollout, Verification } from '../src/kernel/protocol.ts';
import { calibratedScore } from './roles/summary.role.ts';
import { ruleResult } from './rule-grade.ts';

/** A candidate while its iteration runs. */
export interface CandidateState {
  candidate: number;
  source: CandidateSource;
  /** null until the solution arrives. */
  text: string | null;
  answer: string | null;
  /** The solution was cut off before its end, at the length limit or by a content filter (the judge is told which). */
  cut: boolean;
  /** The cut was the provider's content filter's, not the length limit. */
  filtered: boolean;
  verifications: Verification[];
  /** True once the summary arrived or was given up on. */
  summarized: boolean;
  summary: string;
  summaryScore: number | null;
  /** Calls that failed for good, by role: counted in results, never hidden. */
  failures: string[];
}

/**
 * The source of candidate `candidate` in iteration `iteration` (docs/concepts/tmas-loop.md):
 * `normal` at t = 0; after that ε-greedy with a draw keyed by (seed, problem, t, i),
 * `guideline` (explore) when the draw is below ε, `experience` (exploit) otherwise.
 */
export function chooseSource(options: { seed: number; problem: string; iteration: number; candidate: number; epsilon: number }): CandidateSource {
  if (options.iteration === 0) return 'normal';
  const u = uniformFor(options.seed, options.problem, options.iteration, options.candidate);
  return u < options.epsilon ? 'guideline' : 'experience';
}

/** The N fresh candidates of an iteration. */
export function createCandidates(options: { seed: number; problem: string; iteration: number; n: number; epsilon: number }): CandidateState[] {
  return Array.from({ length: options.n }, (_, candidate) => ({
    candidate,
    source: chooseSource({ ...options, candidate }),
    text: null,
    answer: null,
    cut: false,
    filtered: false,
    verifications: [],
    summarized: false,
    summary: '',
    summaryScore: null,
    failures: [],
  }));
}

/** Returns a copy of `candidates` with candidate `index` changed by `change`. */
export function updateCandidate(candidates: CandidateState[], index: number, change: (candidate: CandidateState) => CandidateState): CandidateState[] {
  return candidates.map((candidate) => (candidate.candidate === index ? change(candidate) : candidate));
}

/** Adds a verification (or a failed one, with a null score) to a candidate. */
export function addVerification(candidate: CandidateState, verification: Verification): CandidateState {
  return { ...candidate, verifications: [...candidate.verifications, verification].sort((a, b) => a.index - b.index) };
}

/** A candidate with its verifications' scores and indices but not their analyses (its summary request carries those). */
export function withoutAnalyses(candidate: CandidateState): CandidateState {
  return { ...candidate, verifications: candidate.verifications.map((verification) => ({ ...verification, analysis: '' })) };
}

/** A candidate whose summary could not be had: the calibrated score is still the verifications' mean. */
export function withoutSummary(candidate: CandidateState, failure: string): CandidateState {
  return { ...candidate, summarized: true, summaryScore: calibratedScore(candidate.verifications), failures: [...candidate.failures, failure] };
}

/**
 * True when the candidate's solution came to its end: it is in, says something,
 * and was not cut at its length limit or by a content filter. Only such a
 * solution is verified, summarised and shown to later roles: a cut one has no
 * answer and had not finished, and at a window-filling completion limit a prompt
 * that quotes it could not fit its window; an empty one (a reasoning model whose
 * server put all of the reply in its reasoning, or a reply that is all thinking) has nothing to check, and each
 * verification of it was a call paid for a score of nothing.
 */
export function isWhole<T extends { text: string | null; cut: boolean }>(candidate: T): candidate is T & { text: string } {
  return candidate.text !== null && afterReasoning(candidate.text).trim() !== '' && !candidate.cut;
}

/** R(t): what the next iteration's exploit prompts and this iteration's bank agents see: the whole solutions. */
export function toRollouts(candidates: CandidateState[]): Rollout[] {
  return candidates
    .filter(isWhole)
    .map((candidate) => ({
      candidate: candidate.candidate,
      answer: candidate.answer,
      summary: candidate.summary,
      score: candidate.summaryScore,
      text: candidate.text ?? '',
    }));
}

/**
 * The result line of a candidate, graded against the reference answer when there is one
 * (rule-based, read with the problem's `question`, marked `unsure` when the grader could
 * not decide: rule-grade.ts). Its answer is the one the rule grades (ruleResult: one reading), which the
 * votes count too. The judge's grade is empty here: the judge stage of the problem machine
 * fills it (judge-stage.ts).
 */
export function toCandidateResult(candidate: CandidateState, reference: string | undefined, question: string): CandidateResult {
  const { grade, answer } = ruleResult(candidate, reference, question);
  return {
    candidate: candidate.candidate,
    source: candidate.source,
    answer,
    verificationScores: candidate.verifications.map((v) => v.score),
    summary: candidate.summary,
    summaryScore: candidate.summaryScore,
    correct: reference === undefined ? null : grade?.equal === true,
    ...(grade?.verdict === 'unsure' ? { unsure: true } : {}),
    judge: null,
    correctJudge: null,
    failures: candidate.failures,
  };
}
