/**
 * The live state of one endpoint (one base URL, a replica of a pool or a
 * server alone), its creation, and the in-flight limit it has at each moment.
 */
import { createAimdLimit, type AimdLimit } from '../load/aimd.ts';
import { createFirstTokenWatch, type FirstTokenWatch } from '../load/first-token.ts';
import { createLoadLimit, type LoadLimit } from '../load/load-limit.ts';
import { createStreamedText, type StreamedText } from '../load/streamed-text.ts';
import { METRICS_TIMEOUT_MS } from '../load/server-load.ts';
import { SeriesContinuity } from '../load/series-continuity.ts';
import { createThroughputKnee, type ThroughputKnee } from '../load/throughput-knee.ts';
import { createPollPeriod, type PollPeriod } from '../load/poll-period.ts';
import { createPrefixMemory, type PrefixMemory } from '../dispatch/prefix-memory.ts';
import type { Endpoint } from '../reply/completion.ts';
import type { RequestDialect } from '../request/request-body.ts';
import type { UserError } from '../../kernel/errors.ts';
import type { BatchCap, ServerQueue } from './gateway-options.ts';

/** How long the slow start holds the calls of a server without a token counter while its streams have not yet shown whether they carry usage. */
const UNCONFIRMED_HOLD_MS = 5_000;

/** The live state of one endpoint (one base URL). */
export interface EndpointState {
  /** Tokens per ms one of its sequences decodes while the server has room (routing.ts): its knee's slow start, else its readings' pace; null until measured. */
  readonly sequenceSpeed: number | null;
  /** Its throughput knee in sequences; null until found. */
  readonly kneeSize: number | null;
  /** The prompt prefixes sent to it lately (routing.ts). */
  prefixes: PrefixMemory;
  /** Attempts it answered that were sent where most of their prompt was (counted by the call: call.ts). */
  prefixHits: number;
  /** Times it came back after it was drained. */
  returns: number;
  /** Times it was drained since a call last succeeded on it: each return is watched for at a longer period. */
  drainsInARow: number;
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
  metrics: {
    state: 'unknown' | 'yes' | 'no';
    misses: number;
    pending: boolean;
    belied: number;
    beliedSince: number;
    timeoutMs: number;
    /** Asks of a page given up so far, and when the next is due (metrics-recheck.ts): never until it is given up. */
    rechecks: number;
    recheckAt: number;
    /** The longest period between two readings (`--load-poll-ms`): the asks are spaced in them. */
    periodMs: number;
  };
  /** Hears that its `/metrics` are not used, and why (belied-metrics.ts). */
  readonly onMetricsUnused: (endpoint: string, reason: string) => void;
  /** Hears that its `/metrics`, which did not answer at first, answer now and are read from then on (metrics-recheck.ts). */
  readonly onMetricsFound: (endpoint: string) => void;
  /** Its `/metrics` series over the readings: a reading that lacks an engine's is set aside, and the token counter is summed from each series' increase. */
  readonly series: SeriesContinuity;
  dialect: RequestDialect;
  /** Fields tmas adds on its own (`seed`, `stream_options`) that it refused in a 400: its requests go without them (refused-field.ts). */
  omitted: Set<string>;
  calls: number;
  errors: number;
  /** Failed attempts in a row (overloads aside): a replica of a pool is drained after `downAfter`. */
  failedAttempts: number;
  /** When it may take its next trial call while its last attempts failed (routing.ts). */
  trialAt: number;
  /** Attempts that failed on it since one last succeeded, overloads and returns included: the trials' backoff grows with it. */
  failuresInARow: number;
  drained: boolean;
  /** Calls in a row that failed for good; a success resets it. */
  consecutiveFailures: number;
  down: UserError | null;
}

/** What an endpoint's state starts from: the gateway's settings, their defaults applied. */
export interface EndpointSettings {
  concurrency: number;
  replicaMaxInFlight?: number;
  serverQueue: ServerQueue;
  stream: boolean;
  batchCap?: BatchCap;
  dialect?: RequestDialect;
  /** The longest period between two readings of its load. */
  maxPollMs: number;
  /** Hears that a server's `/metrics` are not used, and why (belied-metrics.ts). */
  onMetricsUnused?: (endpoint: string, reason: string) => void;
  /** Hears that a server's `/metrics`, which did not answer at first, answer now (metrics-recheck.ts). */
  onMetricsFound?: (endpoint: string) => void;
}

/**
 * The state of an endpoint seen for the first time. `ceiling` gives, on a
 * replica of a pool, the largest knee cap its other replicas found, which
 * bounds its own slow start (throughput-knee.ts).
 */
export function createEndpointState(baseUrl: string, endpoint: Endpoint, settings: EndpointSettings, ceiling?: () => number | null): EndpointState {
  const { serverQueue } = settings;
  const max = Math.min(settings.concurrency, settings.replicaMaxInFlight ?? settings.concurrency);
  const aimd = createAimdLimit(max);
  const load = createLoadLimit(max);
  const poll = createPollPeriod(settings.maxPollMs);
  const knee = createThroughputKnee(ceiling === undefined ? {} : { ceiling });
  if (settings.batchCap === 'none') knee.disable();
  return {
    get sequenceSpeed() {
      return knee.sequenceRate ?? poll.pace;
    },
    get kneeSize() {
      return knee.active ? knee.knee : null;
    },
    prefixes: createPrefixMemory(),
    prefixHits: 0,
    returns: 0,
    drainsInARow: 0,
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
    streamUsage: { state: serverQueue === 'short' && settings.stream && settings.batchCap !== 'none' ? 'asked' : 'off', tokens: 0 },
    text: createStreamedText(),
    watch: createFirstTokenWatch(),
    poll,
    nextReadAt: performance.now() + poll.ms,
    metrics: { state: 'unknown', misses: 0, pending: false, belied: 0, beliedSince: 0, timeoutMs: METRICS_TIMEOUT_MS, rechecks: 0, recheckAt: Number.POSITIVE_INFINITY, periodMs: settings.maxPollMs },
    series: new SeriesContinuity(),
    onMetricsUnused: settings.onMetricsUnused ?? (() => undefined),
    onMetricsFound: settings.onMetricsFound ?? (() => undefined),
    dialect: settings.dialect ?? 'chat',
    omitted: new Set(),
    calls: 0,
    errors: 0,
    failedAttempts: 0,
    trialAt: 0,
    failuresInARow: 0,
    drained: false,
    consecutiveFailures: 0,
    down: null,
  };
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
