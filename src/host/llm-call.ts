/**
 * The runtime's implementation of the `llm` actor that every role references:
 * fit the prompt to the context window in the worker pool, answer from the
 * journal when this exact call already completed, otherwise call the gateway
 * and journal the result before the reply message can be delivered.
 */
import { fromPromise } from 'xstate';
import type { LlmInput, LlmOutput, LlmResult } from '../../machines/llm.ts';
import { CONTEXT_MARGIN, type RunConfig, type Secrets } from './config.ts';
import { TmasError } from '../kernel/errors.ts';
import { CallFailedError, type Endpoint, type Gateway } from '../gateway/gateway.ts';
import type { Pool } from '../pool/pool.ts';
import { fitKey } from '../pool/fit-key.ts';
import { hashOf, seedFor } from '../kernel/prng.ts';
import type { EndpointSlot } from '../kernel/protocol.ts';
import type { CallRecord, Store } from '../store/store.ts';

/** What the call needs from the runtime. */
export interface LlmCallDeps {
  config: RunConfig;
  secrets: Secrets;
  /** Base URL of the embedded simulated model, for roles without their own. */
  simulatorUrl: string | null;
  pool: Pool;
  gateway: Gateway;
  store: Store;
  /** Counts calls answered from the journal and calls sent, for the resume summary. */
  counters: { reused: number; issued: number };
  /** Replay without network: a call missing from the journal fails with TMAS_REPLAY_MISS instead of being sent. */
  offline?: boolean;
}

/** The endpoint a role's calls go to. */
export function endpointFor(role: EndpointSlot, deps: Pick<LlmCallDeps, 'config' | 'secrets' | 'simulatorUrl'>): Endpoint {
  const { baseUrl, model } = deps.config.endpoints[role];
  const url = baseUrl ?? deps.simulatorUrl;
  if (!url) throw new TmasError('TMAS_NO_ENDPOINT', `no endpoint for the ${role} role`);
  return { baseUrl: url, model, apiKey: deps.secrets[role] };
}

/** The prompt budget: the window less a completion reserve (a quarter of the window, at most 16k) and the margin. */
export function promptBudget(window: number): number {
  return window - Math.min(16_384, Math.floor(window / 4)) - CONTEXT_MARGIN;
}

/** Context-length errors a call may meet before it gives up: each one shrinks the window. */
const MAX_CONTEXT_REFITS = 3;

/**
 * The window to fit into after a context-length error: the one the server
 * states ("maximum context length is N tokens") when smaller, else half.
 */
export function shrunkWindow(window: number, message: string): number {
  const stated = /maximum context length is (\d+)/i.exec(message)?.[1];
  const next = stated !== undefined && Number(stated) < window ? Number(stated) : Math.floor(window / 2);
  return Math.max(CONTEXT_MARGIN * 2, next);
}

/** Creates the `llm` actor logic. */
export function createLlmCall(deps: LlmCallDeps) {
  return fromPromise<LlmResult, LlmInput>(async ({ input, signal }) => {
    const { config } = deps;
    const endpoint = endpointFor(input.endpoint, deps);
    const attempt = input.attempt ?? 0;
    // A retry after unusable output is another request (another seed), journaled under its own key.
    const seed = attempt === 0 ? seedFor(config.seed, input.problem, input.iteration, input.role, input.index) : seedFor(config.seed, input.problem, input.iteration, input.role, input.index, attempt);
    const temperature = input.temperature ?? null;
    // The judge has its own completion limit (a hosted judge rejects one near the whole window); the
    // other roles have the run's, when it has one (RSE's upstream budget).
    const cap = input.endpoint === 'judge' ? config.judgeMaxTokens : config.completionMaxTokens;
    let window = config.maxTokens;
    for (let contextErrors = 0; ; contextErrors++) {
      const budget = promptBudget(window);
      const task = { encoding: config.tokenizer, system: input.prompt.system, parts: input.prompt.parts, budget };
      // The key names what the call is about and hashes everything that shapes its request: the
      // prompt before fitting, the budget and tokenizer that fit it, and the sampling parameters.
      // Hashing the inputs of the fit rather than its output lets a resume or a replay look the
      // call up before tokenizing anything: a journaled call costs one read, no pool task.
      const key = `${input.problem}/${input.iteration}/${input.role}/${input.index}/${hashOf({ model: endpoint.model, window, prompt: fitKey(task), temperature, seed, ...(cap === undefined ? {} : { cap }) })}`;

      const answer = (call: Pick<CallRecord, 'fit' | 'response' | 'usage'>): LlmOutput => ({
        ok: true,
        request: input.request,
        key,
        promptTokens: call.fit.promptTokens,
        budget,
        dropped: call.fit.dropped,
        attempt,
        ...(contextErrors > 0 ? { contextErrors } : {}),
        ...call.response,
        usage: call.usage,
      });

      const journaled = await deps.store.getCall(key);
      if (journaled) {
        deps.counters.reused++;
        return answer(journaled);
      }

      if (deps.offline) {
        return { ok: false, request: input.request, code: 'TMAS_REPLAY_MISS', error: `no journaled completion for ${key}`, attempt };
      }
      const fitted = await deps.pool.fit(task, { signal });
      // No system message when the role has none (PaCoRe sends the problem alone), as the token count assumes.
      const messages = [
        ...(input.prompt.system === '' ? [] : [{ role: 'system' as const, content: input.prompt.system }]),
        { role: 'user' as const, content: fitted.user },
      ];
      const maxTokens = Math.min(cap ?? Number.MAX_SAFE_INTEGER, Math.max(1, window - fitted.promptTokens - CONTEXT_MARGIN));
      const startedAt = Date.now();
      try {
        const completion = await deps.gateway.complete(
          { endpoint, messages, maxTokens, seed, ...(temperature === null ? {} : { temperature }) },
          { signal },
        );
        const record: CallRecord = {
          key,
          role: input.role,
          problem: input.problem,
          iteration: input.iteration,
          index: input.index,
          request: { baseUrl: endpoint.baseUrl, model: endpoint.model, messages, maxTokens, temperature, seed },
          fit: { promptTokens: fitted.promptTokens, dropped: fitted.dropped },
          response: { content: completion.content, reasoning: completion.reasoning, finishReason: completion.finishReason },
          usage: completion.usage,
          timings: { startedAt, latencyMs: Math.round(completion.latencyMs) },
          attempts: completion.attempts,
        };
        // Durable before the reply exists: a crash after this line never pays for the call again.
        await deps.store.putCall(record);
        // Counted once journaled: an aborted or failed call is not "issued" in the resume summary.
        deps.counters.issued++;
        return answer(record);
      } catch (error) {
        if (error instanceof CallFailedError && error.code === 'TMAS_CONTEXT_LENGTH' && contextErrors < MAX_CONTEXT_REFITS) {
          // The window is smaller than --max-tokens says: fit the prompt into a smaller one and try again.
          window = shrunkWindow(window, error.message);
          continue;
        }
        if (error instanceof CallFailedError) return { ok: false, request: input.request, code: error.code, error: error.message, attempt };
        throw error;
      }
    }
  });
}
