/** The shapes of one chat completion as the gateway takes and gives it. */
import type { ReasoningDialect } from './reasoning.ts';

/** Where a role's calls go. */
export interface Endpoint {
  /** The endpoint, or the first replica of a pool. */
  baseUrl: string;
  model: string;
  apiKey: string;
  /** Every base URL of a replica pool serving the same model (two or more); absent for one endpoint. */
  replicas?: readonly string[];
}

/** Sampling fields beyond the temperature, sent only when set (a server's own defaults apply otherwise). */
export interface Sampling {
  topP?: number;
  topK?: number;
  minP?: number;
  /** `--extra-body`: merged into the request last (`chat_template_kwargs`, `reasoning_effort`, `repetition_penalty`, …). */
  extraBody?: Record<string, unknown>;
}

/**
 * Where a call stands in its run, which decides the order in which the calls
 * the gateway holds are sent (dispatcher.ts): smaller first, field by field.
 */
export interface CallRank {
  /** A grading call (the judge) waits while any call of the loop is held: grading never delays the run. */
  grading: boolean;
  /** What is left of the call's problem, in expected tokens along its chain (src/host/calls/call-ranks.ts): more goes first. */
  remaining: number;
  /**
   * Whether the run's problems are seen to cost differently per call, so that
   * the rank tells which chains run long (call-ranks.ts): a slower replica
   * then stays idle rather than take a call the run waits on (dispatcher.ts).
   */
  costsDiffer?: boolean;
  /**
   * How far the call stands ahead of its iteration's least advanced call, in
   * the units of `remaining` (src/host/calls/iteration-lines.ts): what its
   * iteration waits on is elsewhere, so it can wait that much. It changes
   * while the call is held, as a RankChange the dispatcher applies.
   */
  slack?: number;
}

/** A held call's new slack, once its iteration's least advanced call ended. */
export interface RankChange {
  rank: CallRank;
  slack: number;
}

/** One chat completion request. */
export interface CompletionRequest {
  endpoint: Endpoint;
  messages: Array<{ role: 'system' | 'user' | 'assistant'; content: string }>;
  maxTokens: number;
  /**
   * The tokens the window leaves the prompt, when more than `maxTokens` (a completion limit below it,
   * `--completion-max-tokens`): what a server that holds its visible reasoning apart from `max_tokens`
   * may still generate (reply-tokens.ts). Without it, the limit.
   */
  room?: number;
  temperature?: number;
  sampling?: Sampling;
  seed: number;
  /** The call's place in the run; a call without one ranks first (a loop call of a problem not ahead). */
  rank?: CallRank;
}

/** One chat completion result. */
export interface Completion {
  content: string;
  /** The reasoning of reasoning models, in whichever dialect it came, kept apart from `content`. */
  reasoning: string | null;
  /** How the reasoning arrived; null when there was none. */
  reasoningDialect: ReasoningDialect | null;
  finishReason: string;
  /** The server's usage block; null when the reply had none. `reasoningBeside`: of the completion tokens, the reasoning the server counted beside its own; `reasoningApart`: the reasoning it counted among them but held apart from the limit (usage-counts.ts). */
  usage: { promptTokens: number; completionTokens: number; reasoningBeside?: number; reasoningApart?: number } | null;
  /** For a reply without usage, its text's tokens as the gateway's tokenizer counted them; null when not counted. */
  countedTokens: number | null;
  /** The model the reply names; null when it names none. */
  model: string | null;
  /** Time from the attempt's start to the first streamed text; null when not streamed. */
  firstTokenMs: number | null;
  /** The base URL that answered (a replica of a pool, or the endpoint). */
  replica: string;
  attempts: number;
  latencyMs: number;
}
