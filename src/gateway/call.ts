/**
 * One call, from its first attempt to its last: each attempt waits for a
 * slot (dispatcher.ts) on one of its replicas (replica-pool.ts), is sent
 * (attempt.ts), and on a transient failure is retried after a backoff
 * (retry.ts); an endpoint that asks for another dialect, or refuses the
 * usage field, gets the call again at once, which is no attempt.
 */
import { APIError } from 'openai';
import type { ErrorCode } from '../kernel/errors.ts';
import { refuseOtherModel, type PoolReplyModels } from './endpoints/pool-reply-models.ts';
import { attempt, settleTokens, type AttemptContext, type Attempted } from './attempt.ts';
import { CallDrained, CallFailedError } from './request/call-failed.ts';
import { rejectsChatDialect, rejectsContinuousUsage, refusesStreaming, refusesSystemRole } from './request/dialect.ts';
import { OWN_FIELDS, refusedField } from './request/refused-field.ts';
import type { Tally } from './endpoints/ledger.ts';
import { prefixKeysOf } from './dispatch/prefix-keys.ts';
import { joinBody, requestBodyParts, type BodyParts } from './request/request-body.ts';
import { backoffMs, classifyFailure, failureLabel, saysOverloaded, type BackoffOptions, type FailureKind } from './request/retry.ts';
import { forwardedRefusalNote } from './request/proxy/proxy-failure.ts';
import { askingUsage, refuseStreamUsage } from './endpoints/stream-usage.ts';
import type { Completion, CompletionRequest } from './reply/completion.ts';
import type { Dispatcher } from './dispatch/dispatcher.ts';
import type { EndpointState } from './endpoints/endpoint-state.ts';
import type { GatewayOptions } from './endpoints/gateway-options.ts';
import type { Reply } from './reply/reply.ts';
import { inferredFinish } from './reply/finish-reason.ts';
import { limitedTokens } from './reply/usage-counts.ts';
import { separatedOnceCut } from './reply/reasoning.ts';
import { tellOnce } from './told-once.ts';
import type { ReplicaPool } from './endpoints/replica-pool.ts';
import type { Routing } from './dispatch/routing.ts';

/** What a call works with. */
export interface CallContext {
  options: GatewayOptions;
  stream: boolean;
  backoff: BackoffOptions;
  routing: Routing;
  dispatcher: Dispatcher<EndpointState>;
  pool: ReplicaPool;
  /** What an attempt works with, less the tally of its call (ledger.ts). */
  attempt: Omit<AttemptContext, 'tally'>;
  /** An error as the user reads it, keys redacted. */
  describe: (error: unknown) => string;
  /** The call's arrival order among all calls. */
  nextSequence: () => number;
  /** What was told once per endpoint (GatewayOptions onOtherModel, onFiltered, onReasoningOnly): its keys. */
  toldOnce: Set<string>;
  /** The models each pool's replicas answered with: a replica serving another model is drained (pool-reply-models.ts). */
  replyModels: PoolReplyModels;
  /** Aborted when the gateway drains (Gateway.drain): a call waiting to be retried gives up (CallDrained). */
  drain: AbortSignal;
}

/** Thrown inside a call when an endpoint was just switched to another dialect. */
class DialectAdopted extends Error {}

/** The code of a call that failed for good, by how its last attempt failed. */
const FAILURE_CODES = {
  transient: 'TMAS_CALL_FAILED',
  'wait-too-long': 'TMAS_RATE_LIMITED',
  'context-length': 'TMAS_CONTEXT_LENGTH',
  auth: 'TMAS_AUTH',
  proxy: 'TMAS_PROXY',
  quota: 'TMAS_QUOTA',
  'model-gone': 'TMAS_MODEL_NOT_SERVED',
  'route-gone': 'TMAS_ENDPOINT',
  redirected: 'TMAS_REDIRECTED',
  'not-streamed': 'TMAS_NOT_STREAMED',
  'web-page': 'TMAS_WEB_PAGE',
  'in-band': 'TMAS_CALL_REJECTED',
  'refused-field': 'TMAS_FIELD_REFUSED',
  fatal: 'TMAS_CALL_REJECTED',
} as const satisfies Record<Exclude<FailureKind, 'aborted'>, ErrorCode>;

/** The rank of a call that has none: a loop call ahead of every ranked one. */
const FIRST_RANK = { grading: false, remaining: Number.POSITIVE_INFINITY } as const;

/** A call's request bodies, and whether it still asks for continuous usage. */
interface CallBodies {
  /** Set when a 400 or 422 that names nothing came back to a request asking for continuous usage: it is sent once without. */
  usageDropped: boolean;
  /** The replica that rejected the request (a 4xx, a prompt over its window) while another replica was live: it went there once. */
  rejectedBy: { state: EndpointState; error: unknown } | null;
  asksUsage(state: EndpointState): boolean;
  bodyFor(state: EndpointState): Promise<BodyParts>;
}

/** Encodes a call's body once per dialect and usage asked: a retry sends the pieces it already has. */
function callBodies(request: CompletionRequest, options: GatewayOptions, stream: boolean): CallBodies {
  const bodies = new Map<string, Promise<BodyParts>>();
  const call: CallBodies = {
    usageDropped: false,
    rejectedBy: null,
    asksUsage: (state) => !call.usageDropped && askingUsage(state),
    bodyFor: (state) => {
      const { dialect } = state;
      const continuousUsage = call.asksUsage(state);
      const omit = state.omitted;
      const key = `${dialect} ${continuousUsage} ${[...omit].join()}`;
      let body = bodies.get(key);
      if (body === undefined) bodies.set(key, (body = requestBodyParts(request, options.encodeJson, { dialect, stream, continuousUsage, omit: new Set(omit) })));
      return body;
    },
  };
  return call;
}

/** Makes one call, retrying its transient failures; what it does is counted into `tally`. */
export async function completeCall(context: CallContext, request: CompletionRequest, signal: AbortSignal | undefined, tally: Tally): Promise<Completion> {
  const { dispatcher } = context;
  const started = performance.now();
  const call = callBodies(request, context.options, context.stream);
  const rank = request.rank ?? FIRST_RANK;
  // A retry keeps the call's place among the held calls of its rank.
  const arrival = context.nextSequence();
  // Only a pool is routed by its prompts' prefixes: one endpoint has nothing to choose.
  const prefix = context.routing === 'prefix' && (request.endpoint.replicas?.length ?? 0) > 1 ? prefixKeysOf(request.messages) : null;
  let failedOn: EndpointState | null = null;
  const attemptContext: AttemptContext = { ...context.attempt, tally };
  for (let attempts = 1; ; attempts++) {
    const { pool, replicas } = context.pool.replicasOf(request, attempts);
    // Encoded before waiting for a slot, as the first replica takes it; a slot is not held for it.
    await call.bodyFor(replicas[0] as EndpointState);
    // Rejects on an abort, or when the pool goes down while the call is held: neither is an attempt.
    // Whether this attempt went where its prompt's prefix was: counted only if it answers, as the replica's calls are.
    const sentTo = { prefixHit: false };
    const onPrefixHit = prefix === null ? null : () => void (sentTo.prefixHit = true);
    const state = await dispatcher.admit({ pool, replicas, rank, sequence: arrival, tieBreak: request.seed + attempts, prefix, avoid: failedOn, onPrefixHit }, signal);
    try {
      const dialect = state.dialect;
      const askedUsage = call.asksUsage(state);
      const sentWithout = new Set(state.omitted);
      let attempted: Attempted;
      try {
        // Joined only now: a held call keeps the pieces, whose messages it shares with its equal prompts.
        const body = joinBody(await call.bodyFor(state));
        attempted = await attempt(attemptContext, request, state, body, askedUsage, signal).catch((error: unknown) => {
          const failure = sendAgainOr(context, state, call, { dialect, askedUsage, sentWithout }, error);
          // Counted before the slot is given back: the pump that follows must see that the replica failed (routing.ts).
          if (!(failure instanceof DialectAdopted) && !signal?.aborted && classifyFailure(failure) === 'transient') context.pool.replicaFailed(state, request, failure);
          throw failure;
        });
      } finally {
        state.aimd.onDone();
        dispatcher.release(state);
      }
      const countedTokens = await settleTokens(attempted);
      const said = attempted.reply;
      const finishReason = said.finishReason ?? finishOfTokens(context, state, request, { ...said, countedTokens });
      const result = said.finishReason === null && finishReason === 'length' ? separatedOnceCut(said) : said;
      refuseOtherModel(context.replyModels, context.pool, { state, request, named: result.model });
      // Refused with the field, answered without it: the field was the trouble.
      if (call.usageDropped) refuseStreamUsage(state);
      succeeded(tally, state, request, result, sentTo.prefixHit);
      // A sibling accepted what a replica rejected: that replica is configured unlike the pool, and counts a failed attempt.
      if (call.rejectedBy !== null && call.rejectedBy.state !== state) context.pool.replicaFailed(call.rejectedBy.state, request, call.rejectedBy.error);
      tellOddReply(context, state, request, result, finishReason);
      tellImpossibleUsage(context, state, attempted);
      const { finishSaid, choices, ...completion } = result;
      return { ...completion, finishReason, countedTokens, replica: state.url, attempts, latencyMs: performance.now() - started };
    } catch (error) {
      if (error instanceof DialectAdopted) {
        // Not a failure of the call: it is sent again at once in the dialect the endpoint asked for.
        attempts--;
        continue;
      }
      failedOn = state;
      await sleep(waitAfter(context, tally, { state, request, error, attempts, call }, signal), signal, context.drain);
    }
  }
}

/** How an attempt's request was sent: its dialect, whether it asked for continuous usage, the fields of tmas's own it went without. */
interface SentAs {
  dialect: EndpointState['dialect'];
  askedUsage: boolean;
  sentWithout: ReadonlySet<string>;
}

/**
 * What an attempt's error means: DialectAdopted when the call is to be sent
 * again at once (the endpoint refused continuous usage, or was switched to
 * the reasoning dialect, or gave a validation error that may be about the
 * usage field), else the error itself.
 */
function sendAgainOr(context: CallContext, state: EndpointState, call: CallBodies, sent: SentAs, error: unknown): unknown {
  const { dialect, askedUsage } = sent;
  if (omitOwnField(context, state, sent.sentWithout, error)) return new DialectAdopted();
  if (askedUsage && rejectsContinuousUsage(error)) {
    refuseStreamUsage(state);
    return new DialectAdopted();
  }
  const adopted = dialect === 'chat' ? adoptReasoningDialect(context, state, error) : error;
  // A validation error that names no field (FastAPI's 422, a bare 400) may be about ours: the call is sent once without it.
  // A prompt too long for the window is not about it: that error goes back as it is, for the call to shrink its prompt.
  // An error after the 200 (in-band) is not either: the server took the request's fields.
  // A refusal that names another field (one a flag sets) is not about it either.
  const validation = error instanceof APIError && (error.status === 400 || error.status === 422) && classifyFailure(error) === 'fatal';
  if (askedUsage && !(adopted instanceof DialectAdopted) && validation) {
    call.usageDropped = true;
    return new DialectAdopted();
  }
  return adopted;
}

/**
 * An endpoint that refuses a field tmas adds on its own (`seed`, or
 * `stream_options` as a whole, as Azure's and older OpenAI-compatible
 * servers do, or `stream`, as OpenAI's reasoning models do for an
 * organization not verified) goes without it from then on, told once; the
 * call is then sent again. Before, each call refused to stream was sent
 * twice and failed, and every problem of the run stopped. A refusal of `continuous_usage_stats` alone is the usage's own
 * (stream-usage.ts), and `include_usage` is kept for it.
 */
function omitOwnField(context: CallContext, state: EndpointState, sentWithout: ReadonlySet<string>, error: unknown): boolean {
  // Streaming refused (OpenAI's reasoning models for an organization not verified): its calls go whole, as with --no-stream.
  // The system role refused (a chat template without one): its message opens the first user message.
  const field = refusesStreaming(error) ? 'stream' : refusesSystemRole(error) ? 'system' : refusedField(error);
  // Refused although it was not sent: the refusal is about something else, and sending it again would change nothing.
  if (field === null || !OWN_FIELDS.has(field) || sentWithout.has(field) || (field === 'stream' && !context.stream)) return false;
  if (error instanceof APIError && /continuous_usage_stats/.test(error.message)) return false;
  // A call sent with it before another's refusal made the endpoint go without it: sent again, told once.
  if (state.omitted.has(field)) return true;
  state.omitted.add(field);
  // Not streamed, a request has no stream_options either: its usage comes with the whole reply.
  if (field === 'stream') state.omitted.add('stream_options');
  if (field === 'stream_options' || field === 'stream') refuseStreamUsage(state);
  context.options.onOmitted?.(state.url, field, context.describe(error));
  return true;
}

/**
 * An endpoint that refuses `max_tokens` or a sampling field in a 400 (as
 * OpenAI's reasoning models do) is switched to the `openai-reasoning`
 * dialect for the rest of the run; the call is then sent again in it.
 */
function adoptReasoningDialect(context: CallContext, state: EndpointState, error: unknown): unknown {
  // OpenAI's chat models word a refused max_tokens as an unknown argument, as a server that knows only max_completion_tokens may.
  const reason = rejectsChatDialect(error) ?? (refusedField(error) === 'max_tokens' ? 'max_tokens' : null);
  if (reason === null) return error;
  if (state.dialect === 'chat') {
    state.dialect = 'openai-reasoning';
    context.options.onDialect?.(state.url, 'openai-reasoning', context.describe(error));
  }
  return new DialectAdopted();
}

/** An attempt answered: the endpoint's counts of failures in a row start again. */
function succeeded(tally: Tally, state: EndpointState, request: CompletionRequest, result: Reply, prefixHit: boolean): void {
  state.aimd.onSuccess();
  state.consecutiveFailures = 0;
  state.failedAttempts = 0;
  state.failuresInARow = 0;
  state.drainsInARow = 0;
  tally.answered(state, request, result, prefixHit);
}

/** What a reply that answered tells of its server, each once per endpoint: another model, no answer, several choices. */
function tellOddReply(context: CallContext, state: EndpointState, request: CompletionRequest, result: Reply, finishReason: string): void {
  tellOtherModel(context, state, request, result);
  tellUnanswered(context, state, result, finishReason);
  if (result.choices > 1) tellOnce(context.toldOnce, `choices\n${state.url}`, () => context.options.onSeveralChoices?.(state.url, result.choices));
}

/**
 * A usage whose counts no reply could have (completion tokens its text
 * cannot hold, prompt tokens past its request's bytes) is ignored; the user
 * is told once per endpoint, as every total of the run then rests on the
 * run's own counts: before, a prompt count of 10^15 was set to 0 unsaid.
 */
function tellImpossibleUsage(context: CallContext, state: EndpointState, attempted: Attempted): void {
  const { belied, beliedPrompt, chars } = attempted;
  const what =
    belied !== null
      ? `${belied} completion tokens for a reply of ${chars} character${chars === 1 ? '' : 's'}, counted with the run's tokenizer instead (usage.estimated in the journal)`
      : beliedPrompt !== null
        ? `${beliedPrompt} prompt tokens for a request of ${attempted.requestBytes} bytes, counted as none; its completion tokens are kept`
        : null;
  if (what === null) return;
  tellOnce(context.toldOnce, `usage\n${state.url}`, () => context.options.onImpossibleUsage?.(state.url, what));
}

/** A reply that names another model than the one asked for is told of, once per endpoint and model named. */
function tellOtherModel(context: CallContext, state: EndpointState, request: CompletionRequest, result: Reply): void {
  const asked = request.endpoint.model;
  const named = result.model;
  if (named === null || named === asked) return;
  tellOnce(context.toldOnce, `model\n${state.url}\n${asked}\n${named}`, () => context.options.onOtherModel?.(state.url, asked, named));
}

/**
 * A reply that gives no answer for a reason the server's settings may be
 * behind is told of once per endpoint: one its content filter stopped, and
 * one that finished with its whole text in the reasoning and none in the
 * answer, where no role looks for an answer (a reasoning parser that does not match the
 * model takes all of its reply for reasoning: every output unusable, and the
 * run's tables empty, with nothing else to say why).
 */
function tellUnanswered(context: CallContext, state: EndpointState, result: Reply, finishReason: string): void {
  if (finishReason === 'content_filter') tellOnce(context.toldOnce, `filtered\n${state.url}`, () => context.options.onFiltered?.(state.url));
  if (finishReason === 'stop' && result.content.trim() === '' && (result.reasoning ?? '').trim() !== '') {
    tellOnce(context.toldOnce, `reasoning only\n${state.url}`, () => context.options.onReasoningOnly?.(state.url, result.reasoningDialect ?? 'reasoning'));
  }
}

/**
 * The finish reason of a whole reply that gave none tmas knows, from its
 * completion tokens (inferredFinish); the user is told once per endpoint and
 * word, as its replies are graded on that inference.
 */
function finishOfTokens(context: CallContext, state: EndpointState, request: CompletionRequest, reply: { usage: Reply['usage']; countedTokens: number | null; finishSaid: string | null }): string {
  const { finishSaid } = reply;
  tellOnce(context.toldOnce, `finish\n${state.url}\n${finishSaid ?? ''}`, () => context.options.onFinishUnknown?.(state.url, finishSaid));
  return inferredFinish(reply.usage === null ? reply.countedTokens : limitedTokens(reply.usage), request.maxTokens);
}

/**
 * A failed attempt: counted on its endpoint, then either the call fails for
 * good (throws CallFailedError, or the abort) or the wait before the next
 * attempt is returned.
 */
function waitAfter(context: CallContext, tally: Tally, failure: { state: EndpointState; request: CompletionRequest; error: unknown; attempts: number; call: CallBodies }, signal: AbortSignal | undefined): number {
  const { describe } = context;
  const { state, request, error, attempts, call } = failure;
  const kind = classifyFailure(error);
  if (kind === 'aborted' || signal?.aborted) throw error;
  tally.attemptFailed(state);
  // Not retried, nor failed for good: the resume sends it again.
  if (context.drain.aborted) throw new CallDrained({ cause: error });
  if (saysOverloaded(error)) state.aimd.onOverload();
  // A request one replica rejects goes once to another live one: a replica set up unlike its siblings (a smaller
  // window, a route missing) lost whole problems while they would have answered.
  const otherLive = context.pool.hasOtherLive(state, request);
  const elsewhere = (kind === 'fatal' || kind === 'context-length' || kind === 'refused-field' || kind === 'model-gone' || kind === 'route-gone' || kind === 'redirected' || kind === 'web-page') && call.rejectedBy === null && attempts <= context.options.maxRetries && otherLive;
  // A 4xx inside a streamed reply is retried once (retry.ts): the same request failing again is the request's fault.
  // A replica that asks for a wait longer than any call waits (retry.ts) leaves the call to the others, if any.
  const retriedAnyway = kind === 'transient' || (kind === 'wait-too-long' && otherLive);
  const retried = retriedAnyway ? attempts <= context.options.maxRetries : (kind === 'in-band' || kind === 'web-page') && attempts <= Math.min(1, context.options.maxRetries);
  if (elsewhere) call.rejectedBy = { state, error };
  else if (!retried) {
    tally.failed();
    const code = FAILURE_CODES[kind];
    context.pool.failedForGood(state, request, error, attempts, kind === 'transient');
    // A forwarding proxy's own 403 reads as the server's refusal of the key: the message names the proxy too.
    const note = kind === 'auth' ? forwardedRefusalNote(state.url, (error as { status?: number }).status) : '';
    throw new CallFailedError(code, `${state.url} (${request.endpoint.model}): ${describe(error)}${note}`, attempts, {
      cause: error,
    });
  }
  tally.retried(failureLabel(error));
  // The backoff spares the server that failed; the retry goes to another replica when the pool has one live
  // (routing.ts avoids the one it failed on), which it need not wait for: a Retry-After of one replica kept
  // the call from the others.
  const waitMs = otherLive ? 0 : backoffMs(attempts, error, context.backoff);
  context.options.onRetry?.({ endpoint: state.url, attempt: attempts, error: describe(error), waitMs });
  return waitMs;
}

/** Waits `ms` before a retry; rejects when `signal` aborts, or with CallDrained when the gateway drains meanwhile. */
function sleep(ms: number, signal: AbortSignal | undefined, drain: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    if (drain.aborted) return reject(new CallDrained());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      drain.removeEventListener('abort', onDrain);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      drain.removeEventListener('abort', onDrain);
      reject(signal?.reason);
    };
    const onDrain = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      reject(new CallDrained());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    drain.addEventListener('abort', onDrain, { once: true });
  });
}
