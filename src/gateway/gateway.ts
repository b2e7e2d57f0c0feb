/**
 * The LLM gateway: the only place that talks to endpoints. Every call goes
 * through one global in-flight limit, is retried with backoff on transient
 * failures, and reports its usage, attempts and latency.
 */
import OpenAI, { APIError } from 'openai';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import { TmasError, UserError, type ErrorCode } from '../kernel/errors.ts';
import { createAimdGate, type AimdGate } from './aimd.ts';
import { createLimiter, type Limiter } from './limiter.ts';
import { requestBody, type JsonEncoder } from './request-body.ts';
import type { Completion, CompletionRequest, Endpoint } from './completion.ts';
import { backoffMs, classifyFailure, describeFailure, failureLabel, type BackoffOptions } from './retry.ts';

export type { Completion, CompletionRequest, Endpoint } from './completion.ts';

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
  timeoutMs: number;
  /** Retries after the first attempt. */
  maxRetries: number;
  backoff?: BackoffOptions;
  /**
   * Calls in a row on one endpoint that may fail for good (retries exhausted)
   * before the endpoint counts as down and the gateway gives up on it. Default 3.
   */
  downAfter?: number;
  onRetry?: (event: RetryEvent) => void;
  /** Serialises large request bodies off the main thread (see request-body.ts); on the main thread when absent. */
  encodeJson?: JsonEncoder;
}

/** The live state of one endpoint (one base URL). */
export interface EndpointStats {
  baseUrl: string;
  /** The adaptive (AIMD) in-flight limit, at most the global `--concurrency`. */
  limit: number;
  inFlight: number;
  /** Calls waiting for a slot under `limit`. */
  waiting: number;
  /** Times the limit was halved after a 429 or 503. */
  decreases: number;
  down: boolean;
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
  endpoints: EndpointStats[];
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

const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 1000, capMs: 60_000 };
const DEFAULT_DOWN_AFTER = 3;

interface EndpointState {
  gate: AimdGate;
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

interface ReasoningMessage {
  content?: string | null;
  reasoning_content?: string | null;
  reasoning?: string | null;
}

/** Creates a gateway. */
export function createGateway(options: GatewayOptions): Gateway {
  const limiter: Limiter = createLimiter(options.concurrency);
  const clients = new Map<string, OpenAI>();
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const downAfter = options.downAfter ?? DEFAULT_DOWN_AFTER;
  const endpoints = new Map<string, EndpointState>();
  const keys = new Set<string>();
  const retriesByCause: Record<string, number> = {};
  let retries = 0;
  let failures = 0;
  let declareDown: (error: UserError) => void = () => {};
  const down = new Promise<never>((_, reject) => {
    declareDown = reject;
  });
  // Handled here so that a run that never races `down` gets no unhandled rejection.
  down.catch(() => {});

  function stateOf(baseUrl: string): EndpointState {
    let state = endpoints.get(baseUrl);
    if (!state) {
      state = { gate: createAimdGate(options.concurrency), consecutiveFailures: 0, down: null };
      endpoints.set(baseUrl, state);
    }
    return state;
  }

  function describe(error: unknown): string {
    return redactKeys(describeFailure(error), keys);
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
    declareDown(state.down);
  }

  function clientFor(endpoint: Endpoint): OpenAI {
    keys.add(endpoint.apiKey);
    const id = `${endpoint.baseUrl}\u0000${endpoint.apiKey}`;
    let client = clients.get(id);
    if (!client) {
      // Retries are ours: we count them, honour Retry-After and release the slot while waiting.
      client = new OpenAI({ baseURL: endpoint.baseUrl, apiKey: endpoint.apiKey, maxRetries: 0, timeout: options.timeoutMs });
      clients.set(id, client);
    }
    return client;
  }

  async function attempt(request: CompletionRequest, body: Buffer, signal?: AbortSignal): Promise<Omit<Completion, 'attempts' | 'latencyMs'>> {
    // What `chat.completions.create` sends, encoded by us (request-body.ts).
    const response = await clientFor(request.endpoint).post<ChatCompletion>('/chat/completions', {
      body,
      headers: { 'content-type': 'application/json' },
      ...(signal ? { signal } : {}),
    });
    const choice = response.choices?.[0];
    if (!choice) throw new SyntaxError('the response has no choices');
    const message = choice.message as ReasoningMessage;
    return {
      content: message.content ?? '',
      reasoning: message.reasoning_content ?? message.reasoning ?? null,
      finishReason: choice.finish_reason ?? 'unknown',
      usage: {
        promptTokens: response.usage?.prompt_tokens ?? 0,
        completionTokens: response.usage?.completion_tokens ?? 0,
      },
    };
  }

  return {
    async complete(request, { signal } = {}) {
      const started = performance.now();
      const state = stateOf(request.endpoint.baseUrl);
      const body = await requestBody(request, options.encodeJson);
      for (let attempts = 1; ; attempts++) {
        if (state.down) throw new CallFailedError('TMAS_ENDPOINT_DOWN', state.down.message, attempts - 1, { cause: state.down });
        try {
          await state.gate.acquire(signal);
          let result: Omit<Completion, 'attempts' | 'latencyMs'>;
          try {
            result = await limiter.schedule(() => attempt(request, body, signal), signal);
          } finally {
            state.gate.release();
          }
          state.gate.onSuccess();
          state.consecutiveFailures = 0;
          return { ...result, attempts, latencyMs: performance.now() - started };
        } catch (error) {
          const kind = classifyFailure(error);
          if (kind === 'aborted' || signal?.aborted) throw error;
          if (error instanceof APIError && (error.status === 429 || error.status === 503)) state.gate.onOverload();
          if (kind !== 'transient' || attempts > options.maxRetries) {
            failures++;
            const code = kind === 'context-length' ? 'TMAS_CONTEXT_LENGTH' : kind === 'auth' ? 'TMAS_AUTH' : kind === 'fatal' ? 'TMAS_CALL_REJECTED' : 'TMAS_CALL_FAILED';
            failedForGood(state, request, error, attempts, kind === 'transient');
            throw new CallFailedError(code, `${request.endpoint.baseUrl} (${request.endpoint.model}): ${describe(error)}`, attempts, {
              cause: error,
            });
          }
          retries++;
          const cause = failureLabel(error);
          retriesByCause[cause] = (retriesByCause[cause] ?? 0) + 1;
          const waitMs = backoffMs(attempts, error, backoff);
          options.onRetry?.({ endpoint: request.endpoint.baseUrl, attempt: attempts, error: describe(error), waitMs });
          await sleep(waitMs, signal);
        }
      }
    },
    get stats() {
      const perEndpoint = [...endpoints.entries()].map(([baseUrl, { gate, down: isDown }]) => ({
        baseUrl,
        limit: gate.limit,
        inFlight: gate.inFlight,
        waiting: gate.waiting,
        decreases: gate.decreases,
        down: isDown !== null,
      }));
      const waiting = perEndpoint.reduce((sum, endpoint) => sum + endpoint.waiting, 0);
      return {
        inFlight: limiter.inFlight,
        queued: limiter.queued + waiting,
        limit: limiter.limit,
        retries,
        retriesByCause: { ...retriesByCause },
        failures,
        endpoints: perEndpoint,
      };
    },
    down,
    close: () => limiter.close(),
  };
}
