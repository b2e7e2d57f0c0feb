/**
 * What went wrong with the model's answers, counted from the message stream:
 * the part of the metrics fold that issue "survives the real world" adds.
 * Endpoint-level retries (429, 503, resets, …) are not messages; the gateway
 * counts those (metrics.json `gateway`).
 */
import type { Message } from '../kernel/protocol.ts';

/** Per-iteration counts of damaged or unusable answers. */
export interface FaultCounts {
  /** Replies cut at the length limit (`finish_reason: "length"`). */
  truncated: number;
  /** Replies a content filter stopped (`finish_reason: "content_filter"`): cut, like truncated ones, and counted apart. */
  filtered: number;
  /** Replies with empty content. */
  emptyAnswers: number;
  /** Context-length errors from the endpoint, each answered by re-fitting the prompt into a smaller window. */
  contextErrors: number;
  /** Calls asked again because their output could not be used (`output.invalid`, retrying). */
  parseRetries: number;
  /**
   * Outputs the reply went on without: still unusable after the parse retries, or a reply that carries
   * its own parse error (a strategy that asks again by itself, as RSE's distiller, counts each attempt).
   * Per role in `outputsByRole`.
   */
  invalidOutputs: number;
}

/** Zero counts. */
export function createFaultCounts(): FaultCounts {
  return { truncated: 0, filtered: 0, emptyAnswers: 0, contextErrors: 0, parseRetries: 0, invalidOutputs: 0 };
}

/** Adds what one message says about damaged answers to `counts`. */
export function countFaults(counts: FaultCounts, message: Message): void {
  if (message.type === 'context.trimmed') {
    counts.contextErrors += message.contextErrors ?? 0;
  } else if (message.type === 'output.invalid') {
    if (message.retrying) counts.parseRetries++;
    else counts.invalidOutputs++;
    // A final invalid output is also a completed reply, whose call info counts its truncation and emptiness below.
    if (message.retrying) countCut(counts, message.finishReason);
    if (message.retrying && message.empty) counts.emptyAnswers++;
  } else if ('call' in message) {
    countCut(counts, message.call.finishReason);
    // Every role's reply says whether it was empty; a log written before said so of a solution's text alone.
    if (message.call.empty === true || (message.type === 'solution.completed' && message.text.trim() === '')) counts.emptyAnswers++;
  }
}

/** A reply cut at its length limit, or stopped by a content filter, counted by its finish reason. */
function countCut(counts: FaultCounts, finishReason: string): void {
  if (finishReason === 'length') counts.truncated++;
  else if (finishReason === 'content_filter') counts.filtered++;
}
