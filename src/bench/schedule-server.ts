/**
 * The server side of the schedule benchmark (schedule.bench.ts): the
 * simulator's capacity model on a manual clock, the calls held for it in the
 * gateway's own heap (src/gateway/held-calls.ts), ranked by the rule, and
 * sent while the rule's limit allows.
 */
import type { CallRank } from '../gateway/completion.ts';
import { HeldCalls, type Held } from '../gateway/held-calls.ts';
import { marginOf } from '../gateway/load-limit.ts';
import type { CallRanks } from '../host/call-ranks.ts';
import type { CapacityEngine } from '../sim/capacity/engine.ts';
import type { Rule } from './schedule-rules.ts';

/** Prompt sizes by role, in tokens: they set only the KV cache each call holds. */
const PROMPT_TOKENS: Record<string, number> = { solution: 500, verification: 2_500, summary: 4_000, experience: 4_000, guideline: 4_000 };

interface Call extends Held {
  problem: number;
  iteration: number;
  role: string;
  outputTokens: number;
  done(): void;
}

/** What the held calls go to, and how. */
export interface ScheduledServerOptions {
  engine: CapacityEngine;
  /** Calls in flight at most. */
  cap: number;
  /** The rule's limit (`margin`: only while the server's queue is under the load limit's margin). */
  limit: Rule['limit'];
  /** This draw's ranking; null for first come first served, or when `clairvoyant`. */
  ranks: CallRanks | null;
  /** Rank each call by the true chain from it to its problem's end. */
  clairvoyant: boolean;
}

/** The capacity model and the calls held for it. */
export class ScheduledServer {
  private readonly held = new HeldCalls<Call>();
  private inFlight = 0;
  private sequence = 0;
  /** Output tokens of the calls finished. */
  decoded = 0;

  constructor(private readonly options: ScheduledServerOptions) {}

  /** Holds one call; `chain` is the true longest chain from its start to its problem's end, which only the clairvoyant rule reads. */
  send(problem: number, iteration: number, role: string, outputTokens: number, chain: number, done: () => void): void {
    const { ranks, clairvoyant } = this.options;
    const grading = role === 'judge';
    const rank: CallRank = clairvoyant ? { grading, remaining: chain } : (ranks?.rankOf({ problem: String(problem), iteration, role, grading }) ?? { grading, remaining: 0 });
    this.held.push({ rank, sequence: this.sequence++, problem, iteration, role, outputTokens, done });
  }

  /** Sends held calls, best first, while the limit allows; each one finished sends the next. */
  pump(): void {
    const { engine, cap, ranks } = this.options;
    while (this.inFlight < cap && this.underMargin()) {
      const sent = this.held.pop();
      if (sent === undefined) return;
      this.inFlight++;
      engine.submit({
        prompt: `${sent.problem}/${sent.iteration}/${sent.role}/${sent.sequence}`,
        promptTokens: PROMPT_TOKENS[sent.role] ?? 1_000,
        outputTokens: sent.outputTokens,
        steps: 1,
        onFinish: () => {
          this.inFlight--;
          this.decoded += sent.outputTokens;
          ranks?.record(String(sent.problem), sent.outputTokens);
          sent.done();
          this.pump();
        },
      });
    }
  }

  private underMargin(): boolean {
    if (this.options.limit !== 'margin') return true;
    const { running, waiting } = this.options.engine.metrics();
    return waiting < marginOf(running);
  }
}
