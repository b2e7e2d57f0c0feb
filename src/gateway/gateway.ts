/**
 * The LLM gateway: the only place that talks to endpoints. Every call waits
 * for a slot under the run's in-flight limit and under its server's own
 * limit, which follows the server's load (dispatcher.ts, load-limit.ts); held
 * calls are sent by rank. A call is retried with backoff on transient
 * failures, and reports its usage, attempts and latency.
 *
 * Its parts: the endpoints and their health (replica-pool.ts, endpoint-state.ts,
 * replica-return.ts), which replica of a pool a call goes to (routing.ts, with
 * prefix-keys.ts and prefix-memory.ts), one call and its retries (call.ts), one attempt (attempt.ts), the servers'
 * load (load-reading.ts), what streams say of their tokens (stream-usage.ts),
 * the counters (gateway-stats.ts), and the ledgers they are kept in: the
 * gateway's, and one per run of those that share it (ledger.ts, forRun).
 */
import { setMaxListeners } from 'node:events';
import { createDispatcher } from './dispatch/dispatcher.ts';
import { createHttpTransport } from './request/http-transport.ts';
import { impliedBaseUrl, type Redirect } from './request/redirects.ts';
import { createClients } from './attempt.ts';
import { completeCall, type CallContext } from './call.ts';
import { tellOnce } from './told-once.ts';
import { CallDrained, redactKeys } from './request/call-failed.ts';
import { createGatewayCounters, statsOf, type GatewayStats } from './endpoints/gateway-stats.ts';
import { gatewayLedger, runLedger, tallyOf } from './endpoints/ledger.ts';
import { DEFAULT_BACKOFF, DEFAULT_DOWN_AFTER, DEFAULT_LOAD_POLL_MS, type GatewayOptions } from './endpoints/gateway-options.ts';
import { startLoadPoller } from './endpoints/load-reading.ts';
import { createPoolReplyModels } from './endpoints/pool-reply-models.ts';
import { createReplicaPool } from './endpoints/replica-pool.ts';
import { describeFailure, retryBudgetMs } from './request/retry.ts';
import { createRouter } from './dispatch/routing.ts';
import type { EndpointSettings, EndpointState } from './endpoints/endpoint-state.ts';
import type { Completion, CompletionRequest, RankChange } from './reply/completion.ts';

export type { Completion, CompletionRequest, Endpoint, Sampling } from './reply/completion.ts';
export type { RequestDialect } from './request/request-body.ts';
export type { DispatchOrder } from './dispatch/dispatcher.ts';
export type { Routing } from './dispatch/routing.ts';
export type { BatchCap, GatewayOptions, RetryEvent, ServerQueue } from './endpoints/gateway-options.ts';
export type { EndpointStats, GatewayStats } from './endpoints/gateway-stats.ts';
export { DEFAULT_BACKOFF, DEFAULT_LOAD_POLL_MS } from './endpoints/gateway-options.ts';
export { gatewaySummary } from './endpoints/gateway-stats.ts';
export { CallDrained, CallFailedError, redactKeys } from './request/call-failed.ts';
export { outOfBounds, replyLimits, type ReplyLimits } from './reply/completion-bounds.ts';

/** The gateway as the runtime sees it. */
export interface Gateway {
  complete(request: CompletionRequest, options?: { signal?: AbortSignal }): Promise<Completion>;
  readonly stats: GatewayStats;
  /**
   * Rejects with a UserError (TMAS_ENDPOINT_DOWN) naming the endpoint and its
   * last error once an endpoint is down; never resolves. Race the run against it.
   */
  readonly down: Promise<never>;
  close(): void;
  /**
   * Sends no call from now on (the first Ctrl-C): held calls, calls waiting
   * to be retried and calls whose attempt fails reject with CallDrained; the
   * attempts in flight go on to their end. The gateway's, whichever view of
   * it is asked: the runs that share it stop together.
   */
  drain(): void;
  /**
   * A replica of `endpoint`'s pool that did not answer at start: it takes one
   * trial call at a time until one succeeds, and is drained if it fails
   * (rather than take a slot's worth of calls that may each wait out the timeout).
   */
  suspect(baseUrl: string, endpoint: CompletionRequest['endpoint']): void;
  /**
   * A view of this gateway for one of several runs that share it (a table's
   * methods): its calls go through this gateway, and its stats count that
   * run's calls alone (ledger.ts); closing it closes nothing.
   */
  forRun(): Gateway;
  /**
   * New slacks for calls of a run (CallRank slack), once its iteration's
   * least advanced call ended or a call came at a stage behind them all: each
   * held call takes its place in the line by its new one (call-ranks.ts
   * ended and rankOf).
   */
  reslack(changes: readonly RankChange[]): void;
}

/** Creates a gateway. */
export function createGateway(options: GatewayOptions): Gateway {
  const routing = options.routing ?? 'prefix';
  const dispatcher = createDispatcher<EndpointState>(options.concurrency, options.dispatchOrder ?? 'rank', createRouter(routing));
  const serverQueue = options.serverQueue ?? 'short';
  let sequence = 0;
  const toldOnce = new Set<string>();
  // A redirect followed is told once per server and the base URL it implies: each call goes out twice through it.
  const onRedirect = (redirect: Redirect) =>
    tellOnce(toldOnce, `redirect\n${new URL(redirect.from).origin}\n${impliedBaseUrl(redirect.to)}`, () => options.onRedirected?.(redirect));
  const transport = createHttpTransport({ onRedirect });
  const keys = new Set<string>();
  const stream = options.stream ?? true;
  const maxPollMs = options.loadPollMs ?? DEFAULT_LOAD_POLL_MS;
  const ledger = gatewayLedger(createGatewayCounters());
  const describe = (error: unknown) => redactKeys(describeFailure(error), keys);
  const draining = new AbortController();
  // Every call waiting out a backoff listens to it: a replica lost with 11 calls under way made Node warn of a leak on stderr.
  setMaxListeners(0, draining.signal);
  const drain = () => {
    if (draining.signal.aborted) return;
    draining.abort();
    dispatcher.refuse(new CallDrained());
  };
  const { concurrency, replicaMaxInFlight, batchCap, dialect } = options;
  const settings: EndpointSettings = { concurrency, replicaMaxInFlight, serverQueue, stream, batchCap, dialect, maxPollMs, ...(options.onMetricsUnused === undefined ? {} : { onMetricsUnused: options.onMetricsUnused }), ...(options.onMetricsFound === undefined ? {} : { onMetricsFound: options.onMetricsFound }) };
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const outageGraceMs = retryBudgetMs(options.maxRetries, backoff);
  const pool = createReplicaPool({ dispatcher, transport, settings, downAfter: options.downAfter ?? DEFAULT_DOWN_AFTER, describe, onRetry: options.onRetry, backoff, outageGraceMs });
  const context: CallContext = {
    options,
    stream,
    backoff,
    routing,
    dispatcher,
    pool,
    attempt: { options, stream, clientFor: createClients(transport, options.timeoutMs, keys), toldOnce },
    describe,
    nextSequence: () => sequence++,
    toldOnce,
    replyModels: createPoolReplyModels(),
    drain: draining.signal,
  };
  const poller = serverQueue === 'short' ? startLoadPoller(pool.endpoints, dispatcher, transport, maxPollMs) : null;
  const gatewayTally = tallyOf(ledger, null);
  const reslack = (changes: readonly RankChange[]) => dispatcher.reslack(changes);
  const forRun = (): Gateway => {
    const own = runLedger();
    const tally = tallyOf(ledger, own);
    return {
      complete: (request, { signal } = {}) => completeCall(context, request, signal, tally),
      get stats() {
        return statsOf(own, pool.endpoints.values(), dispatcher, serverQueue);
      },
      down: pool.down,
      close: () => {},
      drain,
      suspect: pool.suspect,
      forRun,
      reslack,
    };
  };
  return {
    complete: (request, { signal } = {}) => completeCall(context, request, signal, gatewayTally),
    get stats() {
      return statsOf(ledger, pool.endpoints.values(), dispatcher, serverQueue);
    },
    down: pool.down,
    drain,
    suspect: pool.suspect,
    reslack,
    close: () => {
      if (poller !== null) clearInterval(poller);
      pool.close();
      transport.close();
    },
    forRun,
  };
}
