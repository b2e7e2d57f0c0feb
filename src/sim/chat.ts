/**
 * POST /v1/chat/completions: validate, find the role and the problem, decide
 * this attempt's fault, wait the drawn latency, and send the reply (or the
 * fault). The reply itself never depends on the fault, the attempt or the time.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Catalogue } from './catalogue.ts';
import { finish, promptTokensOf, toResponseBody, type Finished, type SimReasoningDialect } from './completion.ts';
import { sendStream, toStreamEvents, type StreamSettings, type StreamUsage } from './stream.ts';
import type { CapacityEngine } from './capacity/engine.ts';
import type { CapacitySettings } from './capacity/options.ts';
import { outputLengthOf } from './capacity/output-length.ts';
import { sendPaced } from './capacity/paced-reply.ts';
import { decideFault, sendsRetryAfter, type FaultKind, type FaultRates } from './faults.ts';
import { filler, tokensOf } from './filler.ts';
import { readBody, sendError, sendJson } from './http.ts';
import { latencyMs, type LatencyOptions } from './latency.ts';
import { rngOf } from './random.ts';
import type { RequestLog, RequestLogEntry } from './request-log.ts';
import { isRequestProblem, toChatRequest, type ChatRequest } from './request.ts';
import { replyKeyOf, replyTo, type ReplySettings } from './respond.ts';
import { BARE_PROMPT, type SimRoles } from './sim-roles.ts';
import { roleOf, splitBarePrompt, splitProblem } from './wire.ts';

/** Counters the server reports through `stats()`. */
export interface SimStats {
  /** Every HTTP request, whatever its route or outcome. */
  requests: number;
  /** Chat completion requests by role. */
  byRole: Record<string, number>;
  /** Injected faults by kind. */
  faults: Record<string, number>;
  /** Chat requests whose `<problem>` block matched none of the server's problems. */
  unknownProblems: number;
}

/** What the chat handler needs from the server. */
export interface ChatContext {
  settings: ReplySettings;
  model: string;
  /** The models served; null: any name is accepted and echoed. */
  models: ReadonlySet<string> | null;
  reasoningDialect: SimReasoningDialect;
  stream: StreamSettings;
  /** Refuse `max_tokens` and sampling fields as OpenAI's reasoning models do. */
  openaiReasoning: boolean;
  catalogue: Catalogue;
  /** The role names it answers and each one's reply format (SimOptions.roles). */
  roles: SimRoles;
  faults: FaultRates;
  latency: LatencyOptions | 0;
  /** The capacity model, when on: it decides when replies come and how many tokens they report. */
  capacity: { engine: CapacityEngine; settings: CapacitySettings } | null;
  /** Under the capacity model, whether `continuous_usage_stats` is honoured (SimOptions.continuousUsage). */
  continuousUsage: boolean;
  /** Epoch seconds the server started: the `created` of every response. */
  created: number;
  stats: SimStats;
  /** Attempts seen per request body whose last attempt failed (the key is the body's sha256). */
  attempts: Map<string, number>;
  log: RequestLog | null;
  /** Resolves true after `ms`, or false as soon as the server closes. */
  sleep(ms: number): Promise<boolean>;
  /** Keeps a response open until the client gives up or the server closes. */
  hold(res: ServerResponse): void;
}

/** Bodies whose attempts are tracked at most; the oldest are forgotten first. */
const MAX_TRACKED = 100_000;

function track(attempts: Map<string, number>, key: string, attempt: number): void {
  attempts.delete(key);
  if (attempts.size >= MAX_TRACKED) {
    const oldest = attempts.keys().next();
    if (!oldest.done) attempts.delete(oldest.value);
  }
  attempts.set(key, attempt);
}

/** What a request must say to be answered, naming the roles this server answers. */
function roleHint(roles: SimRoles): string {
  const names = [...roles.keys()].map((role) => role[0]?.toUpperCase() + role.slice(1));
  return `a request without a system message is answered as a bare prompt; otherwise the system message must say "You are the <Role> agent" with Role one of ${names.join(', ')}`;
}

/** Handles one chat completion request. */
export async function handleChat(req: IncomingMessage, res: ServerResponse, context: ChatContext): Promise<void> {
  const entry: RequestLogEntry = { at: Date.now(), role: null, problem: null, key: '', seed: null, status: null, fault: null };
  const done = (status: number | null): void => {
    context.log?.write({ ...entry, status });
  };
  const reject = (status: number, message: string, param: string | null, code: string | null = null): void => {
    sendError(res, status, message, { param, code });
    done(status);
  };

  const body = await readBody(req);
  if (body === null) return reject(413, 'the request body is too large for the simulated model', null, 'request_too_large');
  entry.key = createHash('sha256').update(body).digest('hex');
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return reject(400, 'the request body is not valid JSON', null, 'invalid_json');
  }
  if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
    const { messages: _messages, ...params } = parsed as Record<string, unknown>;
    entry.params = params;
  }
  const request = toChatRequest(parsed, context.model);
  if (isRequestProblem(request)) return reject(400, request.message, request.param);
  if (context.models !== null && !context.models.has(request.model)) {
    // vLLM's answer to a model it does not serve.
    sendJson(res, 404, { object: 'error', message: `The model \`${request.model}\` does not exist.`, type: 'NotFoundError', param: null, code: 404 });
    return done(404);
  }
  if (context.openaiReasoning) {
    if (request.sentMaxTokens) {
      return reject(400, "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", 'max_tokens', 'unsupported_parameter');
    }
    if (request.temperature !== null && request.temperature !== 1) {
      return reject(400, `Unsupported value: 'temperature' does not support ${request.temperature} with this model. Only the default (1) value is supported.`, 'temperature', 'unsupported_value');
    }
    const [field] = request.sampling;
    if (field !== undefined) return reject(400, `Unsupported parameter: '${field}' is not supported with this model.`, field, 'unsupported_parameter');
  }
  const system = request.messages.find((m) => m.role === 'system' || m.role === 'developer')?.content ?? '';
  const asked = system === '' ? BARE_PROMPT : roleOf(system, context.roles);
  if (asked === null) return reject(400, `cannot tell which agent this request is for: ${roleHint(context.roles)}`, 'messages', 'unknown_role');
  const user = [...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  const { problem, rest } = system === '' ? splitBarePrompt(user, context.catalogue) : splitProblem(user, context.catalogue);
  entry.role = asked.role;
  entry.problem = problem.id;
  entry.seed = request.seed ?? null;
  context.stats.byRole[asked.role] = (context.stats.byRole[asked.role] ?? 0) + 1;
  if (!problem.known) context.stats.unknownProblems++;

  const seed = context.settings.seed;
  const attempt = (context.attempts.get(entry.key) ?? 0) + 1;
  const fault = decideFault(context.faults, seed, entry.key, attempt);
  if (fault === null) context.attempts.delete(entry.key);
  else {
    track(context.attempts, entry.key, attempt);
    context.stats.faults[fault] = (context.stats.faults[fault] ?? 0) + 1;
    entry.fault = fault;
  }

  const promptTokens = promptTokensOf(request.messages);
  // Rejections a real server makes before any work come back at once.
  if (fault === '429') {
    const headers = sendsRetryAfter(seed, entry.key, attempt) ? { 'retry-after': '1' } : {};
    sendError(res, 429, `Rate limit reached for ${request.model} (simulated fault). Please try again later.`, {
      type: 'requests',
      code: 'rate_limit_exceeded',
      headers,
    });
    return done(429);
  }
  if (fault === 'context') {
    const requested = promptTokens + (request.maxTokens ?? 0);
    const window = 2 ** Math.floor(Math.log2(Math.max(2, requested - 1)));
    return reject(
      400,
      `This model's maximum context length is ${window} tokens. However, you requested ${requested} tokens ` +
        `(${promptTokens} in the messages, ${request.maxTokens ?? 0} in the completion). ` +
        'Please reduce the length of the messages or completion. (simulated fault)',
      'messages',
      'context_length_exceeded',
    );
  }
  if (fault === 'hang') {
    context.hold(res);
    return done(null);
  }

  const capacity = context.capacity;
  if (capacity === null) {
    const delay = latencyMs(context.latency, rngOf(seed, 'latency', entry.key, attempt));
    if (delay > 0 && !(await context.sleep(delay))) return;
  }
  if (fault === '500' || fault === '503') {
    const message = fault === '500' ? 'The server had an error while processing your request' : 'The server is overloaded or not ready yet';
    sendError(res, Number(fault), `${message} (simulated fault).`, { type: 'server_error', code: null });
    return done(Number(fault));
  }

  const replyKey = replyKeyOf(seed, request);
  const reply = replyTo(asked, problem, rest, replyKey, context.settings, system);
  let finished = damage(finish(reply.content, reply.reasoning, request.maxTokens), fault);
  // Under the capacity model the text stays the same; the tokens it reports (and pays for) are drawn.
  const outputTokens =
    capacity === null
      ? 0
      : outputLengthOf(
          replyKey,
          { median: capacity.settings.outputTokensMedian, p99: capacity.settings.outputTokensP99, problemSpread: capacity.settings.outputTokensProblemSpread, problem: problem.id },
          request.maxTokens,
        );
  if (capacity !== null && fault !== 'empty' && fault !== 'length') {
    // A thinking model's text grows with its tokens: padded reasoning, when asked, so that counting the text counts the decoding.
    const padding = Math.round(outputTokens * capacity.settings.textCharsPerToken) - finished.content.length - (finished.reasoning?.length ?? 0);
    const reasoning = padding > 0 ? `${finished.reasoning ?? ''}${filler(padding, rngOf(seed, 'thinking', entry.key, 0))}` : finished.reasoning;
    finished = { ...finished, reasoning, completionTokens: outputTokens };
  }
  const responseBody = toResponseBody(
    { id: `chatcmpl-sim-${entry.key.slice(0, 24)}`, created: context.created, model: request.model, promptTokens },
    finished,
    context.reasoningDialect,
  );
  const broken = fault === 'stall' || fault === 'reset' || fault === 'malformed' ? fault : null;
  const sendWhole = (): void => {
    if (fault === 'stall') return sendStalled(res, JSON.stringify(responseBody), context.hold, () => done(null));
    if (fault === 'malformed' || fault === 'reset') return sendBroken(res, JSON.stringify(responseBody), fault, () => done(fault === 'reset' ? null : 200));
    sendJson(res, 200, responseBody);
    done(200);
  };
  if (capacity !== null) {
    const stream = request.stream ? toStreamEvents(responseBody, context.stream.chunkTokens ?? 8, usageOf(request, context.continuousUsage)) : null;
    const prompt = request.messages.map((m) => `${m.role}\n${m.content}\n`).join('');
    await sendPaced(res, { engine: capacity.engine, prompt, promptTokens, outputTokens, stream, fault: broken, hold: context.hold, sendWhole });
    if (request.stream) done(broken === 'stall' || broken === 'reset' || res.destroyed ? null : 200);
    return;
  }
  if (request.stream) {
    // Without the capacity model the server ignores continuous_usage_stats, as many servers do (llama.cpp, hosted APIs): it models no decoding to report.
    await sendStream(res, responseBody, { settings: context.stream, usage: { final: request.includeUsage, continuous: false }, fault: broken, sleep: context.sleep, hold: context.hold });
    return done(broken === 'stall' || broken === 'reset' ? null : 200);
  }
  sendWhole();
}

/** The usage a stream of `request` sends under the capacity model. */
function usageOf(request: ChatRequest, honoured: boolean): StreamUsage {
  return { final: request.includeUsage, continuous: honoured && request.continuousUsage };
}

/** `stall` without streaming: the headers and half the body, then silence until the client gives up. */
function sendStalled(res: ServerResponse, text: string, hold: (res: ServerResponse) => void, done: () => void): void {
  if (res.destroyed) return;
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.write(text.slice(0, Math.floor(text.length / 2)));
  hold(res);
  done();
}

/** The `length` and `empty` faults: a reply that arrives but is damaged. */
function damage(reply: Finished, fault: FaultKind | null): Finished {
  const reasoningTokens = reply.reasoning === null ? 0 : tokensOf(reply.reasoning);
  if (fault === 'empty') return { ...reply, content: '', finishReason: 'stop', completionTokens: reasoningTokens };
  if (fault === 'length') {
    const content = reply.content.slice(0, Math.floor(reply.content.length / 2));
    return { ...reply, content, finishReason: 'length', completionTokens: reasoningTokens + tokensOf(content) };
  }
  return reply;
}

/**
 * `malformed`: a 200 whose body is cut in half, so it is not JSON.
 * `reset`: the headers promise the whole body, half is sent, then the socket is destroyed.
 */
function sendBroken(res: ServerResponse, text: string, fault: 'malformed' | 'reset', done: () => void): void {
  if (res.destroyed) return;
  const half = text.slice(0, Math.floor(text.length / 2));
  const length = Buffer.byteLength(fault === 'reset' ? text : half);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': length });
  if (fault === 'malformed') res.end(half);
  else res.write(half, () => res.socket?.destroy());
  done();
}
