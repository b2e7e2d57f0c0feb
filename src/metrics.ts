/**
 * TTS metrics as a fold over the message stream: a bus subscriber that keeps
 * small per-(problem, iteration) aggregates, never the messages themselves.
 *
 * Per iteration (the paper's protocol): Pass@1 = mean correctness over the N
 * candidates, averaged over problems; majority vote; best-verified (the
 * candidate with the highest calibrated score); oracle pass@N (any correct).
 */
import { normalizeAnswer } from './grader/index.ts';
import type { CandidateResult, Envelope } from './protocol.ts';

/** Figures of one iteration, over the problems that have a reference answer. */
export interface IterationMetrics {
  iteration: number;
  /** Problems that finished this iteration. */
  problems: number;
  /** Problems among them with a reference answer (the denominators below). */
  graded: number;
  pass1: number | null;
  majority: number | null;
  bestVerified: number | null;
  oracle: number | null;
  meanScore: number | null;
  experienceBank: number;
  guidelineBank: number;
  tokens: Record<string, { prompt: number; completion: number }>;
  calls: number;
  failures: number;
  trims: number;
}

interface ProblemIteration {
  pass1: number | null;
  majority: boolean | null;
  bestVerified: boolean | null;
  oracle: boolean | null;
  meanScore: number | null;
}

function mean(values: number[]): number | null {
  return values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
}

/** The candidate chosen by majority vote over normalised answers; ties go to the higher total score, then the lower index. */
export function majorityCandidate(candidates: CandidateResult[]): CandidateResult | null {
  const groups = new Map<string, { votes: number; score: number; first: CandidateResult }>();
  for (const candidate of candidates) {
    if (candidate.answer === null) continue;
    const key = normalizeAnswer(candidate.answer);
    const group = groups.get(key) ?? { votes: 0, score: 0, first: candidate };
    group.votes++;
    group.score += candidate.summaryScore ?? 0;
    groups.set(key, group);
  }
  let best: { votes: number; score: number; first: CandidateResult } | null = null;
  for (const group of groups.values()) {
    if (!best || group.votes > best.votes || (group.votes === best.votes && group.score > best.score)) best = group;
  }
  return best?.first ?? null;
}

/** The candidate with the highest calibrated score (lowest index on ties). */
export function bestVerifiedCandidate(candidates: CandidateResult[]): CandidateResult | null {
  let best: CandidateResult | null = null;
  for (const candidate of candidates) {
    if (candidate.answer === null) continue;
    if (!best || (candidate.summaryScore ?? -1) > (best.summaryScore ?? -1)) best = candidate;
  }
  return best;
}

/** The metrics of one problem's iteration. */
export function scoreIteration(candidates: CandidateResult[]): ProblemIteration {
  const graded = candidates.every((c) => c.correct !== null) && candidates.length > 0;
  const scores = candidates.flatMap((c) => (c.summaryScore === null ? [] : [c.summaryScore]));
  if (!graded) return { pass1: null, majority: null, bestVerified: null, oracle: null, meanScore: mean(scores) };
  return {
    pass1: candidates.filter((c) => c.correct).length / candidates.length,
    majority: majorityCandidate(candidates)?.correct ?? false,
    bestVerified: bestVerifiedCandidate(candidates)?.correct ?? false,
    oracle: candidates.some((c) => c.correct),
    meanScore: mean(scores),
  };
}

/** A running fold of the message stream into metrics. */
export interface MetricsCollector {
  observe(envelope: Envelope): void;
  /** The figures so far, one entry per iteration that at least one problem finished. */
  iterations(): IterationMetrics[];
}

interface IterationAccumulator {
  problems: Map<string, ProblemIteration>;
  experienceBank: Map<string, number>;
  guidelineBank: Map<string, number>;
  tokens: Record<string, { prompt: number; completion: number }>;
  calls: number;
  failures: number;
  trims: number;
}

/** Creates a metrics collector. */
export function createMetricsCollector(): MetricsCollector {
  const byIteration = new Map<number, IterationAccumulator>();

  function at(iteration: number): IterationAccumulator {
    let accumulator = byIteration.get(iteration);
    if (!accumulator) {
      accumulator = { problems: new Map(), experienceBank: new Map(), guidelineBank: new Map(), tokens: {}, calls: 0, failures: 0, trims: 0 };
      byIteration.set(iteration, accumulator);
    }
    return accumulator;
  }

  return {
    observe({ message }) {
      switch (message.type) {
        case 'iteration.completed':
          at(message.iteration).problems.set(message.problem, scoreIteration(message.candidates));
          return;
        case 'bank.updated': {
          const accumulator = at(message.iteration);
          accumulator.experienceBank.set(message.problem, message.experience.size);
          accumulator.guidelineBank.set(message.problem, message.guideline.size);
          return;
        }
        case 'llm.failed':
          at(message.iteration).failures++;
          return;
        case 'context.trimmed':
          at(message.iteration).trims++;
          return;
        default:
          if ('call' in message) {
            const accumulator = at(message.iteration);
            const role = message.type.slice(0, message.type.lastIndexOf('.'));
            const tokens = (accumulator.tokens[role] ??= { prompt: 0, completion: 0 });
            tokens.prompt += message.call.usage.promptTokens;
            tokens.completion += message.call.usage.completionTokens;
            accumulator.calls++;
          }
      }
    },
    iterations() {
      return [...byIteration.entries()]
        .sort(([a], [b]) => a - b)
        .filter(([, accumulator]) => accumulator.problems.size > 0)
        .map(([iteration, accumulator]) => {
          const problems = [...accumulator.problems.values()];
          const graded = problems.filter((p) => p.pass1 !== null);
          const share = (pick: (p: ProblemIteration) => boolean | null) => mean(graded.map((p) => (pick(p) ? 1 : 0)));
          return {
            iteration,
            problems: problems.length,
            graded: graded.length,
            pass1: mean(graded.map((p) => p.pass1 ?? 0)),
            majority: share((p) => p.majority),
            bestVerified: share((p) => p.bestVerified),
            oracle: share((p) => p.oracle),
            meanScore: mean(problems.flatMap((p) => (p.meanScore === null ? [] : [p.meanScore]))),
            experienceBank: mean([...accumulator.experienceBank.values()]) ?? 0,
            guidelineBank: mean([...accumulator.guidelineBank.values()]) ?? 0,
            tokens: accumulator.tokens,
            calls: accumulator.calls,
            failures: accumulator.failures,
            trims: accumulator.trims,
          };
        });
    },
  };
}
