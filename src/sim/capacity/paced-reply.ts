/**
 * Sends one reply at the capacity model's pace. Streamed: the headers and the
 * role chunk at the first token (after queueing and prefill), the text in at
 * most `MAX_WRITES` writes spread over the decode, the finishing chunk, usage
 * and [DONE] at the end. Not streamed: the whole reply at the end. A client
 * that goes away aborts its sequence, whose tokens then count as wasted.
 */
import type { ServerResponse } from 'node:http';
import { closeStream, openStream, strike, type StreamEvents } from '../http/stream.ts';
import type { CapacityEngine } from './engine.ts';

/** Writes per streamed reply at most, so 800 concurrent streams do not flood the event loop. */
export const MAX_WRITES = 16;

/** What a paced reply needs. */
export interface PacedReply {
  engine: CapacityEngine;
  /** The prompt's text, for the prefix cache. */
  prompt: string;
  promptTokens: number;
  outputTokens: number;
  /** The events to stream, or null to send the whole reply at the end. */
  stream: StreamEvents | null;
  /** A stream fault, which strikes half-way through the text. */
  fault: 'stall' | 'reset' | 'malformed' | null;
  hold(res: ServerResponse): void;
  /** Sends the whole (non-streamed) reply. */
  sendWhole(): void;
}

/** Serves `reply` through the engine; resolves once it is sent or the client has gone. */
export function sendPaced(res: ServerResponse, reply: PacedReply): Promise<void> {
  return new Promise((resolve) => {
    const events = reply.stream;
    const pieces = events?.pieces ?? [];
    const steps = events === null ? 1 : Math.max(1, Math.min(MAX_WRITES, pieces.length));
    const faultAt = reply.fault === null ? -1 : Math.floor(pieces.length / 2);
    let struck = false;
    let over = false;
    const end = (): void => {
      over = true;
      resolve();
    };
    /** Writes the pieces of step `step` (1-based), striking at the fault. */
    const writeStep = (step: number): void => {
      const from = Math.floor(((step - 1) * pieces.length) / steps);
      const to = Math.floor((step * pieces.length) / steps);
      for (let index = from; index < to && !struck; index++) {
        if (index === faultAt) {
          struck = true;
          strike(res, reply.fault, reply.hold);
        } else res.write((pieces[index] as () => string)());
      }
    };
    const live = (): boolean => !over && !res.destroyed && !struck;
    const handle = reply.engine.submit({
      prompt: reply.prompt,
      promptTokens: reply.promptTokens,
      outputTokens: reply.outputTokens,
      steps,
      onFirstToken() {
        if (events !== null && live()) openStream(res, events);
      },
      onStep(step) {
        if (live()) writeStep(step);
      },
      onFinish() {
        if (!live()) return end();
        if (events === null) reply.sendWhole();
        else {
          writeStep(steps);
          if (!struck && reply.fault !== null) strike(res, reply.fault, reply.hold);
          else if (!struck) closeStream(res, events);
        }
        end();
      },
    });
    res.once('close', () => {
      if (over) return;
      handle.abort();
      end();
    });
  });
}
