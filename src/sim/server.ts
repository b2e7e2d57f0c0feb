/**
 * The embedded simulated model (DESIGN.md section 6): a real OpenAI-compatible
 * HTTP server on loopback that the runtime's `openai` client talks to over
 * real sockets. It is not a model. It knows each problem's reference answer,
 * answers every TMAS role in that role's output format with a hidden accuracy
 * model that makes the loop dynamics visible, and can add latency and faults.
 *
 * Routes: GET /v1/models, GET /v1/models/:id, POST /v1/chat/completions,
 * GET /metrics (Prometheus, vLLM's names; see SimOptions.metrics) and, with the capacity model on,
 * GET /sim/stats; anything else is a 404 JSON error. Streams (SSE) when asked. Every field of a reply is a
 * function of the request, except `created` (the server's start time).
 *
 * @example
 * const sim = await startSimServer({ problems: [{ id: 'p1', question: 'What is 1+1?', answer: '2' }] });
 * const client = new OpenAI({ baseURL: sim.url, apiKey: 'sim' });
 * // ... run against it, then:
 * await sim.close();
 */
import { preloadMathjs } from '../grader/index.ts';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCatalogue, type ProblemInput } from './catalogue.ts';
import { handleChat, type ChatContext, type SimStats } from './chat.ts';
import { checkFaultRates, FAULT_KINDS, type FaultRates } from './faults.ts';
import { sendError, sendJson } from './http.ts';
import { checkLatency, type LatencyOptions } from './latency.ts';
import { openRequestLog } from './request-log.ts';
import { FORMAT_ROLES, type SimRoles } from './sim-roles.ts';
import type { SimReasoningDialect } from './completion.ts';
import type { StreamSettings } from './stream.ts';
import { createScaledClock } from './capacity/clock.ts';
import { createCapacityEngine, type CapacityEngine, type CapacityStats } from './capacity/engine.ts';
import { resolveCapacity, type CapacityOptions, type CapacitySettings } from './capacity/options.ts';
import { idleMetrics, toPrometheusText } from './capacity/prometheus.ts';

export type { FaultKind, FaultRates } from './faults.ts';
export { FAULT_KINDS, parseFaults } from './faults.ts';
export type { LatencyOptions } from './latency.ts';
export type { SimStats } from './chat.ts';
export type { CapacityOptions } from './capacity/options.ts';
export type { CapacityStats } from './capacity/engine.ts';

/** Settings of the simulated model. */
export interface SimOptions {
  /** The problems it knows; a reference answer is invented for those without one. */
  problems: ProblemInput[];
  /**
   * The role names it answers ("You are the X agent") and the reply format of
   * each: tmas passes its strategies' declarations (machines/strategies/sim-roles.ts).
   * Default: each format answers the role named after it (src/sim/sim-roles.ts).
   */
  roles?: SimRoles;
  /** Seeds everything: difficulties, distractors, replies, faults. Default 0. */
  seed?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: an ephemeral port. */
  port?: number;
  /** Log-normal latency per request, or 0 (the default) to answer at once. */
  latency?: LatencyOptions | 0;
  /** Approximate length of a solution in tokens (±30%); verifications are about half. Default 250. */
  outputTokens?: number;
  /** Fault rates per attempt; none by default. */
  faults?: FaultRates;
  /** Also send reasoning, as reasoning models do: `true` or `reasoning_content` (vLLM, DeepSeek), `reasoning` (newer vLLM, OpenRouter), `think-tags` (inline in the content). */
  reasoning?: boolean | SimReasoningDialect;
  /** Pace and chunking of streamed replies (`"stream": true`). */
  stream?: StreamSettings;
  /** Refuse `max_tokens`, a temperature other than 1 and other sampling fields with a 400, as OpenAI's reasoning models do. */
  openaiReasoning?: boolean;
  /** The models served and listed: a request for another gets vLLM's 404. Default: lists `model` and accepts any name. */
  models?: string[];
  /** Append one JSON line per chat request to this file. */
  requestLog?: string;
  /** The model id listed by /v1/models when `models` is not given. Requests may then name any model; it is echoed back. Default 'tmas-sim'. */
  model?: string;
  /** Chance that a verification's verdict is right. Default 0.8. */
  verifierAccuracy?: number;
  /**
   * The capacity model of one GPU server (off by default): replies take the
   * time continuous batching would give them under the current load, and
   * report drawn output lengths. Cannot be combined with `latency` or a
   * stream pace, which it replaces.
   */
  capacity?: CapacityOptions;
  /**
   * What GET /metrics exposes: `vllm` (the default: vLLM's gauges, counters
   * and histograms), `gauges` (only the request and KV-cache gauges, as an
   * exporter without counters) or `none` (a 404, as an endpoint without
   * Prometheus metrics, such as a proxy in front of the server).
   */
  metrics?: SimMetrics;
  /**
   * Under the capacity model, whether a stream asked for
   * `stream_options.continuous_usage_stats` carries the usage so far in every
   * chunk, as vLLM and SGLang do (the default), or only at its end, as TGI,
   * llama.cpp and hosted APIs, which ignore the field.
   */
  continuousUsage?: boolean;
}

/** What the simulator's GET /metrics exposes. */
export const SIM_METRICS = ['vllm', 'gauges', 'none'] as const;
export type SimMetrics = (typeof SIM_METRICS)[number];

/** A running simulated model. */
export interface SimServer {
  /** Base URL for the `openai` client, e.g. http://127.0.0.1:PORT/v1. */
  url: string;
  /** Counters since start. */
  stats(): SimStats;
  /** The capacity model's figures (simulated seconds), or null when it is off. */
  capacityStats(): CapacityStats | null;
  /** Stops listening, drops open and hanging connections, flushes the request log. */
  close(): Promise<void>;
}

/** Idle keep-alive sockets live longer than clients keep them (undici: 4 s), so a client never reuses one the server is closing. */
const KEEP_ALIVE_MS = 65_000;
/** Room for 800 clients connecting at once. */
const BACKLOG = 4096;

function checkOptions(options: SimOptions): void {
  if (!Array.isArray(options.problems)) throw new TypeError('problems must be an array of { id, question, answer? }');
  if (options.outputTokens !== undefined && !(options.outputTokens >= 1)) throw new TypeError(`outputTokens must be >= 1, got ${options.outputTokens}`);
  const accuracy = options.verifierAccuracy;
  if (accuracy !== undefined && !(accuracy >= 0 && accuracy <= 1)) throw new TypeError(`verifierAccuracy must be in [0, 1], got ${accuracy}`);
  if (options.latency) checkLatency(options.latency);
  if (options.faults) checkFaultRates(options.faults);
  if (options.capacity) {
    if (options.latency) throw new TypeError('latency cannot be combined with capacity: the capacity model decides when each reply comes');
    if (options.stream?.tokensPerSecond) throw new TypeError('stream.tokensPerSecond cannot be combined with capacity: the capacity model paces streams');
    resolveCapacity(options.capacity);
  }
  if (options.metrics !== undefined && !SIM_METRICS.includes(options.metrics)) throw new TypeError(`metrics must be one of ${SIM_METRICS.join(', ')}, got ${String(options.metrics)}`);
}

/** The capacity model of a server, started on the wall clock sped up by its time scale. */
function startCapacity(options: CapacityOptions | undefined): { engine: CapacityEngine; settings: CapacitySettings } | null {
  if (options === undefined) return null;
  const settings = resolveCapacity(options);
  return { engine: createCapacityEngine(settings, createScaledClock(settings.timeScale)), settings };
}

function zeroCounts(names: readonly string[]): Record<string, number> {
  return Object.fromEntries(names.map((name) => [name, 0]));
}

/** Starts the simulated model and resolves once it listens. */
export async function startSimServer(options: SimOptions): Promise<SimServer> {
  checkOptions(options);
  // The simulator grades answers while replies stream: load mathjs before serving.
  preloadMathjs();
  const seed = options.seed ?? 0;
  const model = options.models?.[0] ?? options.model ?? 'tmas-sim';
  const served = options.models ?? [model];
  const host = options.host ?? '127.0.0.1';
  const log = options.requestLog ? await openRequestLog(options.requestLog) : null;
  const roles = options.roles ?? FORMAT_ROLES;
  const stats: SimStats = { requests: 0, byRole: zeroCounts([...roles.keys()]), faults: zeroCounts(FAULT_KINDS), unknownProblems: 0 };
  const created = Math.floor(Date.now() / 1000);
  const held = new Set<ServerResponse>();
  const sleepers = new Set<{ timer: NodeJS.Timeout; wake: (ok: boolean) => void }>();
  let closing = false;

  const context: ChatContext = {
    settings: {
      seed,
      outputTokens: options.outputTokens ?? 250,
      verifierAccuracy: options.verifierAccuracy ?? 0.8,
      reasoning: (options.reasoning ?? false) !== false,
    },
    model,
    models: options.models ? new Set(options.models) : null,
    reasoningDialect: typeof options.reasoning === 'string' ? options.reasoning : 'reasoning_content',
    stream: options.stream ?? {},
    openaiReasoning: options.openaiReasoning ?? false,
    catalogue: createCatalogue(seed, options.problems),
    roles,
    faults: options.faults ?? {},
    latency: options.latency ?? 0,
    capacity: startCapacity(options.capacity),
    continuousUsage: options.continuousUsage ?? true,
    created,
    stats,
    attempts: new Map(),
    log,
    sleep(ms) {
      if (closing) return Promise.resolve(false);
      return new Promise((resolve) => {
        const sleeper = {
          timer: setTimeout(() => {
            sleepers.delete(sleeper);
            resolve(true);
          }, ms),
          wake: resolve,
        };
        sleepers.add(sleeper);
      });
    },
    hold(res) {
      held.add(res);
      res.on('close', () => held.delete(res));
    },
  };

  const cards = served.map((id) => ({ id, object: 'model', created, owned_by: 'tmas-sim' }));
  let inProgress = 0;
  const capacity = context.capacity;
  const exposed = options.metrics ?? 'vllm';
  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    stats.requests++;
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (req.method === 'POST' && path === '/v1/chat/completions') {
      inProgress++;
      res.once('close', () => inProgress--);
      return handleChat(req, res, context);
    }
    if (req.method === 'GET' && path === '/metrics' && exposed !== 'none') {
      req.resume();
      const full = capacity === null ? idleMetrics(inProgress) : capacity.engine.metrics();
      const { running, waiting, kvUsage } = full;
      const text = toPrometheusText(model, exposed === 'gauges' ? { running, waiting, kvUsage } : full, Date.now());
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'content-length': Buffer.byteLength(text) });
      res.end(text);
      return;
    }
    if (req.method === 'GET' && path === '/sim/stats') {
      req.resume();
      if (capacity === null) return sendError(res, 404, 'the capacity model is off: start the simulator with --capacity (or SimOptions.capacity) for GET /sim/stats', { code: 'not_found' });
      return sendJson(res, 200, capacity.engine.stats());
    }
    if (req.method === 'GET' && path === '/v1/models') return sendJson(res, 200, { object: 'list', data: cards });
    const card = cards.find((c) => path === `/v1/models/${c.id}`);
    if (req.method === 'GET' && card) return sendJson(res, 200, card);
    req.resume(); // drain any body so the connection stays usable
    sendError(res, 404, `no route ${req.method ?? '?'} ${path}: the simulated model serves GET /v1/models, POST /v1/chat/completions, ${exposed === 'none' ? '' : 'GET /metrics '}and GET /sim/stats`, {
      code: 'not_found',
    });
  }

  const server = createServer({ noDelay: true, keepAlive: true, requestTimeout: 300_000, headersTimeout: KEEP_ALIVE_MS + 5_000 }, (req, res) => {
    route(req, res).catch((error: unknown) => {
      // A bug in the simulator, not a simulated fault: say so in the reply.
      sendError(res, 500, `simulator bug: ${error instanceof Error ? error.message : String(error)}`, { type: 'server_error', code: 'sim_internal' });
    });
  });
  server.keepAliveTimeout = KEEP_ALIVE_MS;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port: options.port ?? 0, backlog: BACKLOG }, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch(async (error: unknown) => {
    await log?.close();
    throw error;
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    url: `http://${shownHost}:${address.port}/v1`,
    stats: () => structuredClone(stats),
    capacityStats: () => capacity?.engine.stats() ?? null,
    async close() {
      if (closing) return;
      closing = true;
      capacity?.engine.close();
      for (const sleeper of sleepers) {
        clearTimeout(sleeper.timer);
        sleeper.wake(false);
      }
      sleepers.clear();
      for (const res of held) res.destroy();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await log?.close();
    },
  };
}
