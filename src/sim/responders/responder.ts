/**
 * What every simulated role sees: the problem, the rest of the user message
 * after the `<problem>` block, and a generator keyed by the request.
 */
import type { SimProblem } from '../model/catalogue.ts';
import type { Rng } from '../model/random.ts';

/** The input of a role responder. Responders are pure: the same input gives the same text. */
export interface ResponderInput {
  seed: number;
  problem: SimProblem;
  /** The user message after the `<problem>` block. */
  rest: string;
  /** Keyed by the request (server seed, messages, seed, temperature, model). */
  rng: Rng;
  /** Approximate length of a solution, in tokens; other roles scale from it. */
  outputTokens: number;
  /** Chance that a verification's verdict is right. */
  verifierAccuracy: number;
  /** Approximate tokens of the records an RSE distillation writes besides its marked one (0: none). */
  distillTokens: number;
  /** The system message (most roles read only `rest`). */
  system?: string;
}

/** A role responder: the reply text for one request. */
export type Responder = (input: ResponderInput) => string;

/** A one-line excerpt of a problem statement for the opening of a reply. */
export function excerpt(text: string, max = 120): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

/** A length in tokens drawn around `tokens` (±30%), so replies are not all the same size. */
export function jitteredTokens(tokens: number, rng: Rng): number {
  return Math.max(1, Math.round(tokens * (0.7 + 0.6 * rng.next())));
}
