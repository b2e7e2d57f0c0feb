/**
 * The servers a plan (and the schedule benchmark) sends calls to: replicas
 * of the simulator's capacity model on one manual clock, the calls held for
 * them in the gateway's own heap (src/gateway/held-calls.ts), ranked as the
 * run ranks them, and each sent to the replica with the fewest calls in
 * flight while the limits allow: at most `replicaCap` on a replica (the
 * gateway's cap a little above the knee), at most `concurrency` in all, and
 * under `margin` only while a replica's own queue is short.
 */
import type { CallRank } from '../gateway/completion.ts';
import { HeldCalls, type Held } from '../gateway/held-calls.ts';
import { marginOf } from '../gateway/load-limit.ts';
import type { CallRanks } from '../host/call-ranks.ts';
import type { CapacityEngine } from '../sim/capacity/engine.ts';

/** One call as the servers see it. */
export interface ServedCall {
  problem: number;
  iteration: number;
  role: string;
  promptTokens: number;
  outputTokens: number;
  /** The true longest chain from its start to its problem's end; only the clairvoyant ranking reads it. */
  chain?: number;
}

interface Call extends Held, ServedCall {
  done(): void;
}

/** What the held calls go to, and how. */
export interface ScheduledServerOptions {
  /** One capacity model per replica, all on the same clock. */
  engines: CapacityEngine[];
  /** Calls in flight on one replica at most. */
  replicaCap: number;
  /** Calls in flight over all replicas at most. */
  concurrency: number;
  /** `margin`: a replica takes a call only while its queue is under the load limit's margin (what tmas does where no knee is found). */
  limit: 'knee' | 'margin' | 'none';
  /** The run's ranking; null for first come first served, or when `clairvoyant`. */
  ranks: CallRanks | null;
  /** Rank each call by the true chain from it to its problem's end. */
  clairvoyant: boolean;
}

/** The capacity models and the calls held for them. */
export class ScheduledServer {
  private readonly held = new HeldCalls<Call>();
  private readonly inFlight: number[];
  private total = 0;
  private sequence = 0;
  /** Output tokens of the calls finished. */
  decoded = 0;
  /** Prompt tokens of the calls sent. */
  prompted = 0;

  constructor(private readonly options: ScheduledServerOptions) {
    this.inFlight = options.engines.map(() => 0);
  }

  /** Holds one call; `done` runs when it finishes. */
  send(call: ServedCall, done: () => void): void {
    const { ranks, clairvoyant } = this.options;
    const grading = call.role === 'judge';
    const rank: CallRank = clairvoyant ? { grading, remaining: call.chain ?? 0 } : (ranks?.rankOf({ problem: String(call.problem), iteration: call.iteration, role: call.role, grading }) ?? { grading, remaining: 0 });
    this.held.push({ ...call, rank, sequence: this.sequence++, done });
  }

  /** Sends held calls, best first, while the limits allow; each one finished sends the next. */
  pump(): void {
    const { engines, concurrency, ranks } = this.options;
    while (this.total < concurrency && this.held.size > 0) {
      const replica = this.replicaFree();
      if (replica < 0) return;
      const sent = this.held.pop() as Call;
      this.inFlight[replica] = (this.inFlight[replica] as number) + 1;
      this.total++;
      this.prompted += sent.promptTokens;
      (engines[replica] as CapacityEngine).submit({
        prompt: `${sent.problem}/${sent.iteration}/${sent.role}/${sent.sequence}`,
        promptTokens: sent.promptTokens,
        outputTokens: sent.outputTokens,
        steps: 1,
        onFinish: () => {
          this.inFlight[replica] = (this.inFlight[replica] as number) - 1;
          this.total--;
          this.decoded += sent.outputTokens;
          ranks?.record(String(sent.problem), sent.outputTokens);
          sent.done();
          this.pump();
        },
      });
    }
  }

  /** The replica with the fewest calls in flight that may take one more; -1 when none may. */
  private replicaFree(): number {
    let best = -1;
    this.inFlight.forEach((count, replica) => {
      if (count >= this.options.replicaCap || !this.underMargin(replica)) return;
      if (best < 0 || count < (this.inFlight[best] as number)) best = replica;
    });
    return best;
  }

  private underMargin(replica: number): boolean {
    if (this.options.limit !== 'margin') return true;
    const { running, waiting } = (this.options.engines[replica] as CapacityEngine).metrics();
    return waiting < marginOf(running);
  }
}
