/**
 * The gateway's counters, and the stats the progress display and
 * metrics.json read from them and from each endpoint's state.
 */
import { createLatencySample, type KeptLatencies, type LatencySample, type LatencySummary } from '../load/latency-sample.ts';
import { countingStreams } from './stream-usage.ts';
import type { CompletionRequest } from '../reply/completion.ts';
import type { Dispatcher } from '../dispatch/dispatcher.ts';
import type { EndpointState } from './endpoint-state.ts';
import type { ServerQueue } from './gateway-options.ts';
import type { Reply } from '../reply/reply.ts';
import type { RequestDialect } from '../request/request-body.ts';

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
  /** The server's load at the last reading, and where it came from; null before one (or with `--server-queue server`). Readings stop while it has no calls: at a run's end, the load while its last calls ran. */
  server: { running: number; waiting: number; source: 'metrics' | 'streams' } | null;
  /** Times the limit was halved after a 429 or 503. */
  decreases: number;
  down: boolean;
  /** How requests to it are sent. */
  dialect: RequestDialect;
  /** Attempts it answered, and attempts that failed on it. */
  calls: number;
  errors: number;
  /** A replica of a pool that kept failing and gets no calls until it answers again. */
  drained: boolean;
  /** Times the replica came back after it was drained. */
  returns: number;
  /** Of its `calls` (attempts answered), those sent where most of their prompt's prefix was, as far as `--routing prefix` can tell (0 under `least-loaded`): never more than `calls`. */
  prefixHits: number;
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
  /** Replies whose reasoning came in each dialect (`reasoning_content`, `reasoning`, `thinking`, `think-tags`, `harmony`). */
  reasoningDialects: Record<string, number>;
  /** Characters of text streamed so far, reasoning included: the progress display's rate of generation. */
  streamedChars: number;
  /** Successful attempts' time to first token and generation time (streamed calls only). */
  latency: { firstTokenMs: LatencySummary; generationMs: LatencySummary };
  /** The samples these latencies are summarised from, for a summary over several processes (summarizeLatencies). */
  latencySamples: { firstTokenMs: KeptLatencies; generationMs: KeptLatencies };
  endpoints: EndpointStats[];
}

/** What metrics.json keeps of the gateway's counters at the end of a run (in-flight counts are 0 by then). */
export function gatewaySummary(stats: GatewayStats) {
  const { retries, retriesByCause, failures, otherModel, noUsage, reasoningDialects, latency, endpoints } = stats;
  return { retries, retriesByCause, failures, otherModel, noUsage, reasoningDialects, latency, endpoints };
}

/** The gateway's running counts, which the calls add to; the latencies are samples, summarised when read. */
export type GatewayCounters = Pick<GatewayStats, 'retries' | 'retriesByCause' | 'failures' | 'otherModel' | 'noUsage' | 'reasoningDialects' | 'streamedChars'> & {
  firstTokenMs: LatencySample;
  generationMs: LatencySample;
};

/** Counters at zero. */
export function createGatewayCounters(): GatewayCounters {
  return {
    retries: 0,
    retriesByCause: {},
    failures: 0,
    otherModel: 0,
    noUsage: 0,
    reasoningDialects: {},
    streamedChars: 0,
    firstTokenMs: createLatencySample(),
    generationMs: createLatencySample(),
  };
}

/** Counts what a reply says beyond its text: another model, no usage, its reasoning dialect. */
export function noteReply(counters: GatewayCounters, request: CompletionRequest, reply: Reply): void {
  if (reply.model !== null && reply.model !== request.endpoint.model) counters.otherModel++;
  if (reply.usage === null) counters.noUsage++;
  const dialects = counters.reasoningDialects;
  if (reply.reasoningDialect !== null) dialects[reply.reasoningDialect] = (dialects[reply.reasoningDialect] ?? 0) + 1;
}

/** An endpoint's counts in one ledger (ledger.ts): attempts it answered, attempts that failed on it, calls sent to it that found their prompt's prefix there. */
export type EndpointCounts = Pick<EndpointStats, 'calls' | 'errors' | 'prefixHits'>;

/**
 * The stats at this moment, with the counts of one ledger (ledger.ts): the
 * gateway's, or those of one of the runs that share it; the rest (calls in
 * flight and held, each endpoint's limit, load, knee and health) is the gateway's.
 */
export function statsOf(ledger: { counters: GatewayCounters; endpoint(state: EndpointState): EndpointCounts }, endpoints: Iterable<EndpointState>, dispatcher: Dispatcher<EndpointState>, serverQueue: ServerQueue): GatewayStats {
  const perEndpoint = [...endpoints].map((state) => ({ ...endpointStatsOf(state, dispatcher, serverQueue), ...countsOf(ledger.endpoint(state)) }));
  const { counters } = ledger;
  const { firstTokenMs, generationMs } = counters;
  return {
    inFlight: dispatcher.inFlight,
    queued: dispatcher.held,
    limit: dispatcher.concurrency,
    retries: counters.retries,
    retriesByCause: { ...counters.retriesByCause },
    failures: counters.failures,
    otherModel: counters.otherModel,
    noUsage: counters.noUsage,
    reasoningDialects: { ...counters.reasoningDialects },
    streamedChars: counters.streamedChars,
    // Sorts two samples of up to 20,000 latencies: only when read (metrics.json), not on every
    // progress redraw, which reads the counts above four times a second on a terminal.
    get latency() {
      return { firstTokenMs: firstTokenMs.summary(), generationMs: generationMs.summary() };
    },
    get latencySamples() {
      return { firstTokenMs: firstTokenMs.kept(), generationMs: generationMs.kept() };
    },
    endpoints: perEndpoint,
  };
}

/** An endpoint's counts in a ledger, as its stats name them. */
function countsOf({ calls, errors, prefixHits }: EndpointCounts): Pick<EndpointStats, 'calls' | 'errors' | 'prefixHits'> {
  return { calls, errors, prefixHits };
}

function endpointStatsOf(state: EndpointState, dispatcher: Dispatcher<EndpointState>, serverQueue: ServerQueue): EndpointStats {
  return {
    baseUrl: state.url,
    limit: state.limit,
    knee: serverQueue === 'short' ? state.kneeSize : null,
    kneeSource: kneeSourceOf(state, serverQueue),
    inFlight: state.inFlight,
    waiting: dispatcher.heldFor(state.pool),
    server: serverOf(state, serverQueue),
    decreases: state.aimd.decreases,
    down: state.down !== null,
    dialect: state.dialect,
    calls: state.calls,
    errors: state.errors,
    drained: state.drained,
    returns: state.returns,
    prefixHits: state.prefixHits,
  };
}

function serverOf(state: EndpointState, serverQueue: ServerQueue): EndpointStats['server'] {
  const last = state.load.last;
  if (serverQueue !== 'short' || last === null) return null;
  return { running: last.running, waiting: last.waiting, source: state.metrics.state === 'yes' ? 'metrics' : 'streams' };
}

function kneeSourceOf(state: EndpointState, serverQueue: ServerQueue): EndpointStats['kneeSource'] {
  if (serverQueue !== 'short' || !state.knee.active) return null;
  if (state.streamUsage.state === 'counting') return 'streams';
  if (countingStreams(state)) return 'text';
  return state.counter === true ? 'server' : null;
}
