/**
 * The LLM gateway: the only place that talks to endpoints. Every call goes
 * through one global in-flight limit, is retried with backoff on transient
 * failures, and reports its usage, attempts and latency.
 */
import OpenAI from 'openai';
import { TmasError } from '../errors.ts';
import { createLimiter, type Limiter } from './limiter.ts';
import { backoffMs, classifyFailure, describeFailure, type BackoffOptions } from './retry.ts';

/** Where a role's calls go. */
export interface Endpoint {
  baseUrl: string;
  model: string;
  apiKey: string;
}

/** One chat completion request. */
export interface CompletionRequest {
  endpoint: Endpoint;
  messages: Array<{ role: 'system' | 'user' | 'assistant'; content: string }>;
  maxTokens: number;
  temperature?: number;
  seed: number;
}

/** One chat completion result. */
export interface Completion {
  content: string;
  /** `reasoning_content` of reasoning models (vLLM, DeepSeek), kept apart from `content`. */
  reasoning: string | null;
  finishReason: string;
  usage: { promptTokens: number; completionTokens: number };
  attempts: number;
  latencyMs: number;
}

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
  onRetry?: (event: RetryEvent) => void;
}

/** The gateway as the runtime sees it. */
export interface Gateway {
  complete(request: CompletionRequest, options?: { signal?: AbortSignal }): Promise<Completion>;
  readonly stats: { inFlight: number; queued: number; limit: number; retries: number; failures: number };
  close(): void;
}

/** A call that failed for good, with the last error's classification. */
export class CallFailedError extends TmasError {
  constructor(code: string, message: string, readonly attempts: number, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'CallFailedError';
  }
}

const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 1000, capMs: 60_000 };

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
  let retries = 0;
  let failures = 0;

  function clientFor(endpoint: Endpoint): OpenAI {
    const id = `${endpoint.baseUrl}\u0000${endpoint.apiKey}`;
    let client = clients.get(id);
    if (!client) {
      // Retries are ours: we count them, honour Retry-After and release the slot while waiting.
      client = new OpenAI({ baseURL: endpoint.baseUrl, apiKey: endpoint.apiKey, maxRetries: 0, timeout: options.timeoutMs });
      clients.set(id, client);
    }
    return client;
  }

  async function attempt(request: CompletionRequest, signal?: AbortSignal): Promise<Omit<Completion, 'attempts' | 'latencyMs'>> {
    const response = await clientFor(request.endpoint).chat.completions.create(
      {
        model: request.endpoint.model,
        messages: request.messages,
        max_tokens: request.maxTokens,
        seed: request.seed,
        ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      },
      signal ? { signal } : {},
    );
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
      for (let attempts = 1; ; attempts++) {
        try {
          const result = await limiter.schedule(() => attempt(request, signal), signal);
          return { ...result, attempts, latencyMs: performance.now() - started };
        } catch (error) {
          const kind = classifyFailure(error);
          if (kind === 'aborted' || signal?.aborted) throw error;
          if (kind !== 'transient' || attempts > options.maxRetries) {
            failures++;
            const code = kind === 'context-length' ? 'TMAS_CONTEXT_LENGTH' : kind === 'fatal' ? 'TMAS_CALL_REJECTED' : 'TMAS_CALL_FAILED';
            throw new CallFailedError(code, `${request.endpoint.baseUrl} (${request.endpoint.model}): ${describeFailure(error)}`, attempts, {
              cause: error,
            });
          }
          retries++;
          const waitMs = backoffMs(attempts, error, backoff);
          options.onRetry?.({ endpoint: request.endpoint.baseUrl, attempt: attempts, error: describeFailure(error), waitMs });
          await sleep(waitMs, signal);
        }
      }
    },
    get stats() {
      return { inFlight: limiter.inFlight, queued: limiter.queued, limit: limiter.limit, retries, failures };
    },
    close: () => limiter.close(),
  };
}
