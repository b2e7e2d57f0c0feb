/**
 * The LLM gateway: the only place that talks to endpoints. Every call waits
 * for a slot under the run's in-flight limit and under its server's own
 * limit, which follows the server's load (dispatcher.ts, load-limit.ts); held
 * calls are sent by rank. A call is retried with backoff on transient
 * failures, and reports its usage, attempts and latency.
 */
import OpenAI, { APIError } from 'openai';
import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';
import { TmasError, UserError, type ErrorCode } from '../kernel/errors.ts';
import { createAimdLimit, type AimdLimit } from './aimd.ts';
import { createDispatcher, type DispatchOrder } from './dispatcher.ts';
import { createFirstTokenWatch, type FirstTokenWatch } from './first-token.ts';
import { createLoadLimit, type LoadLimit } from './load-limit.ts';
import { createStreamedText, type StreamedText } from './streamed-text.ts';
import { createThroughputKnee, type ThroughputKnee } from './throughput-knee.ts';
import { createPollPeriod, FASTEST_MS, type PollPeriod } from './poll-period.ts';
import { metricsUrlOf, readServerLoad, type ServerLoad } from './server-load.ts';
import { requestBody, type JsonEncoder, type RequestDialect } from './request-body.ts';
import type { Completion, CompletionRequest, Endpoint } from './completion.ts';
import { boundedBody, readAll, replyByteCap, startWatchdog } from './reply-bounds.ts';
import { createReplyMeter, derivedTotal, overLimit, withinLimit, withinMeteredLimit, type TotalFloor } from './completion-bounds.ts';
import { fromStream, fromWholeReply, type Reply } from './reply.ts';
import { sseEvents } from './sse.ts';
import { fromJsonReply, sortBody } from './json-reply.ts';
import { createHttpTransport, type TransportResponse } from './http-transport.ts';
import { createLatencySample, type LatencySummary } from './latency-sample.ts';
import { rejectsChatDialect, rejectsContinuousUsage } from './dialect.ts';
import { backoffMs, classifyFailure, describeFailure, failureLabel, type BackoffOptions, type FailureKind } from './retry.ts';

export type { Completion, CompletionRequest, Endpoint, Sampling } from './completion.ts';
export type { RequestDialect } from './request-body.ts';
export type { DispatchOrder } from './dispatcher.ts';

/**
 * Where calls wait when the servers are saturated: `short` keeps each
 * server's own queue short (its limit follows its load) and holds the rest
 * in the gateway, ordered by rank; `server` hands every server all it may
 * take under the limits and lets its first-come queue decide (for comparison).
 */
export type ServerQueue = 'short' | 'server';

/**
 * Whether each server's calls are also capped a little above its throughput
 * knee (throughput-knee.ts; with `short` only): `knee` (the default) or
 * `none` (for comparison).
 */
export type BatchCap = 'knee' | 'none';

/** What happened to one failed attempt; the progress display and the metrics count these. */
export interface RetryEvent {
  endpoint: string;
  attempt: number;
  error: string;
  waitMs: number;
}

/** Gateway settings. */
export interface GatewayOptions {
  concurrency: number;
  /** The idle limit: an attempt that receives no byte for this long (headers or body) is given up and retried. */
  timeoutMs: number;
  /** A limit on one attempt's whole duration; when absent or null, one derived from each call's completion limit (completion-bounds.ts). */
  totalTimeoutMs?: number | null;
  /** What the derived total limit is made of; completion-bounds.ts's base and floor rate when absent (tests shorten them). */
  totalFloor?: TotalFloor;
  /** Counts texts with the run's tokenizer (the pool): a reply without usage is counted against its completion limit. Unchecked in tokens when absent. */
  countTokens?: (texts: string[], signal: AbortSignal | undefined) => Promise<number[]>;
  /** Stream completions (SSE); default true. */
  stream?: boolean;
  /** How requests start out on every endpoint; an endpoint that refuses `max_tokens` or sampling fields in a 400 is switched to `openai-reasoning`. Default `chat`. */
  dialect?: RequestDialect;
  /** Told once per endpoint when it is switched to the `openai-reasoning` dialect. */
  onDialect?: (endpoint: string, dialect: RequestDialect, reason: string) => void;
  /** Told once per endpoint when it answers a streamed request with a whole JSON reply (read as such). */
  onUnstreamed?: (endpoint: string) => void;
  /** Retries after the first attempt. */
  maxRetries: number;
  backoff?: BackoffOptions;
  /**
   * Calls in a row on one endpoint that may fail for good (retries exhausted)
   * before the endpoint counts as down and the gateway gives up on it. Default 3.
   */
  downAfter?: number;
  onRetry?: (event: RetryEvent) => void;
  /** The most calls in flight on one replica of a pool (`--replica-max-in-flight`); none when absent. */
  replicaMaxInFlight?: number;
  /** Serialises large request bodies off the main thread (see request-body.ts); on the main thread when absent. */
  encodeJson?: JsonEncoder;
  /** Where calls wait when the servers are saturated; default `short`. */
  serverQueue?: ServerQueue;
  /** How held calls are ordered; default `rank`. */
  dispatchOrder?: DispatchOrder;
  /** Whether each server's calls are capped near its throughput knee (with `short`); default `knee`. */
  batchCap?: BatchCap;
  /** The longest period between two readings of a busy server's load; shorter for a fast server (poll-period.ts). Default 500 ms. */
  loadPollMs?: number;
}

/** The live state of one endpoint (one base URL). */
export interface EndpointStats {
  baseUrl: string;
  /** The adaptive in-flight limit (the server's load, and AIMD after overloads), at most the global `--concurrency`. */
  limit: number;
  /** The batch (sequences) past which the server's throughput stops growing, from its token counter; null until found or without one. */
  knee: number | null;
  /**
   * What the knee is measured from: the server's token counter, the usage our
   * streams carry (a server without the counter), the text they carry (a
   * server whose streams carry no usage either), or nothing (no cap).
   */
  kneeSource: 'server' | 'streams' | 'text' | null;
  inFlight: number;
  /** Calls held in the gateway that may go to it. */
  waiting: number;
  /** The server's load at the last reading, and where it came from; null before one (or with `--server-queue server`). */
  server: { running: number; waiting: number; source: 'metrics' | 'streams' } | null;
  /** Times the limit was halved after a 429 or 503. */
  decreases: number;
  down: boolean;
  /** How requests to it are sent. */
  dialect: RequestDialect;
  /** Attempts it answered, and attempts that failed on it. */
  calls: number;
  errors: number;
  /** A replica of a pool that kept failing and gets no more calls. */
  drained: boolean;
}

/** Counters of the gateway, for progress and metrics.json. */
export interface GatewayStats {
  inFlight: number;
  queued: number;
  /** The global in-flight limit (`--concurrency`). */
  limit: number;
  retries: number;
  /** Retries by what caused them: `429`, `503`, `timeout`, `reset`, `malformed`, … */
  retriesByCause: Record<string, number>;
  failures: number;
  /** Replies that named another model than the one asked for. */
  otherModel: number;
  /** Replies without a usage block (their usage is then estimated with the run's tokenizer). */
  noUsage: number;
  /** Replies whose reasoning came in each dialect (`reasoning_content`, `reasoning`, `think-tags`). */
  reasoningDialects: Record<string, number>;
  /** Characters of text streamed so far, reasoning included: the progress display's rate of generation. */
  streamedChars: number;
  /** Successful attempts' time to first token and generation time (streamed calls only). */
  latency: { firstTokenMs: LatencySummary; generationMs: LatencySummary };
  endpoints: EndpointStats[];
}

/** What metrics.json keeps of the gateway's counters at the end of a run (in-flight counts are 0 by then). */
export function gatewaySummary(stats: GatewayStats) {
  const { retries, retriesByCause, failures, otherModel, noUsage, reasoningDialects, latency, endpoints } = stats;
  return { retries, retriesByCause, failures, otherModel, noUsage, reasoningDialects, latency, endpoints };
}

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
}

/** A call that failed for good, with the last error's classification. */
export class CallFailedError extends TmasError {
  constructor(code: ErrorCode, message: string, readonly attempts: number, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'CallFailedError';
  }
}

/** Thrown inside `complete` when an endpoint was just switched to another dialect. */
class DialectAdopted extends Error {}

/** The code of a call that failed for good, by how its last attempt failed. */
const FAILURE_CODES = {
  transient: 'TMAS_CALL_FAILED',
  'context-length': 'TMAS_CONTEXT_LENGTH',
  auth: 'TMAS_AUTH',
  'not-streamed': 'TMAS_NOT_STREAMED',
  fatal: 'TMAS_CALL_REJECTED',
} as const satisfies Record<Exclude<FailureKind, 'aborted'>, ErrorCode>;

/** The rank of a call that has none: a loop call ahead of every ranked one. */
const FIRST_RANK = { grading: false, remaining: Number.POSITIVE_INFINITY } as const;

/** The retries' backoff when none is given: the first step (`--retry-base-ms`) and the longest wait. */
export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 1000, capMs: 60_000 };
const DEFAULT_DOWN_AFTER = 3;
/** The longest period between two readings of a busy server's load when none is given (`--load-poll-ms`). */
export const DEFAULT_LOAD_POLL_MS = 500;
/** Unanswered `/metrics` readings after which a server counts as having none (its load is then inferred from streams). */
const METRICS_MISSES = 3;
/** How long the slow start holds the calls of a server without a token counter while its streams have not yet shown whether they carry usage. */
const UNCONFIRMED_HOLD_MS = 5_000;

interface EndpointState {
  url: string;
  /** The pool it belongs to (its URLs joined); its own URL without replicas. */
  pool: string;
  apiKey: string;
  /** Calls in flight on it (the dispatcher counts them). */
  inFlight: number;
  readonly limit: number;
  aimd: AimdLimit;
  load: LoadLimit;
  /** The batch past which the server gets no faster in all, read from its token counter or, without one, from our streams. */
  knee: ThroughputKnee;
  /** Whether its `/metrics` have a generation token counter: null until they answer (or fail to). */
  counter: boolean | null;
  /** When its first call came (performance.now() ms). */
  createdAt: number;
  /**
   * Whether its streams are asked for their usage in every chunk, to count the
   * tokens it decodes when its metrics have no counter: asked until a chunk
   * carries it (then counting) or its `/metrics` show the counter (then off).
   * A server that rejects the field or ignores it is asked no more, and the
   * text its streams carry is counted instead (`text`, streamed-text.ts) once
   * finished calls show it steady in characters per token and flowing as it
   * is decoded (a server whose text comes only after a hidden reasoning gets
   * no cap). `tokens` sums what the streams reported while counting.
   */
  streamUsage: { state: 'asked' | 'counting' | 'text' | 'off'; tokens: number };
  /** The text of its streams, counted while `streamUsage` is `text`. */
  text: StreamedText;
  watch: FirstTokenWatch;
  /** How often its load is read, and when next (performance.now() ms). */
  poll: PollPeriod;
  nextReadAt: number;
  /** Whether its `/metrics` are read: unknown until the first readings, then yes or no (inferred from streams). */
  metrics: { state: 'unknown' | 'yes' | 'no'; misses: number; pending: boolean };
  dialect: RequestDialect;
  calls: number;
  errors: number;
  /** Failed attempts in a row (overloads aside): a replica of a pool is drained after `downAfter`. */
  failedAttempts: number;
  drained: boolean;
  /** Calls in a row that failed for good; a success resets it. */
  consecutiveFailures: number;
  down: UserError | null;
}

/** Replaces every API key in a text by `[redacted]`: servers may echo a key in an error message. */
export function redactKeys(text: string, keys: Iterable<string>): string {
  let result = text;
  for (const key of keys) if (key.length >= 4) result = result.split(key).join('[redacted]');
  return result;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Creates a gateway. */
export function createGateway(options: GatewayOptions): Gateway {
  const dispatcher = createDispatcher<EndpointState>(options.concurrency, options.dispatchOrder ?? 'rank');
  const serverQueue = options.serverQueue ?? 'short';
  let sequence = 0;
  const clients = new Map<string, OpenAI>();
  const transport = createHttpTransport();
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const downAfter = options.downAfter ?? DEFAULT_DOWN_AFTER;
  const endpoints = new Map<string, EndpointState>();
  const keys = new Set<string>();
  /** Endpoints that answered a streamed request with a whole JSON reply. */
  const unstreamed = new Set<string>();
  const retriesByCause: Record<string, number> = {};
  const stream = options.stream ?? true;
  const maxPollMs = options.loadPollMs ?? DEFAULT_LOAD_POLL_MS;
  let retries = 0;
  let failures = 0;
  let otherModel = 0;
  let noUsage = 0;
  let streamedChars = 0;
  const reasoningDialects: Record<string, number> = {};
  const firstTokenMs = createLatencySample();
  const generationMs = createLatencySample();
  const onText = (chars: number) => {
    streamedChars += chars;
  };
  let declareDown: (error: UserError) => void = () => {};
  const down = new Promise<never>((_, reject) => {
    declareDown = reject;
  });
  // Handled here so that a run that never races `down` gets no unhandled rejection.
  down.catch(() => {});

  function stateOf(baseUrl: string, endpoint: Endpoint): EndpointState {
    let state = endpoints.get(baseUrl);
    if (!state) {
      const max = Math.min(options.concurrency, options.replicaMaxInFlight ?? options.concurrency);
      const aimd = createAimdLimit(max);
      const load = createLoadLimit(max);
      const poll = createPollPeriod(maxPollMs);
      const knee = createThroughputKnee();
      if (options.batchCap === 'none') knee.disable();
      state = {
        url: baseUrl,
        pool: (endpoint.replicas ?? [baseUrl]).join(','),
        apiKey: endpoint.apiKey,
        inFlight: 0,
        get limit() {
          return serverQueue === 'short' ? Math.min(aimd.limit, load.limit, kneeCapOf(this)) : aimd.limit;
        },
        aimd,
        load,
        knee,
        counter: null,
        createdAt: performance.now(),
        streamUsage: { state: serverQueue === 'short' && stream && options.batchCap !== 'none' ? 'asked' : 'off', tokens: 0 },
        text: createStreamedText(),
        watch: createFirstTokenWatch(),
        poll,
        nextReadAt: performance.now() + poll.ms,
        metrics: { state: 'unknown', misses: 0, pending: false },
        dialect: options.dialect ?? 'chat',
        calls: 0,
        errors: 0,
        failedAttempts: 0,
        drained: false,
        consecutiveFailures: 0,
        down: null,
      };
      endpoints.set(baseUrl, state);
      // Read at once: the knee's slow start holds calls until a first reading says whether the server counts its tokens.
      if (serverQueue === 'short') void readLoad(state).then(() => dispatcher.pump());
    }
    return state;
  }

  function describe(error: unknown): string {
    return redactKeys(describeFailure(error), keys);
  }

  /** Pools that stopped because every replica was drained, by pool (its URLs joined). */
  const downPools = new Map<string, UserError>();

  /**
   * The replicas an attempt may go to (the dispatcher picks the freest when
   * it is sent); without replicas, the endpoint itself. Throws once the
   * endpoint, or every replica of the pool, is down.
   */
  function replicasOf(request: CompletionRequest, attempts: number): { pool: string; replicas: EndpointState[] } {
    const urls = request.endpoint.replicas ?? [request.endpoint.baseUrl];
    const replicas = urls.map((url) => stateOf(url, request.endpoint));
    const pool = urls.join(',');
    const down = urls.length === 1 ? replicas[0]?.down : downPools.get(pool);
    if (down) throw new CallFailedError('TMAS_ENDPOINT_DOWN', down.message, attempts - 1, { cause: down });
    return { pool, replicas };
  }

  /** Gives up the calls held for a pool that is down: they would never be sent. */
  function refuseHeld(pool: string, down: UserError): void {
    dispatcher.rejectPool(pool, new CallFailedError('TMAS_ENDPOINT_DOWN', down.message, 0, { cause: down }));
  }

  /** Reads each busy server's load and moves its limit (`--server-queue short`). */
  async function readLoad(state: EndpointState): Promise<void> {
    if (state.metrics.state !== 'no') {
      state.metrics.pending = true;
      // Our calls on the server while it answers, at most (calls that end meanwhile were there when asked).
      const before = state.inFlight;
      const askedAt = performance.now();
      const load = await readServerLoad(transport, metricsUrlOf(state.url), { authorization: `Bearer ${state.apiKey}` });
      // The server read its counter somewhere between the question and the answer.
      const readAt = (askedAt + performance.now()) / 2;
      state.metrics.pending = false;
      if (load !== null) {
        state.metrics = { state: 'yes', misses: 0, pending: false };
        state.load.onReading(load, state.inFlight, Math.max(before, state.inFlight));
        state.counter = load.generationTokens !== null;
        if (load.generationTokens !== null) {
          // The server counts its tokens: our streams need not, and the knee is measured from its counter.
          if (countingStreams(state)) state.knee.restart(state.inFlight);
          state.streamUsage.state = 'off';
          state.poll.onReading(load.generationTokens, load.running, load.generationTokensAtMs ?? readAt);
          state.knee.onReading(load, load.generationTokensAtMs ?? readAt, Math.max(before, state.inFlight));
        } else if (countingStreams(state)) {
          // The batch as our streams see it, on the clock of the tokens they count. With the server's
          // gauge instead, read at other moments than our streams' tokens arrive, 3 runs of 9 on the
          // capacity model read the knee at 0.9, 47 and 65 (true 80) and took 1.08x, 1.54x and 1.21x;
          // with ours, 8 of 8 read 71-109 and took 1.059-1.068x.
          readStreamCount(state, state.watch.running, load);
        } else {
          state.poll.onReading(null, load.running, readAt);
          // Nothing counts its tokens, nor will: no cap.
          if (state.streamUsage.state === 'off') state.knee.disable();
        }
        return;
      }
      state.poll.onReading(null, 0, readAt);
      // A server that has not answered with metrics yet may have none: unless our streams may count its tokens, its calls are not held for a slow start.
      if (state.metrics.state === 'unknown') {
        state.counter = false;
        if (state.streamUsage.state === 'off') state.knee.disable();
      }
      // A server that never answered with metrics has none; one that did and stops may be busy: keep asking.
      if (state.metrics.state === 'unknown' && ++state.metrics.misses >= METRICS_MISSES) state.metrics.state = 'no';
      if (state.metrics.state !== 'no') return;
    }
    const inferred = state.watch.reading();
    if (inferred !== null) state.load.onReading(inferred, state.inFlight);
    if (countingStreams(state)) readStreamCount(state, state.watch.running);
    else state.poll.onReading(null, state.watch.running, performance.now());
  }

  /** A reading of the tokens our streams counted, with `running` of our sequences streaming (and the server's load, when read): it paces the readings and measures the knee. */
  function readStreamCount(state: EndpointState, running: number, server?: Pick<ServerLoad, 'running' | 'waiting' | 'kvUsage'>): void {
    const now = performance.now();
    const tokens = state.streamUsage.state === 'text' ? state.text.tokens : state.streamUsage.tokens;
    state.poll.onReading(tokens, running, now);
    state.knee.onReading({ running, generationTokens: tokens, ...(server === undefined ? {} : { serverRunning: server.running, waiting: server.waiting, kvUsage: server.kvUsage }) }, now, state.inFlight);
  }

  /** Whether its streams are asked for their usage in every chunk. */
  function askingUsage(state: EndpointState): boolean {
    return state.streamUsage.state === 'asked' || state.streamUsage.state === 'counting';
  }

  /** Whether the knee counts the tokens from our streams: their usage, or their text once it is known steady. */
  function countingStreams(state: EndpointState): boolean {
    return state.streamUsage.state === 'counting' || (state.streamUsage.state === 'text' && state.text.verdict === 'steady');
  }

  /** A server that rejects or ignores `continuous_usage_stats`: its streams are not asked again, and their text is counted instead. */
  function refuseStreamUsage(state: EndpointState): void {
    if (!askingUsage(state)) return;
    state.streamUsage = { state: 'text', tokens: 0 };
  }

  /**
   * Its streams' text cannot count its tokens: no cap, once its metrics are
   * known to have no counter (until they answer, the readings decide:
   * readLoad disables the knee of a server whose tokens nothing counts).
   */
  function stopCountingText(state: EndpointState): void {
    state.streamUsage.state = 'off';
    if (state.counter === false) state.knee.disable();
  }

  /**
   * A call ended with `chars` of text: its characters per token judge the
   * text (streamed-text.ts). Judged steady, the text counts from now on,
   * unless the first text of the calls usually came late (a hidden reasoning:
   * text at the end, not as it is decoded), which is asked once, then: later
   * waits in a busy server's queue say nothing of it.
   */
  function onTextEnded(state: EndpointState, chars: number, usage: Reply['usage']): void {
    if (state.streamUsage.state !== 'text') return;
    const before = state.text.verdict;
    state.text.ended(chars, usage?.completionTokens ?? null);
    if (state.text.verdict === 'unsteady') return stopCountingText(state);
    if (before === 'steady' || state.text.verdict !== 'steady') return;
    if (state.watch.textFlows() === false) return stopCountingText(state);
    // The slow start begins from the calls the server has (it ran uncapped meanwhile).
    if (state.counter !== true) state.knee.restart(state.inFlight);
  }

  /** A stream carried its usage: from now on the knee counts the server's tokens from our streams. */
  function confirmStreamUsage(state: EndpointState): void {
    if (state.streamUsage.state !== 'asked') return;
    state.streamUsage.state = 'counting';
    // A server without the counter may have gone uncapped (UNCONFIRMED_HOLD_MS): the slow start begins from the calls it has.
    if (state.counter !== true) state.knee.restart(state.inFlight);
  }

  /**
   * The knee's cap, except on a server known to have no counter whose streams
   * have not shown their usage within UNCONFIRMED_HOLD_MS: a server that
   * ignores the field says so only with its first text (minutes, behind a
   * hidden reasoning), and its calls are not held at a slow start that long;
   * nor on one whose text is still being judged (streamed-text.ts).
   */
  function kneeCapOf(state: EndpointState): number {
    const unconfirmed = state.streamUsage.state === 'asked' && state.counter === false && performance.now() - state.createdAt > UNCONFIRMED_HOLD_MS;
    // A judgment takes several finished calls, minutes of a real run: its calls are not held meanwhile.
    const judging = state.streamUsage.state === 'text' && state.text.verdict !== 'steady' && state.counter !== true;
    return unconfirmed || judging ? Number.POSITIVE_INFINITY : state.knee.cap;
  }

  // Each busy server is read when its period (poll-period.ts) has passed; the timer ticks at the shortest period.
  const poller =
    serverQueue === 'short'
      ? setInterval(() => {
          const now = performance.now();
          for (const state of endpoints.values()) {
            if (state.drained || state.down) continue;
            // No calls, no readings: the knee's next window starts afresh.
            if (state.inFlight === 0 && dispatcher.heldFor(state.pool) === 0) {
              state.knee.pause();
              continue;
            }
            if (state.metrics.pending || now < state.nextReadAt) continue;
            state.nextReadAt = now + state.poll.ms;
            void readLoad(state).then(() => dispatcher.pump());
          }
        }, Math.min(FASTEST_MS, maxPollMs))
      : null;
  poller?.unref();

  /** Counts a failed attempt on a replica of a pool; drains it after `downAfter` in a row, and stops the pool when none is left. */
  function replicaFailed(state: EndpointState, request: CompletionRequest, error: unknown): void {
    const urls = request.endpoint.replicas;
    // Overloads are the AIMD limit's business, not a sign of a dead replica.
    if (!urls || urls.length < 2 || state.drained || (error instanceof APIError && (error.status === 429 || error.status === 503))) return;
    if (++state.failedAttempts < downAfter) return;
    state.drained = true;
    options.onRetry?.({ endpoint: state.url, attempt: 0, error: `replica drained after ${state.failedAttempts} failed attempts in a row: ${describe(error)}`, waitMs: 0 });
    if (!urls.every((url) => stateOf(url, request.endpoint).drained)) {
      // Its held calls go to the other replicas.
      dispatcher.pump();
      return;
    }
    const pool = urls.join(',');
    const down = new UserError(
      'TMAS_ENDPOINT_DOWN',
      `Every replica of the model endpoint pool ${pool} (${request.endpoint.model}) stays down; the last error was ${describe(error)}. The run stopped; ` +
        'every completed call is kept in the store. Check the servers, then resume the run with --resume on its output directory.',
      { cause: error },
    );
    downPools.set(pool, down);
    refuseHeld(pool, down);
    declareDown(down);
  }

  function failedForGood(state: EndpointState, request: CompletionRequest, error: unknown, attempts: number, transient: boolean): void {
    if (!transient || state.down) return;
    state.consecutiveFailures++;
    if (state.consecutiveFailures < downAfter) return;
    state.down = new UserError(
      'TMAS_ENDPOINT_DOWN',
      `The model endpoint ${request.endpoint.baseUrl} (${request.endpoint.model}) stays down: ${state.consecutiveFailures} calls in a row ` +
        `failed after ${attempts} attempts each; the last error was ${describe(error)}. The run stopped; every completed call is kept ` +
        'in the store. Check the server (or lower --concurrency), then resume the run with --resume on its output directory.',
      { cause: error },
    );
    refuseHeld(state.pool, state.down);
    declareDown(state.down);
  }

  function clientFor(endpoint: Endpoint): OpenAI {
    keys.add(endpoint.apiKey);
    const id = `${endpoint.baseUrl}\u0000${endpoint.apiKey}`;
    let client = clients.get(id);
    if (!client) {
      // Retries are ours: we count them, honour Retry-After and release the slot while waiting.
      client = new OpenAI({ baseURL: endpoint.baseUrl, apiKey: endpoint.apiKey, maxRetries: 0, timeout: Math.ceil(options.timeoutMs), fetch: transport.fetch });
      clients.set(id, client);
    }
    return client;
  }

  /**
   * One attempt under its bounds (reply-bounds.ts, completion-bounds.ts): the
   * idle limit from the request to the body's last byte, the total limit
   * (`--total-timeout`, else derived from the completion limit), a size cap,
   * and what the completion limit allows the reply to hold.
   */
  async function attempt(request: CompletionRequest, state: EndpointState, body: Buffer, askedUsage: boolean, signal?: AbortSignal): Promise<Reply> {
    const watchdog = startWatchdog({ idleMs: options.timeoutMs, total: totalLimitOf(request.maxTokens), signal });
    const meter = createReplyMeter(request.maxTokens, watchdog);
    const started = performance.now();
    const watched = state.watch.watch();
    // The usage so far this stream reported: each chunk's count, less the last, is what the server decoded meanwhile.
    let reported = 0;
    const onUsage = (completionTokens: number | null) => {
      if (completionTokens !== null) meter.tokens(completionTokens);
      if (!askedUsage) return;
      if (completionTokens === null) return refuseStreamUsage(state);
      confirmStreamUsage(state);
      if (completionTokens > reported && state.streamUsage.state === 'counting') state.streamUsage.tokens += completionTokens - reported;
      reported = Math.max(reported, completionTokens);
    };
    try {
      // What `chat.completions.create` sends, encoded by us (request-body.ts); the client checks the status and keeps the server's error message.
      const response = await clientFor({ ...request.endpoint, baseUrl: state.url })
        .post<ChatCompletion>('/chat/completions', { body, headers: { 'content-type': 'application/json' }, signal: watchdog.controller.signal })
        .asResponse();
      watchdog.touch();
      // The transport's own body (http-transport.ts): chunks as Node reads them, no web stream.
      const bytes = boundedBody((response as unknown as TransportResponse).body, replyByteCap(request.maxTokens, stream), watchdog);
      if (!stream) return withinMeteredLimit(fromWholeReply(JSON.parse((await readAll(bytes)).toString('utf8')) as ChatCompletion), meter);
      const sorted = await sortBody(bytes, response.headers);
      if (sorted.json) return withinMeteredLimit(unstreamedReply(state, (await readAll(sorted.body)).toString('utf8'), response.headers), meter);
      // The server's chunks, as the OpenAI API defines them; fromStream reads every field defensively.
      const chunks = sseEvents(sorted.body, response.headers) as AsyncGenerator<ChatCompletionChunk[]>;
      let chars = 0;
      const onStreamText = (count: number) => {
        meter.text(count);
        onText(count);
        if (state.streamUsage.state === 'text') state.text.add(count);
        if (chars === 0) watched.texted();
        chars += count;
      };
      const reply = withinLimit(await fromStream(chunks, { started, onText: onStreamText, onFirstEvent: () => watched.started(), onUsage }), meter);
      onTextEnded(state, chars, reply.usage);
      if (reply.firstTokenMs !== null) {
        const decodeMs = performance.now() - started - reply.firstTokenMs;
        firstTokenMs.add(reply.firstTokenMs);
        generationMs.add(decodeMs);
        if (reply.usage !== null) state.poll.onCall(reply.usage.completionTokens, decodeMs);
      }
      return reply;
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error;
      throw watchdog.failure ?? error;
    } finally {
      watched.ended();
      watchdog.dispose();
    }
  }

  /**
   * A whole JSON reply to a streamed request: read as the completion it holds
   * (json-reply.ts). Such a server's replies say nothing of its tokens as
   * they are decoded, so its streams are not counted; the user is told once,
   * as the idle limit then covers the wait for the whole reply.
   */
  function unstreamedReply(state: EndpointState, text: string, headers: Headers): Reply {
    const reply = fromJsonReply(text, headers);
    if (state.streamUsage.state !== 'off') stopCountingText(state);
    if (!unstreamed.has(state.url)) {
      unstreamed.add(state.url);
      options.onUnstreamed?.(state.url);
    }
    return reply;
  }

  /**
   * A reply that says nothing of its usage, counted with the run's tokenizer
   * when the gateway has one, once its connection is done and its slot free:
   * past the limit, it fails like a reply whose usage says so (retried).
   */
  async function checkCounted(reply: Reply, maxTokens: number, signal: AbortSignal | undefined): Promise<void> {
    if (reply.usage !== null || options.countTokens === undefined) return;
    const counts = await options.countTokens([reply.content, reply.reasoning ?? ''], signal);
    const tokens = counts.reduce((sum, count) => sum + count, 0);
    if (tokens > maxTokens) throw overLimit(maxTokens, `its text, which came without usage, counts ${tokens} tokens`);
  }

  /** The total limit of an attempt: `--total-timeout` when given, else derived from the completion limit. */
  function totalLimitOf(maxTokens: number): { ms: number; label: string } {
    const given = options.totalTimeoutMs ?? null;
    if (given !== null) return { ms: given, label: `--total-timeout ${given / 1000} s` };
    return derivedTotal(maxTokens, options.totalFloor);
  }

  /**
   * An endpoint that refuses `max_tokens` or a sampling field in a 400 (as
   * OpenAI's reasoning models do) is switched to the `openai-reasoning`
   * dialect for the rest of the run; the call is then sent again in it.
   */
  function adoptReasoningDialect(state: EndpointState, request: CompletionRequest, error: unknown): unknown {
    const reason = rejectsChatDialect(error);
    if (reason === null) return error;
    if (state.dialect === 'chat') {
      state.dialect = 'openai-reasoning';
      options.onDialect?.(state.url, 'openai-reasoning', describe(error));
    }
    return new DialectAdopted();
  }

  function serverOf(state: EndpointState): EndpointStats['server'] {
    const last = state.load.last;
    if (serverQueue !== 'short' || last === null) return null;
    return { running: last.running, waiting: last.waiting, source: state.metrics.state === 'yes' ? 'metrics' : 'streams' };
  }

  function kneeSourceOf(state: EndpointState): EndpointStats['kneeSource'] {
    if (serverQueue !== 'short' || !state.knee.active) return null;
    if (state.streamUsage.state === 'counting') return 'streams';
    if (countingStreams(state)) return 'text';
    return state.counter === true ? 'server' : null;
  }

  /** Counts what a reply says beyond its text: another model, no usage, its reasoning dialect. */
  function note(request: CompletionRequest, reply: Reply): void {
    if (reply.model !== null && reply.model !== request.endpoint.model) otherModel++;
    if (reply.usage === null) noUsage++;
    if (reply.reasoningDialect !== null) reasoningDialects[reply.reasoningDialect] = (reasoningDialects[reply.reasoningDialect] ?? 0) + 1;
  }

  return {
    async complete(request, { signal } = {}) {
      const started = performance.now();
      // Set when a 400 or 422 that names nothing came back to a request asking for continuous usage: it is sent once without.
      let usageDropped = false;
      const asksUsage = (state: EndpointState) => !usageDropped && askingUsage(state);
      // Encoded once per dialect and usage asked: a retry sends the bytes it already has.
      const bodies = new Map<string, Promise<Buffer>>();
      const bodyFor = (state: EndpointState) => {
        const { dialect } = state;
        const continuousUsage = asksUsage(state);
        const key = `${dialect} ${continuousUsage}`;
        let body = bodies.get(key);
        if (body === undefined) bodies.set(key, (body = requestBody(request, options.encodeJson, { dialect, stream, continuousUsage })));
        return body;
      };
      const rank = request.rank ?? FIRST_RANK;
      // A retry keeps the call's place among the held calls of its rank.
      const arrival = sequence++;
      for (let attempts = 1; ; attempts++) {
        const { pool, replicas } = replicasOf(request, attempts);
        // Encoded before waiting for a slot, as the first replica takes it; a slot is not held for it.
        await bodyFor(replicas[0] as EndpointState);
        // Rejects on an abort, or when the pool goes down while the call is held: neither is an attempt.
        const state = await dispatcher.admit({ pool, replicas, rank, sequence: arrival, tieBreak: request.seed + attempts }, signal);
        try {
          const dialect = state.dialect;
          const askedUsage = asksUsage(state);
          let result: Reply;
          try {
            const body = await bodyFor(state);
            result = await attempt(request, state, body, askedUsage, signal).catch((error: unknown) => {
              if (askedUsage && rejectsContinuousUsage(error)) {
                refuseStreamUsage(state);
                throw new DialectAdopted();
              }
              const adopted = dialect === 'chat' ? adoptReasoningDialect(state, request, error) : error;
              // A validation error that names no field (FastAPI's 422, a bare 400) may be about ours: the call is sent once without it.
              if (askedUsage && !(adopted instanceof DialectAdopted) && error instanceof APIError && (error.status === 400 || error.status === 422)) {
                usageDropped = true;
                throw new DialectAdopted();
              }
              throw adopted;
            });
          } finally {
            state.aimd.onDone();
            dispatcher.release(state);
          }
          await checkCounted(result, request.maxTokens, signal);
          // Refused with the field, answered without it: the field was the trouble.
          if (usageDropped) refuseStreamUsage(state);
          state.aimd.onSuccess();
          state.consecutiveFailures = 0;
          state.failedAttempts = 0;
          state.calls++;
          note(request, result);
          return { ...result, replica: state.url, attempts, latencyMs: performance.now() - started };
        } catch (error) {
          if (error instanceof DialectAdopted) {
            // Not a failure of the call: it is sent again at once in the dialect the endpoint asked for.
            attempts--;
            continue;
          }
          const kind = classifyFailure(error);
          if (kind === 'aborted' || signal?.aborted) throw error;
          state.errors++;
          if (error instanceof APIError && (error.status === 429 || error.status === 503)) state.aimd.onOverload();
          if (kind === 'transient') replicaFailed(state, request, error);
          if (kind !== 'transient' || attempts > options.maxRetries) {
            failures++;
            const code = FAILURE_CODES[kind];
            failedForGood(state, request, error, attempts, kind === 'transient');
            throw new CallFailedError(code, `${state.url} (${request.endpoint.model}): ${describe(error)}`, attempts, {
              cause: error,
            });
          }
          retries++;
          const cause = failureLabel(error);
          retriesByCause[cause] = (retriesByCause[cause] ?? 0) + 1;
          const waitMs = backoffMs(attempts, error, backoff);
          options.onRetry?.({ endpoint: state.url, attempt: attempts, error: describe(error), waitMs });
          await sleep(waitMs, signal);
        }
      }
    },
    get stats() {
      const perEndpoint = [...endpoints.values()].map((state) => ({
        baseUrl: state.url,
        limit: state.limit,
        knee: serverQueue === 'short' ? state.knee.knee : null,
        kneeSource: kneeSourceOf(state),
        inFlight: state.inFlight,
        waiting: dispatcher.heldFor(state.pool),
        server: serverOf(state),
        decreases: state.aimd.decreases,
        down: state.down !== null,
        dialect: state.dialect,
        calls: state.calls,
        errors: state.errors,
        drained: state.drained,
      }));
      return {
        inFlight: dispatcher.inFlight,
        queued: dispatcher.held,
        limit: dispatcher.concurrency,
        retries,
        retriesByCause: { ...retriesByCause },
        failures,
        otherModel,
        noUsage,
        reasoningDialects: { ...reasoningDialects },
        streamedChars,
        // Sorts two samples of up to 20,000 latencies: only when read (metrics.json), not on every
        // progress redraw, which reads the counts above four times a second on a terminal.
        get latency() {
          return { firstTokenMs: firstTokenMs.summary(), generationMs: generationMs.summary() };
        },
        endpoints: perEndpoint,
      };
    },
    down,
    close: () => {
      if (poller !== null) clearInterval(poller);
      transport.close();
    },
  };
}
