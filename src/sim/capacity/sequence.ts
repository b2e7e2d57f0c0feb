/**
 * One request inside the capacity model (engine.ts): what a client asked for
 * and where the model has it, from the queue through prefill and decode to
 * its end. A preemption sends it back to the queue with what it generated.
 */

/** One request for the engine. */
export interface SequenceRequest {
  /** The prompt's text, for the prefix cache. */
  prompt: string;
  promptTokens: number;
  /** Tokens it generates before it finishes. */
  outputTokens: number;
  /** Progress steps, at least 1: `onStep(k)` fires at k/steps of the output for k < steps, `onFinish` at the end. */
  steps: number;
  onFirstToken?(): void;
  onStep?(step: number): void;
  onFinish?(): void;
}

/** Where a sequence is: queued, prefilling, decoding, or finished (or aborted). */
export type Phase = 'waiting' | 'prefill' | 'decode' | 'done';

/** A request and its state in the model. */
export interface Sequence {
  request: SequenceRequest;
  arrivedAt: number;
  phase: Phase;
  /** Tokens generated before the current decode stint. */
  base: number;
  /** The shared progress mark when the current decode stint began. */
  start: number;
  /** Bumped on preemption and abort, voiding pushed targets. */
  epoch: number;
  stepsDone: number;
  prefillLeft: number;
  admittedBefore: boolean;
  firstTokenAt: number | null;
  /** Chain keys of the prompt's full blocks, hashed once (the queue's head is looked up at every event). */
  blockKeys: readonly number[] | null;
  /** Keys of the pool blocks it holds while admitted, shared with whoever else holds them. */
  heldBlocks: readonly number[];
  /** Prompt tokens it holds on its own while admitted: the rest of its prompt is in shared blocks. */
  privatePromptTokens: number;
}

/** A request that arrived at `arrivedAt` (simulated seconds), queued. */
export function createSequence(request: SequenceRequest, arrivedAt: number): Sequence {
  return {
    request,
    arrivedAt,
    phase: 'waiting',
    base: 0,
    start: 0,
    epoch: 0,
    stepsDone: 0,
    prefillLeft: 0,
    admittedBefore: false,
    firstTokenAt: null,
    blockKeys: null,
    heldBlocks: [],
    privatePromptTokens: 0,
  };
}
