/**
 * The simulator's routes: GET /v1/models and /v1/models/:id, POST
 * /v1/chat/completions (chat.ts), GET /metrics (Prometheus, vLLM's names;
 * what it exposes follows SimOptions.metrics) and, with the capacity model
 * on, GET /sim/stats; anything else is a 404 JSON error naming the routes.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { handleChat } from './chat/chat.ts';
import type { ChatContext, SimStats } from './chat/chat-context.ts';
import { idleMetrics, toPrometheusText } from './capacity/prometheus.ts';
import { sendError, sendJson } from './http/http.ts';
import type { SimMetrics } from './sim-options.ts';

/** What the routes serve from. */
export interface RouteContext {
  chat: ChatContext;
  stats: SimStats;
  /** The model id that labels the metrics. */
  model: string;
  /** The models listed, as /v1/models lists them. */
  cards: ReadonlyArray<{ id: string; object: string; created: number; owned_by: string }>;
  exposed: SimMetrics;
}

/** The request handler of one server. */
export function createRouter(context: RouteContext): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const { chat, stats, cards, exposed } = context;
  // Chat requests in progress: the running requests of GET /metrics without the capacity model.
  let inProgress = 0;
  return async (req, res) => {
    stats.requests++;
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (req.method === 'POST' && path === '/v1/chat/completions') {
      inProgress++;
      res.once('close', () => inProgress--);
      return handleChat(req, res, chat);
    }
    if (req.method === 'GET' && path === '/metrics' && exposed !== 'none') return sendMetrics(req, res, context, inProgress);
    if (req.method === 'GET' && path === '/sim/stats') {
      req.resume();
      if (chat.capacity === null) return sendError(res, 404, 'the capacity model is off: start the simulator with --capacity (or SimOptions.capacity) for GET /sim/stats', { code: 'not_found' });
      return sendJson(res, 200, chat.capacity.engine.stats());
    }
    if (req.method === 'GET' && path === '/v1/models') return sendJson(res, 200, { object: 'list', data: cards });
    const card = cards.find((c) => path === `/v1/models/${c.id}`);
    if (req.method === 'GET' && card) return sendJson(res, 200, card);
    req.resume(); // drain any body so the connection stays usable
    sendError(res, 404, `no route ${req.method ?? '?'} ${path}: the simulated model serves GET /v1/models, POST /v1/chat/completions, ${exposed === 'none' ? '' : 'GET /metrics '}and GET /sim/stats`, {
      code: 'not_found',
    });
  };
}

/** GET /metrics: the capacity model's gauges, counters and histograms, or only its gauges, or without it the chats in progress. */
function sendMetrics(req: IncomingMessage, res: ServerResponse, { chat, model, exposed }: RouteContext, inProgress: number): void {
  req.resume();
  const full = chat.capacity === null ? idleMetrics(inProgress) : chat.capacity.engine.metrics();
  const { running, waiting, kvUsage } = full;
  const text = toPrometheusText(model, exposed === 'gauges' ? { running, waiting, kvUsage } : full, Date.now());
  res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
