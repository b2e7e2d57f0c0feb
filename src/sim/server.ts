/**
 * The embedded simulated model (docs/guide/simulated-model.md): a real OpenAI-compatible
 * HTTP server on loopback that the runtime's `openai` client talks to over
 * real sockets. It is not a model. It knows each problem's reference answer,
 * answers every TMAS role in that role's output format with a hidden accuracy
 * model that makes the loop dynamics visible, and can add latency and faults.
 *
 * Routes: GET /v1/models, GET /v1/models/:id, POST /v1/chat/completions,
 * GET /metrics (Prometheus, vLLM's names; see SimOptions.metrics) and, with the capacity model on,
 * GET /sim/stats (routes.ts); anything else is a 404 JSON error. Streams (SSE) when asked. Every field of a reply is a
 * function of the request, except `created` (the server's start time). Its settings: sim-options.ts.
 *
 * @example
 * const sim = await startSimServer({ problems: [{ id: 'p1', question: 'What is 1+1?', answer: '2' }] });
 * const client = new OpenAI({ baseURL: sim.url, apiKey: 'sim' });
 * // ... run against it, then:
 * await sim.close();
 */
import { preloadMathjs } from '../grader/index.ts';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCatalogue } from './model/catalogue.ts';
import type { ChatContext, SimStats } from './chat/chat-context.ts';
import { FAULT_KINDS } from './faults/faults.ts';
import { FORMAT_BREAKS } from './faults/format-breaks.ts';
import { sendError } from './http/http.ts';
import { OpenReplies } from './faults/open-replies.ts';
import { openRequestLog, type RequestLog } from './http/request-log.ts';
import { createRouter } from './routes.ts';
import { checkOptions, type SimOptions } from './sim-options.ts';
import { SIM_DEFAULTS } from './defaults.ts';
import { FORMAT_ROLES } from './model/sim-roles.ts';
import { createScaledClock } from './capacity/clock.ts';
import { createCapacityEngine, type CapacityEngine, type CapacityStats } from './capacity/engine.ts';
import { resolveCapacity, type CapacityOptions, type CapacitySettings } from './capacity/options.ts';

export type { FaultKind, FaultRates } from './faults/faults.ts';
export { FAULT_KINDS, parseFaults } from './faults/faults.ts';
export { FORMAT_BREAKS, type FormatBreak } from './faults/format-breaks.ts';
export type { LatencyOptions } from './http/latency.ts';
export type { SimStats } from './chat/chat-context.ts';
export type { CapacityOptions } from './capacity/options.ts';
export type { CapacityStats } from './capacity/engine.ts';
export { SIM_METRICS, type SimMetrics, type SimOptions } from './sim-options.ts';

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

/** The capacity model of a server, started on the wall clock sped up by its time scale. */
function startCapacity(options: CapacityOptions | undefined): { engine: CapacityEngine; settings: CapacitySettings } | null {
  if (options === undefined) return null;
  const settings = resolveCapacity(options);
  return { engine: createCapacityEngine(settings, createScaledClock(settings.timeScale)), settings };
}

function zeroCounts(names: readonly string[]): Record<string, number> {
  return Object.fromEntries(names.map((name) => [name, 0]));
}

/** What the chat handler works from: the options with their defaults, the server's counters, its log and its open replies. */
function toChatContext(options: SimOptions, server: { model: string; created: number; log: RequestLog | null; open: OpenReplies }): ChatContext {
  const seed = options.seed ?? SIM_DEFAULTS.seed;
  const roles = options.roles ?? FORMAT_ROLES;
  return {
    settings: {
      seed,
      outputTokens: options.outputTokens ?? SIM_DEFAULTS.outputTokens,
      verifierAccuracy: options.verifierAccuracy ?? SIM_DEFAULTS.verifierAccuracy,
      distillTokens: options.distillTokens ?? SIM_DEFAULTS.distillTokens,
      reasoning: (options.reasoning ?? SIM_DEFAULTS.reasoning) !== false,
    },
    model: server.model,
    models: options.models ? new Set(options.models) : null,
    reasoningDialect: typeof options.reasoning === 'string' ? options.reasoning : 'reasoning_content',
    stream: { tokensPerSecond: options.stream?.tokensPerSecond ?? SIM_DEFAULTS.stream.tokensPerSecond, chunkTokens: options.stream?.chunkTokens ?? SIM_DEFAULTS.stream.chunkTokens },
    openaiReasoning: options.openaiReasoning ?? SIM_DEFAULTS.openaiReasoning,
    catalogue: createCatalogue(seed, options.problems),
    roles,
    faults: options.faults ?? {},
    breakFormats: options.breakFormats ?? SIM_DEFAULTS.breakFormats,
    latency: options.latency ?? SIM_DEFAULTS.latency,
    capacity: startCapacity(options.capacity),
    continuousUsage: options.continuousUsage ?? SIM_DEFAULTS.continuousUsage,
    created: server.created,
    stats: { requests: 0, byRole: zeroCounts([...roles.keys()]), faults: zeroCounts(FAULT_KINDS), formatBreaks: zeroCounts(FORMAT_BREAKS), unknownProblems: 0 },
    attempts: new Map(),
    log: server.log,
    sleep: server.open.sleep,
    hold: server.open.hold,
  };
}

/** Listens on `host`:`port`; rejects when it cannot (the port taken, the host unknown). */
function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port, backlog: BACKLOG }, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Starts the simulated model and resolves once it listens. */
export async function startSimServer(options: SimOptions): Promise<SimServer> {
  checkOptions(options);
  // The simulator grades answers while replies stream: load mathjs before serving.
  preloadMathjs();
  const model = options.models?.[0] ?? options.model ?? SIM_DEFAULTS.model;
  const served = options.models ?? [model];
  const log = options.requestLog ? await openRequestLog(options.requestLog) : null;
  const created = Math.floor(Date.now() / 1000);
  const open = new OpenReplies();
  const context = toChatContext(options, { model, created, log, open });
  const { stats, capacity } = context;
  const cards = served.map((id) => ({ id, object: 'model', created, owned_by: 'tmas-sim' }));
  const route = createRouter({ chat: context, stats, model, cards, exposed: options.metrics ?? SIM_DEFAULTS.metrics });

  const server = createServer({ noDelay: true, keepAlive: true, requestTimeout: 300_000, headersTimeout: KEEP_ALIVE_MS + 5_000 }, (req, res) => {
    route(req, res).catch((error: unknown) => {
      // A bug in the simulator, not a simulated fault: say so in the reply.
      sendError(res, 500, `simulator bug: ${error instanceof Error ? error.message : String(error)}`, { type: 'server_error', code: 'sim_internal' });
    });
  });
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  await listen(server, options.host ?? SIM_DEFAULTS.host, options.port ?? SIM_DEFAULTS.port).catch(async (error: unknown) => {
    await log?.close();
    throw error;
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  let closing = false;
  return {
    url: `http://${shownHost}:${address.port}/v1`,
    stats: () => structuredClone(stats),
    capacityStats: () => capacity?.engine.stats() ?? null,
    async close() {
      if (closing) return;
      closing = true;
      capacity?.engine.close();
      open.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await log?.close();
    },
  };
}
