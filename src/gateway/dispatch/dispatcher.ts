/**
 * Who sends next. A call is sent when the run has a slot free under
 * `--concurrency` and a replica of its endpoint has one free under that
 * replica's own limit (which follows the server's load: server-load.ts);
 * until then the gateway holds it. Held calls leave by rank (held-calls.ts),
 * not in the order they came, so that when the servers are saturated the
 * calls that hold the run back go first, and the waiting happens here, where
 * the order is ours, rather than in a server's first-come queue.
 */
import type { CallRank, RankChange } from '../reply/completion.ts';
import { createTicket, type Ticket } from './dispatch-ticket.ts';
import { HeldCalls, compareHeld, PREFIX_LOOKAHEAD, slowReplicaWaits, withoutSlack, type Held } from './held-calls.ts';
import type { RoutedCall, Router } from './routed-call.ts';

/** A replica as the dispatcher sees it. */
export interface Slots {
  inFlight: number;
  /** Calls it may have in flight now. */
  readonly limit: number;
  /** A replica that gets no more calls. */
  readonly drained: boolean;
}

/** How held calls are ordered: by rank (the default), or first come first served (for comparison). */
export type DispatchOrder = 'rank' | 'fifo';

/** What a call asks of the dispatcher: its pool and replicas, its place in the line, and what routes it. */
export interface Admission<S> extends RoutedCall<S> {
  pool: string;
  replicas: readonly S[];
  rank: CallRank;
  sequence: number;
}

/** The dispatcher of one gateway. */
export interface Dispatcher<S extends Slots> {
  /**
   * Resolves with the replica the call goes to once it may be sent, with a
   * slot taken there and in the run. `pool` names the replicas' group (calls
   * of one group wait in one line). Rejects with the signal's reason if it
   * aborts first, or with `reject`'s reason.
   */
  admit(call: Admission<S>, signal?: AbortSignal): Promise<S>;
  /** Gives back the slot of a call that finished, whatever its outcome. */
  release(replica: S): void;
  /** Sends what may now be sent: after a limit rose or a replica was drained. */
  pump(): void;
  /** Rejects every call held for `pool` (its every replica is down). */
  rejectPool(pool: string, reason: unknown): void;
  /** Rejects every call held, and every call admitted from now on, with `reason` (the gateway drains). */
  refuse(reason: unknown): void;
  /** Gives each call its new slack (CallRank slack), and a held one its place in the line by it. */
  reslack(changes: readonly RankChange[]): void;
  readonly inFlight: number;
  /** Calls held, in all. */
  readonly held: number;
  /** Calls held for one pool. */
  heldFor(pool: string): number;
  readonly concurrency: number;
}

/**
 * Of `candidates` (some of `replicas`), the one with the most free slots,
 * ties broken by `tieBreak` over the replicas' order; null when none is free.
 */
export function freest<S extends Slots>(candidates: readonly S[], replicas: readonly S[], tieBreak: number): S | null {
  let best: S | null = null;
  let bestFree = 0;
  let bestOrder = Infinity;
  for (const replica of candidates) {
    if (replica.drained) continue;
    const free = replica.limit - replica.inFlight;
    const order = (replicas.indexOf(replica) + tieBreak) % replicas.length;
    if (free > bestFree || (free === bestFree && free > 0 && order < bestOrder)) [best, bestFree, bestOrder] = [replica, free, order];
  }
  return best;
}

/**
 * Whether some of `replicas` is measured slower than the fastest (routing.ts isSlower): then held calls wait by
 * their chain alone (held-calls.ts withoutSlack). The dispatcher and the plan's server both ask it.
 */
export function withSlowerReplica<S extends Slots>(router: Router<S>, replicas: readonly S[]): boolean {
  const isSlower = router.isSlower;
  return isSlower !== undefined && replicas.length > 1 && replicas.some((replica) => isSlower(replica, replicas));
}

/**
 * What a replica slower than the pool's fastest (routing.ts isSlower) does
 * with its free slot: take the held call ranked last, which has the most
 * slack (not one whose last attempt failed there); or stay idle ('idle')
 * while the problems cost differently and a faster replica has calls that
 * will free a slot (held-calls.ts slowReplicaWaits). Null: the next call
 * goes, being the one ranked last. The dispatcher and the plan's server
 * (src/plan/scheduled-server.ts) both ask it.
 */
export function slowerReplicaPick<S extends Slots, T extends Held & RoutedCall<S> & { settled?: boolean }>(router: Router<S>, held: HeldCalls<T>, next: T, replica: S, replicas: readonly S[]): T | null | 'idle' {
  const found = held.last((call) => call.settled !== true && call.avoid !== replica);
  const last = found === undefined || found === next ? null : found;
  const fasterBusy = replicas.some((other) => !other.drained && other.inFlight > 0 && router.isSlower?.(other, replicas) === false);
  return fasterBusy && slowReplicaWaits(last ?? next, next) ? 'idle' : last;
}

/** The plainest router: the freest replica. */
function freestRouter<S extends Slots>(): Router<S> {
  return { choose: (replicas, call) => freest(replicas, replicas, call.tieBreak), sent: () => {} };
}

/** Creates a dispatcher with `concurrency` slots for the whole run; calls go to the replica `router` chooses (the freest by default). */
export function createDispatcher<S extends Slots>(concurrency: number, order: DispatchOrder = 'rank', router: Router<S> = freestRouter()): Dispatcher<S> {
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new TypeError(`concurrency must be a positive integer, got ${concurrency}`);
  return new RunDispatcher<S>(concurrency, order, router);
}

/** The calls held for one pool, and how many of them are live (aborted ones stay in the heap until they surface). */
interface Line<S> {
  calls: HeldCalls<Ticket<S>>;
  waiting: number;
}

/** Under `fifo` every call has the same rank, so the sequence alone decides. */
const FLAT: CallRank = { grading: false, remaining: 0 };

/** The slots of one run and the lines of calls that wait for them. */
class RunDispatcher<S extends Slots> implements Dispatcher<S> {
  private readonly lines = new Map<string, Line<S>>();
  /** Slots taken in the run. */
  private taken = 0;
  /** Live calls held, in all lines. */
  private holding = 0;
  /** Set once the gateway drains: what every call admitted from then on is rejected with. */
  private refusal: { reason: unknown } | null = null;
  /** Each held call by the rank its run gave it, so that a new slack finds it in its line. */
  private readonly heldByRank = new WeakMap<CallRank, { ticket: Ticket<S>; line: Line<S> }>();

  constructor(
    readonly concurrency: number,
    private readonly order: DispatchOrder,
    private readonly router: Router<S>,
  ) {}

  get inFlight(): number {
    return this.taken;
  }

  get held(): number {
    return this.holding;
  }

  heldFor(pool: string): number {
    return this.lines.get(pool)?.waiting ?? 0;
  }

  admit(call: Admission<S>, signal?: AbortSignal): Promise<S> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.refusal !== null) return Promise.reject(this.refusal.reason);
    const line = this.lines.get(call.pool);
    if (this.taken < this.concurrency && (line === undefined || line.waiting === 0)) {
      const replica = this.router.choose(call.replicas, call);
      if (replica !== null) {
        this.router.sent(replica, call);
        replica.inFlight++;
        this.taken++;
        return Promise.resolve(replica);
      }
    }
    const rank = this.order !== 'rank' ? FLAT : withSlowerReplica(this.router, call.replicas) ? withoutSlack(call.rank) : call.rank;
    return new Promise<S>((resolve, reject) => {
      const ticket = createTicket<S>({
        call,
        rank,
        settle: { resolve, reject },
        signal,
        onAbort: () => {
          this.holding--;
          const own = this.lines.get(call.pool);
          if (own === undefined) return;
          own.waiting--;
          own.calls.remove(ticket);
        },
      });
      let own = this.lines.get(call.pool);
      if (own === undefined) this.lines.set(call.pool, (own = { calls: new HeldCalls(), waiting: 0 }));
      own.calls.push(ticket);
      // Only a ticket that waits by its run's own rank moves with its slack (not FLAT, shared by all under `fifo`, nor a copy without slack).
      if (rank === call.rank) this.heldByRank.set(call.rank, { ticket, line: own });
      own.waiting++;
      this.holding++;
      // A replica may have room the last pump did not see (a limit that rose since).
      this.pump();
    });
  }

  release(replica: S): void {
    replica.inFlight--;
    this.taken--;
    this.pump();
  }

  pump(): void {
    // Lines whose only replicas with room are slower ones, left idle for this pump (slowerReplicaPick).
    const idle = new Set<Line<S>>();
    while (this.taken < this.concurrency) {
      let chosen: { ticket: Ticket<S>; replica: S; line: Line<S> } | null = null;
      for (const [pool, line] of this.lines) {
        if (idle.has(line)) continue;
        const ticket = head(line);
        if (ticket === undefined) {
          this.lines.delete(pool);
          continue;
        }
        const replica = this.router.choose(ticket.replicas, ticket);
        if (replica !== null && (chosen === null || compareHeld(ticket, chosen.ticket) < 0)) chosen = { ticket, replica, line };
      }
      if (chosen === null) return;
      const { ticket, replica, line } = chosen;
      const instead = this.router.isSlower?.(replica, ticket.replicas) === true ? slowerReplicaPick(this.router, line.calls, ticket, replica, ticket.replicas) : this.prefixFirst(chosen);
      if (instead === 'idle') {
        idle.add(line);
        continue;
      }
      if (instead === null) line.calls.pop();
      else line.calls.remove(instead);
      line.waiting--;
      this.holding--;
      this.send(instead ?? ticket, replica);
    }
  }

  /**
   * When the next call's prompt is most likely cached on another replica
   * than the one with room (routing.ts waitsForHolder), the first call
   * further down the line (up to PREFIX_LOOKAHEAD) that it holds, or that no replica
   * holds, which then goes first; the next call waits for its holder to free a
   * slot. When every replica is full, slots free on one replica at a time,
   * and a candidate's eight verifications would otherwise each take whichever
   * replica freed one: measured on four replicas, they were spread over three.
   * Null when the next call should go (nothing in the lookahead fits).
   */
  private prefixFirst({ ticket, replica, line }: { ticket: Ticket<S>; replica: S; line: Line<S> }): Ticket<S> | null {
    const elsewhere = this.router.cachedElsewhere;
    const holder = elsewhere?.(replica, ticket, ticket.replicas) ?? null;
    // A holder with room was weighed by the router (routing.ts), which chose this replica: the call goes here.
    if (elsewhere === undefined || holder === null || holder.limit - holder.inFlight > 0) return null;
    for (const call of line.calls.leading(PREFIX_LOOKAHEAD)) if (call !== ticket && !call.settled && call.avoid !== replica && elsewhere(replica, call, call.replicas) === null) return call;
    return null;
  }

  rejectPool(pool: string, reason: unknown): void {
    const line = this.lines.get(pool);
    if (!line) return;
    this.lines.delete(pool);
    for (let ticket = line.calls.pop(); ticket !== undefined; ticket = line.calls.pop()) {
      if (ticket.settled) continue;
      ticket.settled = true;
      this.holding--;
      ticket.reject(reason);
    }
  }

  refuse(reason: unknown): void {
    this.refusal = { reason };
    for (const pool of [...this.lines.keys()]) this.rejectPool(pool, reason);
  }

  reslack(changes: readonly RankChange[]): void {
    for (const { rank, slack } of changes) {
      const held = this.heldByRank.get(rank);
      // Sent, aborted or never held: no line to move it in (a ticket not settled is in its line's heap).
      if (held === undefined || held.ticket.settled) rank.slack = slack;
      else held.line.calls.reslack(held.ticket, slack);
    }
  }

  private send(ticket: Ticket<S>, replica: S): void {
    ticket.settled = true;
    this.router.sent(replica, ticket);
    replica.inFlight++;
    this.taken++;
    ticket.resolve(replica);
  }
}

/** The first live call of a line, dropping the aborted ones above it. */
function head<S>(line: Line<S>): Ticket<S> | undefined {
  let top = line.calls.peek();
  while (top?.settled) {
    line.calls.pop();
    top = line.calls.peek();
  }
  return top;
}
