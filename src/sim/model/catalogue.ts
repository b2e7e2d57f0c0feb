/**
 * What the simulated model "knows" about each problem: its reference answer,
 * a hidden base difficulty, its plausible wrong answers and the marker tokens
 * that let bank records written by the simulated Experience agent be read back
 * by the simulated Solution agent. All of it is keyed by (server seed, problem id).
 */
import { distractorsFor, type Distractor, type MistakeKind } from './distractors.ts';
import { sameAnswer } from './grade.ts';
import { hexOf, rngOf, sigmoid, uniformOf } from './random.ts';
import { defaultStrategy } from './solver-strategies.ts';

/** A problem as the server was given it. */
export interface ProblemInput {
  id: string;
  question: string;
  answer?: string;
}

/** How hard a problem is, by its base chance of a correct plain solution. */
export type Tier = 'easy' | 'medium' | 'hard' | 'nearly impossible';

/** One answer the simulator can tell apart: the reference or a distractor. */
export interface KnownAnswer {
  answer: string;
  correct: boolean;
  /** `other`: an answer that is neither the reference nor a distractor. */
  kind: MistakeKind | 'reference' | 'other';
  /** Index in `distractors`, or -1 for the reference and for other answers. */
  distractor: number;
}

/** Everything the simulator knows about one problem. */
export interface SimProblem {
  id: string;
  question: string;
  /** The reference answer; invented from a hash when the problem has none or is unknown. */
  answer: string;
  /** False when the request's problem was not among the server's problems. */
  known: boolean;
  /** Logit of the chance that a plain solution is correct. */
  baseLogit: number;
  tier: Tier;
  distractors: Distractor[];
  defaultStrategy: string;
  /** Marker token → the answer it stands for. */
  markers: Map<string, KnownAnswer>;
  /** Answers already classified; grading can be costly and a problem sees few distinct answers. */
  classified: Map<string, KnownAnswer>;
}

/** Fraction of problems that are nearly impossible. */
const IMPOSSIBLE_SHARE = 0.08;
const IMPOSSIBLE_LOGIT = -5.5;
/** Base logits of the other problems spread evenly over this range (p ≈ 0.96 … 0.04). */
const LOGIT_HIGH = 3.2;
const LOGIT_LOW = -3.2;

/** The base logit of a problem from the server seed and its id. */
export function baseLogitOf(seed: number, id: string): number {
  const u = uniformOf(seed, 'difficulty', id);
  if (u < IMPOSSIBLE_SHARE) return IMPOSSIBLE_LOGIT;
  return LOGIT_HIGH - (LOGIT_HIGH - LOGIT_LOW) * ((u - IMPOSSIBLE_SHARE) / (1 - IMPOSSIBLE_SHARE));
}

function tierOf(logit: number): Tier {
  const p = sigmoid(logit);
  if (logit <= IMPOSSIBLE_LOGIT) return 'nearly impossible';
  return p >= 0.7 ? 'easy' : p >= 0.3 ? 'medium' : 'hard';
}

/** The short hex token that marks bank records about `answer` on this problem. */
export function markerOf(seed: number, problemId: string, answer: string): string {
  return hexOf(seed, 'marker', problemId, answer).slice(0, 6);
}

/** Builds the simulator's view of one problem. */
export function toSimProblem(seed: number, input: ProblemInput, known = true): SimProblem {
  // A problem without a reference still needs one for the loop to mean anything; invent a stable integer.
  const answer = input.answer?.trim() || String(10 + Math.floor(uniformOf(seed, 'invented-answer', input.id) * 990));
  const distractors = distractorsFor(answer, rngOf(seed, 'distractors', input.id));
  const baseLogit = baseLogitOf(seed, input.id);
  const markers = new Map<string, KnownAnswer>();
  markers.set(markerOf(seed, input.id, answer), { answer, correct: true, kind: 'reference', distractor: -1 });
  distractors.forEach((d, index) => {
    markers.set(markerOf(seed, input.id, d.answer), { answer: d.answer, correct: false, kind: d.kind, distractor: index });
  });
  return {
    id: input.id,
    question: input.question,
    answer,
    known,
    baseLogit,
    tier: tierOf(baseLogit),
    distractors,
    defaultStrategy: defaultStrategy(seed, input.id),
    markers,
    classified: new Map(),
  };
}

/**
 * What an answer string is on this problem: the reference, one of the
 * distractors, or something else (then `distractor` is -1 and `correct` false).
 */
export function classifyAnswer(problem: SimProblem, answer: string): KnownAnswer {
  const cached = problem.classified.get(answer);
  if (cached) return cached;
  const known = classifyUncached(problem, answer);
  if (problem.classified.size < MAX_CLASSIFIED) problem.classified.set(answer, known);
  return known;
}

/** Bounds the per-problem cache: a problem's answers are the reference, its distractors and a few strays. */
const MAX_CLASSIFIED = 64;

function classifyUncached(problem: SimProblem, answer: string): KnownAnswer {
  if (sameAnswer(answer, problem.answer)) {
    return { answer: problem.answer, correct: true, kind: 'reference', distractor: -1 };
  }
  const index = problem.distractors.findIndex((d) => sameAnswer(answer, d.answer));
  const distractor = problem.distractors[index];
  if (distractor) return { answer: distractor.answer, correct: false, kind: distractor.kind, distractor: index };
  return { answer, correct: false, kind: 'other', distractor: -1 };
}

/** The problems the server was started with, found by the `<problem>` block of a prompt. */
export interface Catalogue {
  /** The problem whose statement is `question`, or an invented one (`known: false`). */
  lookup(question: string): SimProblem;
  /** Statements that contain `</problem>`, which the block parser cannot cut reliably. */
  readonly awkward: readonly string[];
  /** The longest known statement that `text` quotes, or null: how a prompt without a `<problem>` block names its problem. */
  quotedIn(text: string): string | null;
  readonly size: number;
}

/**
 * Indexes the problems by statement. With duplicate statements the first
 * problem wins. A problem's view is built on first use, so that starting a
 * server over a large benchmark costs no grading.
 */
export function createCatalogue(seed: number, problems: readonly ProblemInput[]): Catalogue {
  const byQuestion = new Map<string, ProblemInput>();
  for (const input of problems) {
    if (!byQuestion.has(input.question)) byQuestion.set(input.question, input);
  }
  const built = new Map<string, SimProblem>();
  const awkward = [...byQuestion.keys()].filter((q) => q.includes('</problem>'));
  return {
    lookup(question) {
      const input = byQuestion.get(question);
      if (input) {
        let found = built.get(question);
        if (!found) {
          found = toSimProblem(seed, input);
          built.set(question, found);
        }
        return found;
      }
      // Not cached: unknown statements are per request and must not grow memory.
      return toSimProblem(seed, { id: `unknown-${hexOf(question).slice(0, 12)}`, question }, false);
    },
    awkward,
    quotedIn(text) {
      let best: string | null = null;
      for (const question of byQuestion.keys()) {
        if (question.length > (best?.length ?? 0) && question.length <= text.length && text.includes(question)) best = question;
      }
      return best;
    },
    size: byQuestion.size,
  };
}
