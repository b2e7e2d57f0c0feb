/**
 * The contract between role actors and the runtime's LLM call. A role actor
 * references the call by the name `llm` in `setup({ actors })`; the runtime
 * provides the implementation (gateway, pool, journal) with `machine.provide()`,
 * and tests or replay can provide another.
 */
import { fromPromise } from 'xstate';
import { TmasError } from '../src/kernel/errors.ts';
import type { EndpointSlot, FittedValues, Message, Usage } from '../src/kernel/protocol.ts';
import type { PromptSpec } from './prompt.ts';

/** What a role asks for. */
export interface LlmInput {
  role: string;
  /** Which endpoint (`--base-url`, `--verify-base-url`, …) the call goes to. */
  endpoint: EndpointSlot;
  problem: string;
  iteration: number;
  /** Distinguishes the calls of one role in one iteration (candidate, or candidate × M + verification). */
  index: number;
  prompt: PromptSpec;
  /**
   * An assistant message after the prompt that the reply continues (the cut
   * text and cue of a budget-forced reply, machines/budget-forcing.ts): the
   * request asks the server to continue it rather than start a new turn.
   */
  prefix?: string;
  /** Sampling temperature; the endpoint default when absent. */
  temperature?: number;
  /** The role's own completion limit for this call (MAS-TTS's CEO budget); the lower of it and the run's applies. */
  maxTokens?: number;
  /** The request message this call answers; echoed in the output so the role keeps no state per call. */
  request: Message;
  /** 0 for the first call; n for the n-th retry after unusable output (another seed, so another request). */
  attempt?: number;
  /** The call grades a candidate (the judge) rather than produces one: its failure leaves a grade missing, it does not stop the problem. */
  grading?: true;
  /** The call condenses texts that its problem keeps only for it (a `memory` role: a summary of M analyses, a bank update): its prompt is made before the others waiting. */
  condenses?: true;
}

/** What a successful call returns. */
export interface LlmOutput {
  ok: true;
  request: Message;
  /** Deterministic journal key of the call. */
  key: string;
  content: string;
  /** Reasoning models' `reasoning_content`, kept apart from `content`. */
  reasoning: string | null;
  finishReason: string;
  usage: Usage;
  /** Calls whose tokens `usage` sums, when more than one (a reply forced to its end: the cut call and its continuations). */
  calls?: number;
  /** Context budget bookkeeping: the prompt's tokens, the prompt budget and the parts left out. */
  promptTokens: number;
  budget: number;
  dropped: string[];
  /** When the system message is a template: its droppable values, how many were kept, and the tokens of their texts. */
  systemValues?: FittedValues;
  /** The input's `attempt`, echoed. */
  attempt?: number;
  /** Context-length errors the endpoint returned before the prompt fitted (each shrank the window). */
  contextErrors?: number;
}

/** A call that failed for good, after the gateway's retries. Failures are results, not exceptions, so the role replies with `llm.failed`. */
export interface LlmFailure {
  ok: false;
  request: Message;
  code: string;
  error: string;
  /** The input's `attempt`, echoed. */
  attempt?: number;
}

/** The output of the `llm` actor. */
export type LlmResult = LlmOutput | LlmFailure;

/** Placeholder registered in `setup({ actors })`; fails loudly if the runtime did not provide a real one. */
export const llmNotProvided = fromPromise<LlmResult, LlmInput>(async () => {
  throw new TmasError('TMAS_NOT_PROVIDED', 'the `llm` actor was not provided: create actors through createRuntime()');
});
