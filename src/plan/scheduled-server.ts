/**
 * The servers a plan (and the schedule benchmark) sends calls to: replicas
 * of the simulator's capacity model on one manual clock, the calls held for
 * them in the gateway's own heap (src/gateway/dispatch/held-calls.ts), ranked as the
 * run ranks them, and each sent, while the limits allow, to the replica the
 * gateway's own router chooses (`--routing`, src/gateway/dispatch/routing.ts): at most
 * its cap on a replica (the gateway's cap a little above its knee), at most
 * `concurrency` in all, and under `margin` only while a replica's own queue
 * is short. As the gateway's dispatcher does, when the next call's prompt
 * is cached on another replica, which is full, it waits for that one, and the
 * replica with room takes a call further down the line that it holds, or
 * that none holds; and a replica slower than the fastest takes the held call
 * ranked last.
 */
import type { CallRank, RankChange } from '../gateway/reply/completion.ts';
import { HeldCalls, PREFIX_LOOKAHEAD, withoutSlack, type Held } from '../gateway/dispatch/held-calls.ts';
import { slowerReplicaPick, withSlowerReplica } from '../gateway/dispatch/dispatcher.ts';
import type { CallRanks } from '../host/calls/call-ranks.ts';
import { createRouter, type Routing } from '../gateway/dispatch/routing.ts';
import type { RoutedCall, Router } from '../gateway/dispatch/routed-call.ts';
import type { CapacityEngine } from '../sim/capacity/engine.ts';
import type { CapacitySettings } from '../sim/capacity/options.ts';
import { promptPrefix } from './prompt-prefix.ts';
import { ReplicaSlots, type LimitMode } from './replica-slots.ts';

/** One call as the servers see it. */
export interface ServedCall {
  problem: number;
  iteration: number;
  role: string;
  promptTokens: number;
  outputTokens: number;
  /** Its prompt group (call-graph.ts): calls of one group share their prompt; null or none: a prompt of its own. */
  prompt?: number | null;
  /** The true longest chain from its start to its problem's end; only the clairvoyant ranking reads it. */
  chain?: number;
}

interface Call extends Held, ServedCall, RoutedCall<ReplicaSlots> {
  /** The rank the run gave it (`rank` is that rank without its slack on a pool with slower replicas). */
  ranked: CallRank;
  done(): void;
}

/** One replica: its capacity model, its settings, and the most calls it may have in flight. */
export interface ServedReplica {
  engine: CapacityEngine;
  capacity: CapacitySettings;
  cap: number;
}

/** What the held calls go to, and how. */
export interface ScheduledServerOptions {
  /** The replicas, all on the same clock. */
  replicas: ServedReplica[];
  /** Calls in flight over all replicas at most. */
  concurrency: number;
  /** `margin`: a replica takes a call only while its queue is under the load limit's margin (what tmas does where no knee is found). */
  limit: LimitMode;
  /** Which replica a call goes to, of those with room. */
  routing: Routing;
  /** The run's ranking; null for first come first served, or when `clairvoyant`. */
  ranks: CallRanks | null;
  /** Rank each call by the true chain from it to its problem's end. */
  clairvoyant: boolean;
  /** A slower replica takes the next call, not the one ranked last, as the gateway did before (for the schedule benchmark's comparison). */
  slowTakesNext?: boolean;
}

/** The capacity models and the calls held for them. */
export class ScheduledServer {
  private readonly held = new HeldCalls<Call>();
  /** The calls held, by their rank: a new slack (CallRanks ended) finds its call in the line. */
  private readonly heldByRank = new Map<CallRank, Call>();
  private readonly slots: ReplicaSlots[];
  private readonly router: Router<ReplicaSlots>;
  /** Only a pool is routed by its prompts' prefixes, as in the gateway: one replica has nothing to choose. */
  private readonly prefixed: boolean;
  private total = 0;
  private sequence = 0;
  /** Output tokens of the calls finished. */
  decoded = 0;
  /** Prompt tokens of the calls sent. */
  prompted = 0;

  constructor(private readonly options: ScheduledServerOptions) {
    this.slots = options.replicas.map((replica) => new ReplicaSlots(replica.engine, replica.capacity, replica.cap, options.limit));
    this.router = createRouter<ReplicaSlots>(options.routing);
    this.prefixed = options.routing === 'prefix' && options.replicas.length > 1;
  }

  /** Output tokens each replica decoded, in the replicas' order. */
  get decodedBy(): number[] {
    return this.slots.map((slot) => slot.decoded);
  }

  /** Holds one call; `done` runs when it finishes. */
  send(call: ServedCall, done: () => void): void {
    const { ranks, clairvoyant } = this.options;
    const grading = call.role === 'judge';
    const ranked: CallRank = clairvoyant ? { grading, remaining: call.chain ?? 0 } : (ranks?.rankOf({ problem: String(call.problem), iteration: call.iteration, role: call.role, grading }, (changes) => this.reslack(changes)) ?? { grading, remaining: 0 });
    // As the dispatcher does: on a pool with slower replicas a call waits by its chain alone (held-calls.ts withoutSlack).
    const rank = withSlowerReplica(this.router, this.slots) ? withoutSlack(ranked) : ranked;
    const sequence = this.sequence++;
    const prefix = this.prefixed && call.prompt != null ? promptPrefix(call.prompt, call.promptTokens) : null;
    // Field by field, not { ...call, rank, … }: V8 gives each object so made a hidden class of its own, and the held
    // heap's comparisons then read every call's rank through a cache that can serve none (call-graph.ts says more).
    const { problem, iteration, role, promptTokens, outputTokens } = call;
    const held: Call = { problem, iteration, role, promptTokens, outputTokens, prompt: call.prompt ?? null, chain: call.chain ?? 0, rank, ranked, sequence, tieBreak: sequence, prefix, done };
    this.held.push(held);
    if (rank === ranked) this.heldByRank.set(rank, held);
  }

  /** New slacks of calls held or running (CallRanks), applied where each call is, as the dispatcher does. */
  private reslack(changes: readonly RankChange[]): void {
    for (const { rank, slack } of changes) {
      const held = this.heldByRank.get(rank);
      if (held === undefined) rank.slack = slack;
      else this.held.reslack(held, slack);
    }
  }

  /** Sends held calls, best first, while the limits allow; each one finished sends the next. */
  pump(): void {
    while (this.total < this.options.concurrency) {
      const next = this.held.peek();
      if (next === undefined) return;
      const replica = this.router.choose(this.slots, next);
      if (replica === null) return;
      const slower = this.options.slowTakesNext !== true && this.router.isSlower?.(replica, this.slots) === true;
      const instead = slower ? slowerReplicaPick(this.router, this.held, next, replica, this.slots) : this.prefixFirst(next, replica);
      if (instead === 'idle') return;
      if (instead === null) this.held.pop();
      else this.held.remove(instead);
      this.start(instead ?? next, replica);
    }
  }

  /** A held call further down the line for `replica` when the next one's prompt is cached on another replica, as the dispatcher does. */
  private prefixFirst(next: Call, replica: ReplicaSlots): Call | null {
    const elsewhere = this.router.cachedElsewhere;
    const holder = elsewhere?.(replica, next, this.slots) ?? null;
    // A holder with room was weighed by the router (routing.ts), which chose this replica: the call goes here.
    if (elsewhere === undefined || holder === null || holder.limit - holder.inFlight > 0) return null;
    for (const call of this.held.leading(PREFIX_LOOKAHEAD)) if (call !== next && elsewhere(replica, call, this.slots) === null) return call;
    return null;
  }

  private start(sent: Call, replica: ReplicaSlots): void {
    this.heldByRank.delete(sent.ranked);
    this.router.sent(replica, sent);
    replica.inFlight++;
    this.total++;
    this.prompted += sent.promptTokens;
    replica.engine.submit({
      // The capacity model is not given the prompt groups: its prefix cache would find a candidate's verifications
      // (prefill and KV cache shared), which changed a 40-problem forecast by 0.02% and cost 2 to 4 times its compute.
      prompt: `${sent.problem}/${sent.iteration}/${sent.role}/${sent.sequence}`,
      promptTokens: sent.promptTokens,
      outputTokens: sent.outputTokens,
      steps: 1,
      onFinish: () => {
        replica.inFlight--;
        replica.decoded += sent.outputTokens;
        this.total--;
        this.decoded += sent.outputTokens;
        this.options.ranks?.record(String(sent.problem), sent.outputTokens);
        this.reslack(this.options.ranks?.ended(sent.ranked) ?? []);
        sent.done();
        this.pump();
      },
    });
  }
}
