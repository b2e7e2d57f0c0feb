/**
 * A call the dispatcher holds (dispatcher.ts): its place in the line (rank
 * and arrival), the replicas it may go to, and the promise its caller awaits,
 * settled once: sent, rejected with its pool, or aborted by its signal.
 */
import type { CallRank } from '../reply/completion.ts';
import type { RoutedCall } from './routed-call.ts';
import type { Held } from './held-calls.ts';

/** A held call. */
export interface Ticket<S> extends Held, RoutedCall<S> {
  readonly replicas: readonly S[];
  resolve(replica: S): void;
  reject(reason: unknown): void;
  /** Aborted while held: it stays in the heap until it surfaces, and is then dropped. */
  settled: boolean;
}

/** What a ticket is made from. */
export interface TicketOptions<S> {
  call: RoutedCall<S> & { replicas: readonly S[]; sequence: number };
  /** The rank it waits by (the dispatcher's order decides it). */
  rank: CallRank;
  /** The caller's promise. */
  settle: { resolve(replica: S): void; reject(reason: unknown): void };
  signal: AbortSignal | undefined;
  /** Called when the signal aborts the ticket while it is held, before the caller's promise rejects. */
  onAbort(): void;
}

/** A ticket that settles its caller's promise once, and stops listening to its signal when it does. */
export function createTicket<S>({ call, rank, settle, signal, onAbort }: TicketOptions<S>): Ticket<S> {
  const abort = () => {
    if (ticket.settled) return;
    ticket.settled = true;
    onAbort();
    settle.reject(signal?.reason);
  };
  const ticket: Ticket<S> = {
    rank,
    sequence: call.sequence,
    replicas: call.replicas,
    tieBreak: call.tieBreak,
    prefix: call.prefix ?? null,
    avoid: call.avoid ?? null,
    onPrefixHit: call.onPrefixHit ?? null,
    settled: false,
    resolve: (replica) => {
      signal?.removeEventListener('abort', abort);
      settle.resolve(replica);
    },
    reject: (reason) => {
      signal?.removeEventListener('abort', abort);
      settle.reject(reason);
    },
  };
  signal?.addEventListener('abort', abort, { once: true });
  return ticket;
}
