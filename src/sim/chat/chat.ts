/**
 * POST /v1/chat/completions: validate, find the role and the problem
 * (chat-call.ts), decide this attempt's fault (attempts.ts), wait the drawn
 * latency, and send the reply (chat-reply.ts) or the fault (fault-replies.ts).
 * The reply itself never depends on the fault, the attempt or the time.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { nextAttempt } from './attempts.ts';
import { isRefusal, readChatCall, type Refusal } from './chat-call.ts';
import type { ChatContext } from './chat-context.ts';
import { buildReply, type ReplyBody } from './chat-reply.ts';
import { promptTokensOf } from '../http/completion.ts';
import { sendPaced } from '../capacity/paced-reply.ts';
import { sendBroken, sendEarlyFault, sendServerFault, sendStalled } from '../faults/fault-replies.ts';
import type { FaultKind } from '../faults/faults.ts';
import { readBody, sendError, sendJson } from '../http/http.ts';
import { latencyMs } from '../http/latency.ts';
import { rngOf } from '../model/random.ts';
import type { RequestLogEntry } from '../http/request-log.ts';
import type { ChatRequest } from '../http/request.ts';
import { sendStream, toStreamEvents, type StreamUsage } from '../http/stream.ts';

/** Handles one chat completion request. */
export async function handleChat(req: IncomingMessage, res: ServerResponse, context: ChatContext): Promise<void> {
  const entry: RequestLogEntry = { at: Date.now(), role: null, problem: null, key: '', seed: null, status: null, fault: null };
  const done = (status: number | null): void => {
    context.log?.write({ ...entry, status });
  };

  const call = readChatCall(await readBody(req), context, entry);
  if (isRefusal(call)) {
    sendRefusal(res, call);
    return done(call.status);
  }
  const { request } = call;
  const seed = context.settings.seed;
  const { attempt, fault } = nextAttempt(context, entry.key);
  if (fault !== null) entry.fault = fault;

  const promptTokens = promptTokensOf(request.messages);
  const early = sendEarlyFault(res, fault, { model: request.model, promptTokens, maxTokens: request.maxTokens, seed, key: entry.key, attempt, hold: context.hold });
  if (early !== null) return done(early.status);

  if (context.capacity === null) {
    const delay = latencyMs(context.latency, rngOf(seed, 'latency', entry.key, attempt));
    if (delay > 0 && !(await context.sleep(delay))) return;
  }
  const failed = sendServerFault(res, fault);
  if (failed !== null) return done(failed.status);

  const reply = buildReply(call, context, { fault, key: entry.key, promptTokens });
  await sendReply(res, context, { request, fault, promptTokens, ...reply, done });
}

/** Sends the error of a refused request. */
function sendRefusal(res: ServerResponse, refusal: Refusal): void {
  if (refusal.refused === 'body') sendJson(res, refusal.status, refusal.body);
  else sendError(res, refusal.status, refusal.message, { param: refusal.param, code: refusal.code });
}

/** A reply ready to send. */
interface ReadyReply {
  request: ChatRequest;
  fault: FaultKind | null;
  promptTokens: number;
  body: ReplyBody;
  outputTokens: number;
  /** Logs the request with the status sent (null: no complete response). */
  done(status: number | null): void;
}

/** Sends the reply whole or streamed, paced by the capacity model when it is on, broken where its fault says. */
async function sendReply(res: ServerResponse, context: ChatContext, { request, fault, promptTokens, body, outputTokens, done }: ReadyReply): Promise<void> {
  const broken = fault === 'stall' || fault === 'reset' || fault === 'malformed' ? fault : null;
  const sendWhole = (): void => {
    if (fault === 'stall') return sendStalled(res, JSON.stringify(body), context.hold, () => done(null));
    if (fault === 'malformed' || fault === 'reset') return sendBroken(res, JSON.stringify(body), fault, () => done(fault === 'reset' ? null : 200));
    sendJson(res, 200, body);
    done(200);
  };
  const capacity = context.capacity;
  if (capacity !== null) {
    const stream = request.stream ? toStreamEvents(body, context.stream.chunkTokens, usageOf(request, context.continuousUsage)) : null;
    const prompt = request.messages.map((m) => `${m.role}\n${m.content}\n`).join('');
    await sendPaced(res, { engine: capacity.engine, prompt, promptTokens, outputTokens, stream, fault: broken, hold: context.hold, sendWhole });
    if (request.stream) done(broken === 'stall' || broken === 'reset' || res.destroyed ? null : 200);
    return;
  }
  if (request.stream) {
    // Without the capacity model the server ignores continuous_usage_stats, as many servers do (llama.cpp, hosted APIs): it models no decoding to report.
    await sendStream(res, body, { settings: context.stream, usage: { final: request.includeUsage, continuous: false }, fault: broken, sleep: context.sleep, hold: context.hold });
    return done(broken === 'stall' || broken === 'reset' ? null : 200);
  }
  sendWhole();
}

/** The usage a stream of `request` sends under the capacity model. */
function usageOf(request: ChatRequest, honoured: boolean): StreamUsage {
  return { final: request.includeUsage, continuous: honoured && request.continuousUsage };
}
