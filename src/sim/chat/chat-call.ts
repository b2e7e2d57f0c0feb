/**
 * A chat completion request as the simulator accepts it, or the refusal a
 * server would send before any work: a body too large or not JSON, a request
 * the OpenAI checks reject, a model it does not serve, sampling fields that
 * OpenAI's reasoning models refuse, or a system message naming no role it
 * answers. An accepted request names its role and its problem.
 */
import { createHash } from 'node:crypto';
import type { SimProblem } from '../model/catalogue.ts';
import type { ChatContext } from './chat-context.ts';
import type { RequestLogEntry } from '../http/request-log.ts';
import { isRequestProblem, toChatRequest, type ChatRequest } from '../http/request.ts';
import { BARE_PROMPT, type AskedRole, type SimRoles } from '../model/sim-roles.ts';
import { roleOf, splitBarePrompt, splitProblem } from '../model/wire.ts';

/** An accepted request: what it asks, of which role, about which problem. */
export interface ChatCall {
  request: ChatRequest;
  asked: AskedRole;
  /** Its system message ('' for a bare prompt). */
  system: string;
  problem: SimProblem;
  /** The user message after its problem. */
  rest: string;
}

/** A request refused before any work: an OpenAI-shaped error, or a body of its own (vLLM's answer to an unknown model). */
export type Refusal =
  | { refused: 'error'; status: number; message: string; param: string | null; code: string | null }
  | { refused: 'body'; status: number; body: Record<string, unknown> };

/**
 * Reads `body` (null: over the size limit) as a chat call of this server, or
 * refuses it. Fills in what the request log says of it (its key, parameters,
 * role, problem and seed) and counts its role in the server's stats.
 */
export function readChatCall(body: string | null, context: ChatContext, entry: RequestLogEntry): ChatCall | Refusal {
  if (body === null) return refuse(413, 'the request body is too large for the simulated model', null, 'request_too_large');
  entry.key = createHash('sha256').update(body).digest('hex');
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return refuse(400, 'the request body is not valid JSON', null, 'invalid_json');
  }
  if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
    const { messages: _messages, ...params } = parsed as Record<string, unknown>;
    entry.params = params;
  }
  const request = toChatRequest(parsed, context.model);
  if (isRequestProblem(request)) return refuse(400, request.message, request.param);
  if (context.models !== null && !context.models.has(request.model)) {
    // vLLM's answer to a model it does not serve.
    return { refused: 'body', status: 404, body: { object: 'error', message: `The model \`${request.model}\` does not exist.`, type: 'NotFoundError', param: null, code: 404 } };
  }
  const unsupported = context.openaiReasoning ? refuseAsOpenaiReasoning(request) : null;
  if (unsupported !== null) return unsupported;
  const system = request.messages.find((m) => m.role === 'system' || m.role === 'developer')?.content ?? '';
  const asked = system === '' ? BARE_PROMPT : roleOf(system, context.roles);
  if (asked === null) return refuse(400, `cannot tell which agent this request is for: ${roleHint(context.roles)}`, 'messages', 'unknown_role');
  const user = [...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  const { problem, rest } = system === '' ? splitBarePrompt(user, context.catalogue) : splitProblem(user, context.catalogue);
  entry.role = asked.role;
  entry.problem = problem.id;
  entry.seed = request.seed ?? null;
  context.stats.byRole[asked.role] = (context.stats.byRole[asked.role] ?? 0) + 1;
  if (!problem.known) context.stats.unknownProblems++;
  return { request, asked, system, problem, rest };
}

/** Whether `call` was refused. */
export function isRefusal(call: ChatCall | Refusal): call is Refusal {
  return 'refused' in call;
}

function refuse(status: number, message: string, param: string | null, code: string | null = null): Refusal {
  return { refused: 'error', status, message, param, code };
}

/** What OpenAI's reasoning models refuse: `max_tokens`, a temperature other than 1, other sampling fields. */
function refuseAsOpenaiReasoning(request: ChatRequest): Refusal | null {
  if (request.sentMaxTokens) {
    return refuse(400, "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", 'max_tokens', 'unsupported_parameter');
  }
  if (request.temperature !== null && request.temperature !== 1) {
    return refuse(400, `Unsupported value: 'temperature' does not support ${request.temperature} with this model. Only the default (1) value is supported.`, 'temperature', 'unsupported_value');
  }
  const [field] = request.sampling;
  if (field !== undefined) return refuse(400, `Unsupported parameter: '${field}' is not supported with this model.`, field, 'unsupported_parameter');
  return null;
}

/** What a request must say to be answered, naming the roles this server answers. */
function roleHint(roles: SimRoles): string {
  const names = [...roles.keys()].map((role) => role[0]?.toUpperCase() + role.slice(1));
  return `a request without a system message is answered as a bare prompt; otherwise the system message must say "You are the <Role> agent" with Role one of ${names.join(', ')}`;
}
