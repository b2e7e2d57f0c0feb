/**
 * The runtime's implementation of the `llm` actor that every role references:
 * fit the prompt to the context window in the worker pool, answer from the
 * journal when this exact call already completed, otherwise call the gateway
 * and journal the result before the reply message can be delivered.
 */
import { llmLogic } from '../../../machines/start-call.ts';
import type { LlmInput, LlmOutput, LlmResult } from '../../../machines/llm.ts';
import type { RunConfig, Secrets } from '../../settings/config.ts';
import { UserError } from '../../kernel/errors.ts';
import { runStopping } from './run-stopping.ts';
import type { CallFailures } from './call-failures.ts';
import { CallDrained, CallFailedError, outOfBounds, replyLimits, type Completion, type Gateway, type ReplyLimits } from '../../gateway/gateway.ts';
import type { CallsInFlight } from './calls-in-flight.ts';
import type { FitOutput, Pool } from '../../pool/pool.ts';
import type { CallAnswer, CallRecord, Store } from '../../store/store.ts';
import { findRefit, refitPut } from '../../store/refit.ts';
import type { CallRanks } from './call-ranks.ts';
import type { JournalSource } from './journal-source.ts';
import { CONTEXT_MARGIN, shrunkWindow, statedWindow } from './context-errors.ts';
import { createServerWindows, type ServerWindows } from './server-windows.ts';
import { keyAtIteration, keyedAt, shapeOf, type CallShape, type Keyed } from './call-key.ts';
import { clippedText } from '../../kernel/clipped-text.ts';

/** The calls of a run's process: answered from the journal, sent and journaled (issued), and sent and failed for good. */
export interface CallCounts {
  reused: number;
  issued: number;
  failed: number;
}

/** What the call needs from the runtime. */
export interface LlmCallDeps {
  config: RunConfig;
  secrets: Secrets;
  /** Base URL of the embedded simulated model, for roles without their own. */
  simulatorUrl: string | null;
  pool: Pool;
  gateway: Gateway;
  store: Store;
  /** Counts calls answered from the journal, calls sent and journaled, and calls that failed for good, for the run's summary. */
  counters: CallCounts;
  /** Replay without network: a call missing from the journal fails with TMAS_REPLAY_MISS instead of being sent. */
  offline?: boolean;
  /** Calls that failed for good: their iteration sends no more calls and is not marked. */
  failures: CallFailures;
  /** Stops the whole run (a refused API key: every other call would fail the same way). */
  stopRun: (error: UserError) => void;
  /** Where each call stands in the run: the gateway sends held calls by it. */
  ranks: CallRanks;
  /** Told of each journaled answer that breaks the bounds of the gateway's replies: it is sent again. */
  onOutOfBounds?: () => void;
  /** A forked run's source journal (tmas fork): it answers the calls this run's journal lacks. */
  source?: JournalSource | null;
  /** The windows servers stated to the run's calls so far: made with the first call when not given. */
  windows?: ServerWindows;
  /** The run's calls in flight, which the first Ctrl-C lets finish (run-drain.ts). */
  inFlight?: CallsInFlight;
  /** Told of each call as it starts; what it returns is called as the call ends (the watch on an agents module's machines). */
  onCall?: ((input: LlmInput) => () => void) | null;
}

/** Context-length errors a call may meet before it gives up: each one shrinks the window. */
const MAX_CONTEXT_REFITS = 3;

/**
 * A template that the checks before the run let through but that fails on a
 * request's values (a filter applied to a value it cannot take): no call is
 * sent, and the run stops with the user's error, resumable once it is fixed.
 */
function templateFailed(deps: LlmCallDeps, input: LlmInput, error: string, attempt: number): LlmResult {
  const given = deps.config.loop.prompts[input.role];
  const what = given === undefined ? `The template of the ${input.role} role` : `The template ${given.file} (--prompt ${input.role}=…)`;
  deps.stopRun(
    new UserError(
      'TMAS_PROMPT',
      `${what} failed to render for problem ${input.problem}, iteration ${input.iteration}: ${error}. The call was not sent and the run stopped; every completed call is kept. ` +
        `Fix the template, then continue with: tmas run --resume ${deps.config.outputs.dir} --prompt ${input.role}=FILE --force`,
    ),
  );
  if (!input.grading) deps.failures.fail(input.problem, input.iteration, `${input.role}: TMAS_PROMPT: ${error}`);
  return { ok: false, request: input.request, code: 'TMAS_PROMPT', error, attempt };
}

/** Creates the `llm` logic (start-call.ts: a role's calls run its function, with no actor each). */
export function createLlmCall(deps: LlmCallDeps) {
  const run = { ...deps, windows: deps.windows ?? createServerWindows() };
  const { onCall } = deps;
  if (!onCall) return llmLogic((input, signal) => llmCall(run, input, signal));
  return llmLogic((input, signal) => {
    const ended = onCall(input);
    return llmCall(run, input, signal).finally(ended);
  });
}

/** The call's output from a journaled or just sent record. */
function answerOf(input: LlmInput, keyed: Keyed, attempt: number, contextErrors: number, call: Pick<CallRecord, 'fit' | 'response' | 'usage'>): LlmOutput {
  return {
    ok: true,
    request: input.request,
    key: keyed.key,
    promptTokens: call.fit.promptTokens,
    budget: keyed.budget,
    dropped: call.fit.dropped,
    ...(call.fit.systemValues === undefined ? {} : { systemValues: call.fit.systemValues }),
    attempt,
    ...(contextErrors > 0 ? { contextErrors } : {}),
    ...call.response,
    usage: call.usage,
  };
}

/** The journal's answer to the call keyed so (its own journal's, else a forked run's), when it holds one within bounds. */
async function journaledAt(deps: LlmCallDeps, input: LlmInput, shape: CallShape, keyed: Keyed): Promise<CallAnswer | null> {
  const { key, window } = keyed;
  const journaled = (await deps.store.getCallAnswer(key)) ?? (deps.source ? await sourceAnswer(deps, deps.source, input, shape, keyed) : undefined);
  if (!journaled || !withinBounds(deps, journaled, replyLimits(completionLimit(shape.cap, window, journaled.fit.promptTokens), completionLimit(undefined, window, journaled.fit.promptTokens)))) return null;
  deps.counters.reused++;
  if (input.grading !== true) deps.ranks.record(input.problem, journaled.usage.completionTokens);
  return journaled;
}

/**
 * A forked run's answer to the call keyed so: under the same key, else, for a judge call, under the
 * key the same request had at another iteration of the source run. A judge request is the same
 * question about the same response whichever iteration asks it, and the iteration a candidate is
 * judged at depends on the settings (majority's iteration t holds the first ⌊n(t+1)/T⌋ samples, so a
 * fork to T = 3 of a run made to T = 2 judges sample 1 at iteration 1, where the run judged it at 0,
 * with that iteration's seed): without this the fork paid again for every such verdict.
 */
async function sourceAnswer(deps: LlmCallDeps, source: JournalSource, input: LlmInput, shape: CallShape, keyed: Keyed): Promise<CallAnswer | undefined> {
  const same = await source.answer(keyed.key, deps.store);
  if (same !== undefined || input.grading !== true) return same;
  const iterations = Array.from({ length: Math.max(source.iterations, deps.config.loop.maxIterations) }, (_, iteration) => iteration);
  const elsewhere = iterations.filter((iteration) => iteration !== input.iteration).map((iteration) => keyAtIteration(deps, input, shape, keyed.window, iteration));
  return source.answerElsewhere(keyed.key, input.iteration, elsewhere, deps.store);
}

/**
 * The journal's answer (or a fork's source run's) to a call asked at the run's window (`asked`) that was
 * answered in a smaller one (refit.ts); null when none was, or the refit names a record these settings do not key.
 */
async function journaledRefit(deps: LlmCallDeps, input: LlmInput, shape: CallShape, asked: Keyed): Promise<LlmOutput | null> {
  const refit = (await findRefit(deps.store, asked.key)) ?? (deps.source ? await deps.source.refit(asked.key, deps.store) : undefined);
  if (refit === undefined || refit.window >= asked.window) return null;
  const keyed = keyedAt(deps, input, shape, refit.window);
  if (keyed.key !== refit.key) return null;
  const journaled = await journaledAt(deps, input, shape, keyed);
  return journaled === null ? null : answerOf(input, keyed, shape.attempt, refit.contextErrors, journaled);
}

/**
 * Whether a call fitted into `window` would ask for more than the server's
 * stated window `known` whatever its prompt: its completion limit alone (the
 * window less the margin, or a cap not below `known`) passes it. Such a call
 * is fitted into `known` at once, without fitting it where it would be refused.
 */
function refusedWhatever(window: number, known: number, cap: number | undefined): boolean {
  return window - CONTEXT_MARGIN > known && (cap === undefined || cap >= known);
}

/**
 * One `llm` call: from the journal when it holds it, else fitted, sent and
 * journaled; refitted into a smaller window after a context-length error.
 * A window a server stated to an earlier call of the run is the one a call
 * is fitted into when it would ask for more (server-windows.ts); the call is
 * looked up in the journal under both keys, so a resume, which starts
 * without it, answers the calls fitted to it and pays no call twice.
 */
async function llmCall(deps: LlmCallDeps & { windows: ServerWindows }, input: LlmInput, signal: AbortSignal): Promise<LlmResult> {
  const { config, windows } = deps;
  const shape = shapeOf(deps, input);
  const { endpoint, attempt, cap } = shape;
  const looked = new Set<number>();
  let window = config.context.window;
  let contextErrors = 0;
  for (;;) {
    const known = windows.of(endpoint);
    for (const at of known !== undefined && known < window ? [window, known] : [window]) {
      if (looked.has(at)) continue;
      looked.add(at);
      const keyed = keyedAt(deps, input, shape, at);
      const journaled = await journaledAt(deps, input, shape, keyed);
      if (journaled !== null) return answerOf(input, keyed, attempt, contextErrors, journaled);
      const refitted = at === config.context.window ? await journaledRefit(deps, input, shape, keyed) : null;
      if (refitted !== null) return refitted;
    }
    if (known !== undefined && known < window && refusedWhatever(window, known, cap)) {
      window = known;
      continue;
    }
    const keyed = keyedAt(deps, input, shape, window);
    const unsent = notSent(deps, input, keyed.key, attempt);
    if (unsent !== null) return unsent;
    // A memory role's prompt (a summary's M analyses) is fitted ahead of the others waiting, so its problem can let those texts go sooner.
    const fit = await deps.pool.fit(keyed.task, { signal, ahead: input.condenses === true, identity: shape.prompt });
    if (fit.renderError !== undefined) return templateFailed(deps, input, fit.renderError, attempt);
    if (fit.promptTokens > keyed.budget) {
      // Trimming could not bring it within the window (the question alone is too long): a call
      // would be paid for, or refused, for nothing. This is the call's result, the same on every
      // resume, so it is recorded with the candidate rather than stopping the iteration.
      const error = `not sent: the prompt needs ${fit.promptTokens} tokens after trimming, over the budget of ${keyed.budget} (--max-tokens ${window})`;
      return { ok: false, request: input.request, code: 'TMAS_CONTEXT_LENGTH', error, attempt };
    }
    const fitted = await withPrefix(deps, input, fit, signal);
    if (input.prefix !== undefined && window - fitted.promptTokens - CONTEXT_MARGIN < 1) {
      // The prompt and the text it continues fill the window: no token is left to continue with.
      const error = `not sent: the prompt and the text it continues need ${fitted.promptTokens} tokens, leaving none of the window (--max-tokens ${window})`;
      return { ok: false, request: input.request, code: 'TMAS_CONTEXT_LENGTH', error, attempt };
    }
    if (known !== undefined && known < window && fitted.promptTokens + completionLimit(cap, window, fitted.promptTokens) > known) {
      // Its prompt and its cap ask for more than the server said it holds: refitted without asking it.
      window = known;
      continue;
    }
    try {
      const record = await sendAndJournal(deps, { input, shape, key: keyed.key, fitted, window, contextErrors }, signal);
      if (input.grading !== true) deps.ranks.record(input.problem, record.usage.completionTokens);
      return answerOf(input, keyed, attempt, contextErrors, record);
    } catch (error) {
      if (error instanceof CallFailedError && error.code === 'TMAS_CONTEXT_LENGTH' && contextErrors < MAX_CONTEXT_REFITS) {
        // The window is smaller than --max-tokens says: fit the prompt into a smaller one and try again.
        // A window stated to a call that asked for the run's is kept for the calls after it; one stated
        // to a call already fitted into a stated window is that call's alone (a replica set up unlike
        // the one that stated it, or a server that states each time less than was asked, as the
        // simulator's fault does: kept, it would shrink the run's window at every refusal).
        const stated = statedWindow(error.message);
        if (stated !== null && stated < window && window === config.context.window) windows.stated(endpoint, stated);
        window = shrunkWindow(window, error.message, fitted.promptTokens);
        contextErrors++;
        continue;
      }
      if (error instanceof CallFailedError) return failedForGood(deps, input, error, attempt);
      throw error;
    }
  }
}

/**
 * The fitted prompt of a call that continues an assistant message: the
 * message's tokens are part of its prompt (the user part is fitted as the
 * call it continues was, so the two agree on what was left out).
 */
async function withPrefix(deps: LlmCallDeps, input: LlmInput, fitted: FitOutput, signal: AbortSignal): Promise<FitOutput> {
  if (input.prefix === undefined) return fitted;
  const [tokens = 0] = await deps.pool.countTokens([input.prefix], { signal });
  return { ...fitted, promptTokens: fitted.promptTokens + tokens };
}

/** A call's completion limit: the window less its prompt and the margin, within the run's or the role's cap. */
function completionLimit(cap: number | undefined, window: number, promptTokens: number): number {
  return Math.min(cap ?? Number.MAX_SAFE_INTEGER, Math.max(1, window - promptTokens - CONTEXT_MARGIN));
}

/**
 * Whether a journaled answer may answer its call: one that breaks the bounds
 * the gateway holds replies to now (journaled by a tmas that believed any
 * usage) is sent again, and counted for the warning at the end of the run.
 * A replay, which sends nothing, takes the journal as it is.
 */
function withinBounds(deps: LlmCallDeps, answer: CallAnswer, limits: ReplyLimits): boolean {
  if (deps.offline === true || outOfBounds(answer, limits) === null) return true;
  deps.onOutOfBounds?.();
  return false;
}

/** The result of a call that is not to be sent: a replay that misses the journal, or an iteration stopped by another call's failure; null otherwise. */
function notSent(deps: LlmCallDeps, input: LlmInput, key: string, attempt: number): LlmResult | null {
  if (deps.offline) {
    deps.failures.fail(input.problem, input.iteration, `${input.role}: TMAS_REPLAY_MISS`);
    return { ok: false, request: input.request, code: 'TMAS_REPLAY_MISS', error: `no journaled completion for ${key}`, attempt };
  }
  if (deps.failures.isStopped(input.problem, input.iteration)) {
    // The iteration is done again on resume: a call now would be paid for a result that is thrown away.
    deps.failures.skip(input.problem, input.iteration);
    return { ok: false, request: input.request, code: 'TMAS_CALL_SKIPPED', error: 'not sent: another call of this iteration failed for good', attempt };
  }
  return null;
}

/** A call fitted and ready to be sent: what sendAndJournal needs of it. */
interface ReadyCall {
  input: LlmInput;
  shape: CallShape;
  key: string;
  fitted: FitOutput;
  window: number;
  contextErrors: number;
}

/**
 * Sends a fitted call and journals its answer, counted in flight (calls-in-flight.ts) from the
 * gateway to the journal. A call the gateway does not send because it drains (the first Ctrl-C)
 * waits, unsent, until the run stops: it is neither a result nor a failure, and the resume sends it.
 */
async function sendAndJournal(deps: LlmCallDeps, call: ReadyCall, signal: AbortSignal): Promise<CallRecord> {
  const { input, shape, key, window } = call;
  deps.inFlight?.enter();
  try {
    const record = await send(deps, input, shape, key, call.fitted, window, signal);
    // Answered in a smaller window than the run's: kept under the key it is asked by first, where a replay finds it (refit.ts).
    const askedAs = window === deps.config.context.window ? [] : [refitPut(deps.store, keyedAt(deps, input, shape, deps.config.context.window).key, { key, window, contextErrors: call.contextErrors })];
    // Durable before the reply exists: a crash after this line never pays for the call again.
    await deps.store.putCall(record, askedAs);
    // Counted once journaled: an aborted or failed call is not "issued" in the resume summary.
    deps.counters.issued++;
    return record;
  } catch (error) {
    if (!(error instanceof CallDrained)) throw error;
  } finally {
    deps.inFlight?.leave();
  }
  return new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/** Sends the fitted prompt through the gateway; returns the call's record, to be journaled. */
async function send(deps: LlmCallDeps, input: LlmInput, shape: CallShape, key: string, fitted: FitOutput, window: number, signal: AbortSignal): Promise<CallRecord> {
  const { endpoint, seed, temperature, sampling, cap } = shape;
  // No system message when the role has none (PaCoRe sends the problem alone), as the token count assumes; a templated one as fitted.
  // A continuation ends with the assistant message it continues (the gateway asks the server to continue it).
  const system = typeof input.prompt.system === 'string' ? input.prompt.system : (fitted.system ?? '');
  const messages = [
    ...(system === '' ? [] : [{ role: 'system' as const, content: system }]),
    { role: 'user' as const, content: fitted.user },
    ...(input.prefix === undefined ? [] : [{ role: 'assistant' as const, content: input.prefix }]),
  ];
  const maxTokens = completionLimit(cap, window, fitted.promptTokens);
  // What the window leaves the prompt: a server that holds its reasoning apart from max_tokens is held to it (reply-tokens.ts).
  const room = completionLimit(undefined, window, fitted.promptTokens);
  const startedAt = Date.now();
  const rank = deps.ranks.rankOf({ problem: input.problem, iteration: input.iteration, role: input.role, grading: input.grading === true }, (changes) => deps.gateway.reslack(changes));
  let completion: Completion;
  try {
    completion = await deps.gateway.complete(
      {
        endpoint,
        messages,
        maxTokens,
        ...(room > maxTokens ? { room } : {}),
        seed,
        rank,
        ...(temperature === null ? {} : { temperature }),
        ...(sampling === undefined ? {} : { sampling }),
      },
      { signal },
    );
  } finally {
    // Answered, failed or aborted, it holds its iteration's other calls up no more.
    deps.gateway.reslack(deps.ranks.ended(rank));
  }
  // A reply without usage is counted with the run's tokenizer (once: the gateway's count when it made one), and marked so.
  const usage = completion.usage ?? {
    promptTokens: fitted.promptTokens,
    completionTokens: completion.countedTokens ?? (await deps.pool.countTokens([completion.content, completion.reasoning ?? ''], { signal })).reduce((a, b) => a + b, 0),
    estimated: true as const,
  };
  return {
    key,
    role: input.role,
    problem: input.problem,
    iteration: input.iteration,
    index: input.index,
    request: { baseUrl: completion.replica, model: endpoint.model, messages, maxTokens, temperature, seed, ...(sampling === undefined ? {} : { sampling }) },
    fit: { promptTokens: fitted.promptTokens, dropped: fitted.dropped, ...(fitted.systemValues === undefined ? {} : { systemValues: fitted.systemValues }) },
    response: {
      content: completion.content,
      reasoning: completion.reasoning,
      finishReason: completion.finishReason,
      ...(completion.reasoningDialect === null ? {} : { reasoningDialect: completion.reasoningDialect }),
      ...(completion.model === null || completion.model === endpoint.model ? {} : { model: completion.model }),
    },
    usage,
    timings: {
      startedAt,
      latencyMs: Math.round(completion.latencyMs),
      ...(completion.firstTokenMs === null ? {} : { firstTokenMs: Math.round(completion.firstTokenMs) }),
    },
    attempts: completion.attempts,
  };
}

/** A call that failed for good: it stops the run when every other call would fail alike, else its iteration (grading calls aside). */
function failedForGood(deps: LlmCallDeps, input: LlmInput, error: CallFailedError, attempt: number): LlmResult {
  deps.counters.failed++;
  const stop = runStopping(error, input.endpoint, deps.config.outputs.dir);
  if (stop !== null) deps.stopRun(stop);
  // A grading call (the judge) is a stage the loop does not depend on: its failure leaves that pass without
  // a verdict (the iteration's judge coverage shows it), it does not stop the problem.
  if (!input.grading) deps.failures.fail(input.problem, input.iteration, `${input.role}: ${error.code}: ${clippedText(error.message, 200)}`);
  return { ok: false, request: input.request, code: error.code, error: error.message, attempt };
}
