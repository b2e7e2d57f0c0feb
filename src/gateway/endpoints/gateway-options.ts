/**
 * The gateway's settings (gateway.ts re-exports them), and the defaults of
 * those that have one.
 */
import { LONGEST_ASKED_WAIT_MS, type BackoffOptions } from '../request/retry.ts';
import type { TotalFloor } from '../reply/completion-bounds.ts';
import type { DispatchOrder } from '../dispatch/dispatcher.ts';
import type { Routing } from '../dispatch/routing.ts';
import type { JsonEncoder, RequestDialect } from '../request/request-body.ts';
import type { Redirect } from '../request/redirects.ts';

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
  /** How long an event stream may send keep-alives alone (comments, empty or non-JSON events) before its attempt is given up (`--keepalive-timeout`); default twice `timeoutMs`, or the call's completion limit at 10 tokens/s when longer (completion-bounds.ts' defaultKeepAliveMs). */
  keepAliveTimeoutMs?: number | null;
  /** What the derived total limit is made of; completion-bounds.ts's base and floor rate when absent (tests shorten them). */
  totalFloor?: TotalFloor;
  /** Counts texts with the run's tokenizer (the pool): a stream as it arrives, a reply without usage or whose text belies its usage, against its completion limit (token-meter.ts). Unchecked in tokens when absent. */
  countTokens?: (texts: string[], signal: AbortSignal | undefined) => Promise<number[]>;
  /** How long a stream that sent its finish reason may take to send its usage or end before it is taken as whole (stream-end.ts); FINISH_GRACE_MS when absent. */
  finishGraceMs?: number;
  /** Stream completions (SSE); default true. */
  stream?: boolean;
  /** How requests start out on every endpoint; an endpoint that refuses `max_tokens` or sampling fields in a 400 is switched to `openai-reasoning`. Default `chat`. */
  dialect?: RequestDialect;
  /** Told once per endpoint when it is switched to the `openai-reasoning` dialect. */
  onDialect?: (endpoint: string, dialect: RequestDialect, reason: string) => void;
  /** Told once per endpoint when it refused a field tmas adds on its own (`seed`, `stream_options`), which its requests go without from then on. */
  onOmitted?: (endpoint: string, field: string, reason: string) => void;
  /** Told once per endpoint and model when its replies name a model other than the one asked for (an alias resolved, or another model served). */
  onOtherModel?: (endpoint: string, asked: string, named: string) => void;
  /** Told once per endpoint when a content filter stopped one of its replies (`finish_reason: "content_filter"`): the reply is returned, and the roles count it cut. */
  onFiltered?: (endpoint: string) => void;
  /** Told once per endpoint when one of its replies finished (`stop`) with text in its reasoning and none in its answer; `dialect` is the field or form the reasoning came in. */
  onReasoningOnly?: (endpoint: string, dialect: string) => void;
  /**
   * Told once per endpoint and word when a whole reply gave no finish reason
   * (`said` null: a stream closed by `data: [DONE]` without one, a JSON body
   * without one) or one tmas does not know (`said`, shown): its finish reason
   * is then inferred from its completion tokens (finish-reason.ts).
   */
  onFinishUnknown?: (endpoint: string, said: string | null) => void;
  /** Told once per server and the base URL its redirect implies, when a request was redirected (307, 308) and followed: its body went out twice. */
  onRedirected?: (redirect: Redirect) => void;
  /**
   * Told once per endpoint when its streams hold data that is no JSON object
   * (`data: ping`, as some proxies and gateways send to keep a connection
   * open): such data is skipped as a keep-alive (sse.ts); `data` is the first.
   */
  onKeepAlive?: (endpoint: string, data: string) => void;
  /** Told once per endpoint when one of its streams sent keep-alives alone for `limitMs` (`--keepalive-timeout`): that attempt was given up, and retried. */
  onKeepAlivesOnly?: (endpoint: string, limitMs: number) => void;
  /**
   * Told once per endpoint when a reply held `choices` choices where one was
   * asked: the first is read, and counted by its text (the usage counts them all).
   */
  onSeveralChoices?: (endpoint: string, choices: number) => void;
  /**
   * Told once per endpoint when a reply's usage stated counts no reply could
   * have (`what`: the first such count, and what it was set against): they
   * are ignored, the completion tokens counted by the reply's text, the
   * prompt tokens taken as none.
   */
  onImpossibleUsage?: (endpoint: string, what: string) => void;
  /** Told once per endpoint when it answers a streamed request with a whole JSON reply (read as such). */
  onUnstreamed?: (endpoint: string) => void;
  /** Hears, once per endpoint, that its `/metrics` are not used (our streams belie them), and why: its load is inferred from our streams from then on. */
  onMetricsUnused?: (endpoint: string, reason: string) => void;
  /** Hears, once per endpoint, that its `/metrics`, which did not answer when the run started (a 404, another page), answer now: its load is read from them from then on. */
  onMetricsFound?: (endpoint: string) => void;
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
  /** Which replica of a pool a call goes to: where it finishes soonest, then where its prompt's prefix is cached (`prefix`, the default), or the freest (`least-loaded`). */
  routing?: Routing;
  /** Whether each server's calls are capped near its throughput knee (with `short`); default `knee`. */
  batchCap?: BatchCap;
  /** The longest period between two readings of a busy server's load; shorter for a fast server (poll-period.ts). Default 500 ms. */
  loadPollMs?: number;
}

/** The retries' backoff when none is given: the first step (`--retry-base-ms`), the longest wait, and the longest a server may ask for. */
export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 1000, capMs: 60_000, askedCapMs: LONGEST_ASKED_WAIT_MS };
/** Calls in a row that may fail for good on one endpoint when `downAfter` is not given. */
export const DEFAULT_DOWN_AFTER = 3;
/** The longest period between two readings of a busy server's load when none is given (`--load-poll-ms`). */
export const DEFAULT_LOAD_POLL_MS = 500;
