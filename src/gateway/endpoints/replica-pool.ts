/**
 * The endpoints the gateway has seen, and the health of each: the replicas
 * an attempt may go to, a replica drained after failing attempts in a row and
 * used again once it answers (replica-return.ts), and an endpoint or a whole
 * pool that stays down, which stops the run.
 */
import { UserError } from '../../kernel/errors.ts';
import { CallFailedError } from '../request/call-failed.ts';
import { createEndpointState, type EndpointSettings, type EndpointState } from './endpoint-state.ts';
import { readLoad } from './load-reading.ts';
import { createReturnWatches } from './replica-return.ts';
import { createPoolOutages } from './pool-outages.ts';
import { SLOW_START_CAP } from '../load/throughput-knee.ts';
import type { CompletionRequest } from '../reply/completion.ts';
import type { Dispatcher } from '../dispatch/dispatcher.ts';
import type { RetryEvent } from './gateway-options.ts';
import type { HttpTransport } from '../request/http-transport.ts';
import { backoffMs, saysOverloaded, type BackoffOptions } from '../request/retry.ts';
import { throughProxy } from '../request/proxy/proxy-env.ts';

/** What the pool works with. */
export interface ReplicaPoolContext {
  dispatcher: Dispatcher<EndpointState>;
  transport: HttpTransport;
  settings: EndpointSettings;
  /** Calls in a row that may fail for good on an endpoint, and attempts on a replica of a pool. */
  downAfter: number;
  /** An error as the user reads it, keys redacted. */
  describe: (error: unknown) => string;
  onRetry?: (event: RetryEvent) => void;
  /** The retries' backoff, which also paces the watch of a drained replica. */
  backoff: BackoffOptions;
  /** How long the calls of a pool whose every replica is drained wait for one to answer again before the pool stops. */
  outageGraceMs: number;
}

/** The endpoints and their health. */
export interface ReplicaPool {
  /** Every endpoint seen, by base URL. */
  readonly endpoints: Map<string, EndpointState>;
  /** Rejects with a UserError (TMAS_ENDPOINT_DOWN) once an endpoint or a pool is down; never resolves. */
  readonly down: Promise<never>;
  /**
   * The replicas an attempt may go to (the dispatcher picks the freest when
   * it is sent); without replicas, the endpoint itself. Throws once the
   * endpoint, or every replica of the pool, is down.
   */
  replicasOf(request: CompletionRequest, attempts: number): { pool: string; replicas: EndpointState[] };
  /** Counts a failed attempt on a replica of a pool; drains it after `downAfter` in a row, and stops the pool when none is left. */
  replicaFailed(state: EndpointState, request: CompletionRequest, error: unknown): void;
  /**
   * Drains a replica of a pool at once (it serves another model than its
   * siblings), as its last failed attempt would; it is let back only once its
   * probe's reply names a model `refuses` does not.
   */
  drainNow(state: EndpointState, request: CompletionRequest, error: unknown, refuses: (named: string | null) => boolean): void;
  /** A replica that did not answer at start: one trial call at a time until one succeeds (Gateway.suspect). */
  suspect(baseUrl: string, endpoint: CompletionRequest['endpoint']): void;
  /** Whether the pool of `request` has a replica not drained besides `state`, where its retry goes without waiting. */
  hasOtherLive(state: EndpointState, request: CompletionRequest): boolean;
  /** Counts a call that failed for good on an endpoint; after `downAfter` in a row it is down. */
  failedForGood(state: EndpointState, request: CompletionRequest, error: unknown, attempts: number, transient: boolean): void;
  /** Stops watching drained replicas. */
  close(): void;
}

/** Creates the pool of endpoints. */
export function createReplicaPool(context: ReplicaPoolContext): ReplicaPool {
  const { dispatcher, describe, downAfter } = context;
  const { endpoints, stateOf } = endpointStates(context);
  /** Pools that stopped because every replica was drained, by pool (its URLs joined). */
  const downPools = new Map<string, UserError>();
  const { down, declareDown } = downSignal();
  const watches = createReturnWatches(context.transport, context.backoff);
  const otherModelReplicas = new OtherModelReplicas();
  const outages = createPoolOutages(context.outageGraceMs, (pool, error) => {
    downPools.set(pool, error);
    stopPool(pool, error);
  });

  /** Gives up the calls held for a pool that is down: they would never be sent, and the run is told. */
  function stopPool(pool: string, error: UserError): void {
    dispatcher.rejectPool(pool, new CallFailedError('TMAS_ENDPOINT_DOWN', error.message, 0, { cause: error }));
    declareDown(error);
  }

  return {
    endpoints,
    down,
    replicasOf(request, attempts) {
      const urls = request.endpoint.replicas ?? [request.endpoint.baseUrl];
      const replicas = urls.map((url) => stateOf(url, request.endpoint));
      const pool = urls.join(',');
      const stopped = urls.length === 1 ? replicas[0]?.down : downPools.get(pool);
      if (stopped) throw new CallFailedError('TMAS_ENDPOINT_DOWN', stopped.message, attempts - 1, { cause: stopped });
      return { pool, replicas };
    },
    replicaFailed(state, request, error) {
      const urls = request.endpoint.replicas;
      if (!urls || urls.length < 2 || state.drained || !drainsAfter(state, error, context.backoff, downAfter)) return;
      state.drained = true;
      state.drainsInARow++;
      // Its attempts that failed since one last succeeded: a replica on trial (unanswered at start, or back) is drained by one, which its count of 3 misstated.
      const failed = state.failuresInARow;
      context.onRetry?.({ endpoint: state.url, attempt: 0, error: `replica drained after ${failed} failed attempt${failed === 1 ? '' : 's'} in a row: ${describe(error)}`, waitMs: 0 });
      const pool = urls.join(',');
      // Its held calls go to the other replicas, until it answers again.
      const { model } = request.endpoint;
      const back = () => {
        returned(state, downAfter);
        outages.end(pool);
        context.onRetry?.({ endpoint: state.url, attempt: 0, error: 'replica answers again: it takes one call at a time until one succeeds', waitMs: 0 });
        dispatcher.pump();
      };
      const otherModels = (served: string[]) =>
        context.onRetry?.({ endpoint: state.url, attempt: 0, error: `replica answers, but serves ${served.slice(0, 4).join(', ')}${served.length > 4 ? ', …' : ''}, not ${model}: it takes no call until it serves ${model}`, waitMs: 0 });
      watches.watch(state.url, { apiKey: state.apiKey, model, ...otherModelReplicas.probing(state.url) }, state.drainsInARow, back, otherModels);
      // Every replica drained: the calls wait, as long as one endpoint's retries would, for one to answer again.
      if (urls.every((url) => stateOf(url, request.endpoint).drained)) {
        const seconds = Math.round(context.outageGraceMs / 1000);
        context.onRetry?.({ endpoint: pool, attempt: 0, error: `every replica of the pool is drained: its calls wait up to ${seconds} s for one to answer again, then the run stops`, waitMs: 0 });
        outages.begin(pool, () => poolDownError(pool, request, describe, error));
      }
      dispatcher.pump();
    },
    drainNow(state, request, error, refuses) {
      otherModelReplicas.mark(state, refuses, downAfter);
      this.replicaFailed(state, request, error);
    },
    suspect: (baseUrl, endpoint) => onProbation(stateOf(baseUrl, endpoint), downAfter),
    hasOtherLive(state, request) {
      return (request.endpoint.replicas ?? []).some((url) => url !== state.url && !stateOf(url, request.endpoint).drained);
    },
    failedForGood(state, request, error, attempts, transient) {
      // A replica of a pool is drained by its failed attempts, and the pool stops once every replica stays drained.
      if (!transient || state.down || (request.endpoint.replicas?.length ?? 0) > 1) return;
      state.consecutiveFailures++;
      if (state.consecutiveFailures < downAfter) return;
      state.down = endpointDownError(state, request, attempts, describe, error);
      stopPool(state.pool, state.down);
    },
    close: () => {
      watches.close();
      outages.close();
    },
  };
}

/** Every endpoint seen, by base URL, and the state of one, made when first seen. */
function endpointStates(context: ReplicaPoolContext): { endpoints: Map<string, EndpointState>; stateOf: (baseUrl: string, endpoint: CompletionRequest['endpoint']) => EndpointState } {
  const endpoints = new Map<string, EndpointState>();
  const stateOf = (baseUrl: string, endpoint: CompletionRequest['endpoint']): EndpointState => {
    let state = endpoints.get(baseUrl);
    if (!state) {
      const pool = (endpoint.replicas ?? [baseUrl]).join(',');
      state = createEndpointState(baseUrl, endpoint, context.settings, () => ceilingOf(endpoints.values(), pool, baseUrl));
      endpoints.set(baseUrl, state);
      // Read at once: the knee's slow start holds calls until a first reading says whether the server counts its tokens.
      if (context.settings.serverQueue === 'short') void readLoad(state, context.transport).then(() => context.dispatcher.pump());
    }
    return state;
  };
  return { endpoints, stateOf };
}

/** A promise that rejects once the run must stop, and what rejects it; handled, so that a run that never races it gets no unhandled rejection. */
function downSignal(): { down: Promise<never>; declareDown: (error: UserError) => void } {
  let declareDown: (error: UserError) => void = () => {};
  const down = new Promise<never>((_, reject) => {
    declareDown = reject;
  });
  down.catch(() => {});
  return { down, declareDown };
}

/** Replicas drained for answering with another model than their siblings, and whether a model a probe names is still another (pool-reply-models.ts). */
class OtherModelReplicas extends Map<string, (named: string | null) => boolean> {
  /** Marks `state` as serving another model: one failed attempt short of draining, which the caller's then drains. */
  mark(state: EndpointState, refuses: (named: string | null) => boolean, downAfter: number): void {
    this.set(state.url, refuses);
    state.failedAttempts = Math.max(state.failedAttempts, downAfter - 1);
  }

  /** What the probe of the drained replica `url` checks its reply's model with (replica-return.ts ProbeAccess). */
  probing(url: string): { refuses?: (named: string | null) => boolean } {
    const refuses = this.get(url);
    return refuses === undefined ? {} : { refuses };
  }
}

/**
 * Counts a failed attempt on a replica of a pool; true when it is the one
 * that drains it (`downAfter` in a row). Its next trial call waits out the
 * backoff of this failure, or the Retry-After it asked for (routing.ts). An
 * overload lowers its limit and makes it take one call at a time until one
 * succeeds, but never drains it: a busy server is not a dead one.
 */
function drainsAfter(state: EndpointState, error: unknown, backoff: BackoffOptions, downAfter: number): boolean {
  state.trialAt = performance.now() + backoffMs(++state.failuresInARow, error, backoff);
  if (saysOverloaded(error)) {
    state.failedAttempts = Math.max(1, state.failedAttempts);
    return false;
  }
  return ++state.failedAttempts >= downAfter;
}

/** One failure short of draining, its trial due now: a replica not yet known to answer takes one call at a time until one succeeds (routing.ts). */
function onProbation(state: EndpointState, downAfter: number): void {
  state.failedAttempts = Math.max(0, downAfter - 1);
  state.trialAt = 0;
}

/**
 * A drained replica answers again (a pool still running: a drained pool stops
 * the run): it takes calls again, one at a time until one succeeds (its failed
 * attempts one short of draining it): a server that answers `GET /models` but
 * hangs or fails its completions costs one call, not a slot's worth.
 */
function returned(state: EndpointState, downAfter: number): void {
  state.drained = false;
  onProbation(state, downAfter);
  state.consecutiveFailures = 0;
  state.returns++;
  // A server that went away lost its cache, and may come back as another (a pod rescheduled on other
  // hardware): its pace and knee are measured afresh, so that routing neither avoids it nor overloads
  // it for what the server before it measured. The knee's pace alone was: the pace of its readings and
  // calls, which routing reads until the knee has one (or always, without a knee), was the old server's.
  state.prefixes.forget();
  state.poll.forget();
  if (state.knee.active) state.knee.restart(SLOW_START_CAP);
}

/**
 * The largest cap that the other live replicas of `pool` found at their
 * knee: a replica still looking for its own starts no higher (throughput-knee.ts).
 * Null while none has found one.
 */
function ceilingOf(states: Iterable<EndpointState>, pool: string, self: string): number | null {
  let ceiling: number | null = null;
  for (const state of states) {
    if (state.pool !== pool || state.url === self || state.drained || state.knee.knee === null) continue;
    const cap = state.knee.cap;
    if (Number.isFinite(cap)) ceiling = Math.max(ceiling ?? 0, cap);
  }
  return ceiling;
}

/**
 * The proxies a pool's replicas are called through, as its message says them: ` called through the
 * proxy http://proxy:3128 (from HTTP_PROXY)` when every replica goes through the same one, each
 * replica's way when they differ (NO_PROXY leaving some out, or http and https replicas), nothing
 * when every one is called directly. What to check then names the proxies too.
 */
function poolRoutes(urls: readonly string[]): { through: string; check: string } {
  const routes = urls.map((url) => throughProxy(url).replace(/^ through/, ' called through'));
  if (routes.every((route) => route === '')) return { through: '', check: 'the servers' };
  const proxies = new Set(routes.filter((route) => route !== '')).size > 1 ? 'the proxies' : 'the proxy';
  const check = `the servers and ${proxies} (if the servers are reached without ${proxies === 'the proxy' ? 'it' : 'them'}, add their hosts to NO_PROXY)`;
  if (routes.every((route) => route === routes[0])) return { through: routes[0] ?? '', check };
  return { through: ` (${urls.map((url, at) => `${url}${routes[at] === '' ? ' called directly' : routes[at]}`).join('; ')})`, check };
}

/** Why a pool stopped: every replica was drained. A proxy its replicas go through is named, as endpointDownError names one endpoint's. */
function poolDownError(pool: string, request: CompletionRequest, describe: (error: unknown) => string, error: unknown): UserError {
  const { through, check } = poolRoutes(request.endpoint.replicas ?? [pool]);
  return new UserError(
    'TMAS_ENDPOINT_DOWN',
    `Every replica of the model endpoint pool ${pool} (${request.endpoint.model})${through} stays down; the last error was ${describe(error)}. The run stopped; ` +
      `every completed call is kept in the store. Check ${check}, then resume the run with --resume on its output directory.`,
    { cause: error },
  );
}

/** Why an endpoint stopped: `downAfter` calls in a row failed for good on it. */
function endpointDownError(state: EndpointState, request: CompletionRequest, attempts: number, describe: (error: unknown) => string, error: unknown): UserError {
  // A proxy that hangs or drops calls fails them as a dead server would: the message names it, as the start check's does.
  const through = throughProxy(request.endpoint.baseUrl);
  const check = through === '' ? 'the server (or lower --concurrency)' : 'the server and the proxy (or lower --concurrency; if the server is reached without the proxy, add its host to NO_PROXY)';
  return new UserError(
    'TMAS_ENDPOINT_DOWN',
    `The model endpoint ${request.endpoint.baseUrl} (${request.endpoint.model})${through.replace(/^ through/, ' called through')} stays down: ${state.consecutiveFailures} calls in a row ` +
      `failed after ${attempts} attempts each; the last error was ${describe(error)}. The run stopped; every completed call is kept ` +
      `in the store. Check ${check}, then resume the run with --resume on its output directory.`,
    { cause: error },
  );
}
