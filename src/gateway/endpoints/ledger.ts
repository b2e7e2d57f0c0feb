/**
 * Where a call's counts go. The gateway keeps one ledger of every call it
 * makes (its counters, and each endpoint's own calls, errors and prefix
 * hits); runs that share it (a table's methods) each keep one more, of their
 * own calls only, so that each run's figures are its own. A call counts into
 * its tally: the gateway's ledger, and its run's when it has one.
 */
import { createGatewayCounters, noteReply, type EndpointCounts, type GatewayCounters } from './gateway-stats.ts';
import type { EndpointState } from './endpoint-state.ts';
import type { CompletionRequest } from '../reply/completion.ts';
import type { Reply } from '../reply/reply.ts';

/** One ledger: its counters, and its counts of each endpoint. */
export interface Ledger {
  counters: GatewayCounters;
  endpoint(state: EndpointState): EndpointCounts;
}

/** The gateway's own ledger: an endpoint's counts are those its state keeps. */
export function gatewayLedger(counters: GatewayCounters): Ledger {
  return { counters, endpoint: (state) => state };
}

/** A run's ledger, at zero: its counts of an endpoint start when the run's first call reaches it. */
export function runLedger(): Ledger {
  const endpoints = new Map<EndpointState, EndpointCounts>();
  return {
    counters: createGatewayCounters(),
    endpoint: (state) => {
      let counts = endpoints.get(state);
      if (counts === undefined) endpoints.set(state, (counts = { calls: 0, errors: 0, prefixHits: 0 }));
      return counts;
    },
  };
}

/** What a call counts, each into every ledger of its tally. */
export interface Tally {
  /** An attempt answered on `state`, with `reply`; `prefixHit` when the router sent it where its prompt's prefix was (routing.ts). */
  answered(state: EndpointState, request: CompletionRequest, reply: Reply, prefixHit: boolean): void;
  /** An attempt failed on `state`. */
  attemptFailed(state: EndpointState): void;
  /** The call failed for good. */
  failed(): void;
  /** The call is retried after a failure of this cause. */
  retried(cause: string): void;
  /** Characters of text streamed. */
  streamed(chars: number): void;
  /** A streamed attempt's time to its first token and its generation time. */
  timed(firstTokenMs: number, generationMs: number): void;
}

/** The tally of a call: the gateway's ledger, and the ledger of the call's run when it has one. */
export function tallyOf(gateway: Ledger, run: Ledger | null): Tally {
  const ledgers = run === null ? [gateway] : [gateway, run];
  const each = (count: (ledger: Ledger) => void) => {
    for (const ledger of ledgers) count(ledger);
  };
  return {
    answered: (state, request, reply, prefixHit) =>
      each((ledger) => {
        const counts = ledger.endpoint(state);
        counts.calls++;
        if (prefixHit) counts.prefixHits++;
        noteReply(ledger.counters, request, reply);
      }),
    attemptFailed: (state) => each((ledger) => ledger.endpoint(state).errors++),
    failed: () => each((ledger) => ledger.counters.failures++),
    retried: (cause) =>
      each(({ counters }) => {
        counters.retries++;
        counters.retriesByCause[cause] = (counters.retriesByCause[cause] ?? 0) + 1;
      }),
    streamed: (chars) => each((ledger) => (ledger.counters.streamedChars += chars)),
    timed: (firstTokenMs, generationMs) =>
      each(({ counters }) => {
        counters.firstTokenMs.add(firstTokenMs);
        counters.generationMs.add(generationMs);
      }),
  };
}
