/**
 * Call failures that stop the whole run rather than the call: every other
 * call to the same endpoint would fail the same way, so going on would only
 * spend the run's time on refusals (llm-call.ts asks after each failure).
 */
import { UserError } from '../../kernel/errors.ts';
import { slotAgent, slotFlag, type SamplingSetting } from '../../kernel/slots.ts';
import type { EndpointSlot } from '../../kernel/protocol.ts';
import type { CallFailedError } from '../../gateway/gateway.ts';
import { keySource } from './api-keys.ts';
import { refusedField } from '../../gateway/request/refused-field.ts';
import { perMinuteTooSmall, statedCompletionCap } from '../../gateway/request/completion-cap.ts';
import { LONGEST_ASKED_WAIT_MS, retryAfterMs } from '../../gateway/request/retry.ts';
import { notChatModel } from '../../gateway/request/model-gone.ts';

/**
 * The error that stops the whole run when a call failed this way, else null:
 * a refused key, a spent quota, a model no longer served, a chat route no longer there, or an endpoint that answers streamed requests with JSON that
 * is no completion; every other call to it would fail the same way.
 */
export function runStopping(error: CallFailedError, slot: EndpointSlot, outputDir: string): UserError | null {
  if (error.code === 'TMAS_AUTH') {
    return new UserError(
      'TMAS_AUTH',
      // The server's message may end with its own period ("…/api-keys."): one is said.
      `The endpoint of ${slotAgent(slot)} refused its API key: ${error.message.replace(/\.+$/, '')}. The run stopped at once; every completed call is kept. ` +
        `Give a valid key with ${keySource(slot)}, then continue with: tmas run --resume ${outputDir}`,
      { cause: error },
    );
  }
  if (error.code === 'TMAS_PROXY') {
    return new UserError(
      'TMAS_PROXY',
      `The endpoint of ${slotAgent(slot)} is called through a proxy that refuses its calls: ${error.message.replace(/\.+$/, '')}. Every other call would be refused alike: ` +
        `the run stopped at once; every completed call is kept. Fix the proxy's variable as said, then continue with: tmas run --resume ${outputDir}`,
      { cause: error },
    );
  }
  if (error.code === 'TMAS_QUOTA') {
    return new UserError(
      'TMAS_QUOTA',
      `The endpoint of ${slotAgent(slot)} refused a call because the account's quota or credits are spent: ${error.message.replace(/\.+$/, '')}. ` +
        'No retry would pass: the run stopped at once; every completed call is kept. ' +
        `Add credits or raise the quota on the provider's billing page (or give another account's key with ${keySource(slot)}), then continue with: tmas run --resume ${outputDir}`,
      { cause: error },
    );
  }
  if (error.code === 'TMAS_RATE_LIMITED') return waitTooLong(error, slot, outputDir);
  if (error.code === 'TMAS_MODEL_NOT_SERVED' && notChatModel(error.cause)) {
    return new UserError(
      'TMAS_MODEL_NOT_SERVED',
      `The endpoint of ${slotAgent(slot)} does not serve its model through chat completions, the API tmas calls: ${error.message.replace(/\.+$/, '')}. Every other call would be refused alike: ` +
        `the run stopped at once; every completed call is kept. Give a model the endpoint serves as a chat model with ${slotFlag(slot, 'model-name')}, then continue with: tmas run --resume ${outputDir} ${slotFlag(slot, 'model-name')} MODEL --force ` +
        '(--force: the calls to the new model are new calls)',
      { cause: error },
    );
  }
  if (error.code === 'TMAS_MODEL_NOT_SERVED') {
    return new UserError(
      'TMAS_MODEL_NOT_SERVED',
      `The endpoint of ${slotAgent(slot)} no longer serves its model: ${error.message.replace(/\.+$/, '')}. Every other call would be refused alike: ` +
        `the run stopped at once; every completed call is kept. Check the model id or the deployment (a model withdrawn, a deployment deleted or renamed), then continue with: tmas run --resume ${outputDir}`,
      { cause: error },
    );
  }
  if (error.code === 'TMAS_ENDPOINT') return routeGone(error, slot, outputDir);
  if (error.code === 'TMAS_REDIRECTED') {
    return new UserError(
      'TMAS_REDIRECTED',
      `The endpoint of ${slotAgent(slot)} redirects its calls: ${error.message.replace(/\.+$/, '')}. Every other call would be redirected alike: ` +
        `the run stopped at once; every completed call is kept. Give the base URL the redirect leads to with ${slotFlag(slot, 'base-url')}, then continue with: tmas run --resume ${outputDir} ${slotFlag(slot, 'base-url')} URL`,
      { cause: error },
    );
  }
  if (error.code === 'TMAS_NOT_STREAMED') {
    return new UserError(
      'TMAS_NOT_STREAMED',
      `The endpoint of ${slotAgent(slot)} does not stream: ${error.message} The run stopped at once; every completed call is kept. ` +
        `Continue without streaming: tmas run --resume ${outputDir} --no-stream`,
      { cause: error },
    );
  }
  if (error.code === 'TMAS_WEB_PAGE') {
    return new UserError(
      'TMAS_WEB_PAGE',
      `The endpoint of ${slotAgent(slot)} answers with a web page, not the API's reply: ${error.message}. A proxy (a corporate sign-in, a captive portal) stands between tmas and the server, ` +
        `and every other call would be answered alike: the run stopped at once; every completed call is kept. Sign in to the proxy (or give a base URL that reaches the server itself with ${slotFlag(slot, 'base-url')}), ` +
        `then continue with: tmas run --resume ${outputDir}`,
      { cause: error },
    );
  }
  if (error.code === 'TMAS_FIELD_REFUSED') return fieldRefused(error, slot, outputDir);
  return null;
}

/** The sampling flag that sets each field the chat dialect sends. */
const FIELD_FLAGS: Record<string, SamplingSetting> = { temperature: 'temperature', top_p: 'top-p', top_k: 'top-k', min_p: 'min-p' };

/**
 * A field the endpoint does not take (refused-field.ts): a sampling flag's,
 * given or the strategy's upstream value, or one of --extra-body. Every call
 * sent with it would be refused alike, so the run stops, naming the flag.
 */
function fieldRefused(error: CallFailedError, slot: EndpointSlot, outputDir: string): UserError {
  const cap = statedCompletionCap(error.cause);
  if (cap !== null) return completionCapped(error, cap, slot, outputDir);
  const perMinute = perMinuteTooSmall(error.cause);
  if (perMinute !== null) return perMinuteExceeded(error, perMinute, slot, outputDir);
  const field = refusedField(error.cause) ?? 'a field';
  const setting = FIELD_FLAGS[field];
  const extra = slot === 'solution' ? '--extra-body' : `${slotFlag(slot, 'extra-body')} (or --extra-body, which it defaults to)`;
  const flag = setting === undefined ? extra : `${slotFlag(slot, setting)} (given, or the strategy's upstream value)`;
  return new UserError(
    'TMAS_FIELD_REFUSED',
    `The endpoint of ${slotAgent(slot)} does not take the request field ${field}: ${error.message.replace(/\.+$/, '')}. It is set by ${flag}. ` +
      `The run stopped at once; every completed call is kept. Leave the field out, or give a value the server takes, then continue with: tmas run --resume ${outputDir} --force ` +
      '(--force: the calls sent without it are new calls)',
    { cause: error },
  );
}

/**
 * A completion limit above the endpoint's own cap (completion-cap.ts): every
 * call asks for the run's limit (by default what the window leaves), so the
 * run stops, naming the flag that bounds it and the cap to give.
 */
function completionCapped(error: CallFailedError, cap: number, slot: EndpointSlot, outputDir: string): UserError {
  const flag = slot === 'judge' ? '--judge-max-tokens' : '--completion-max-tokens';
  return new UserError(
    'TMAS_FIELD_REFUSED',
    `The endpoint of ${slotAgent(slot)} generates at most ${cap} completion tokens a call, fewer than the run asked for: ${error.message.replace(/\.+$/, '')}. ` +
      `The run stopped at once; every completed call is kept. Bound the completion with ${flag} ${cap} (or less), then continue with: tmas run --resume ${outputDir} ${flag} ${cap} --force ` +
      '(--force: the calls sent with the new limit are new calls)',
    { cause: error },
  );
}

/**
 * A call larger than the account's whole per-minute token limit
 * (completion-cap.ts perMinuteTooSmall): the API counts the prompt and the
 * completion limit, so the run stops, naming the flag that bounds the
 * completion and the limit it must fit in with the prompt.
 */
function perMinuteExceeded(error: CallFailedError, said: { limit: number; requested: number }, slot: EndpointSlot, outputDir: string): UserError {
  const flag = slot === 'judge' ? '--judge-max-tokens' : '--completion-max-tokens';
  return new UserError(
    'TMAS_FIELD_REFUSED',
    `The endpoint of ${slotAgent(slot)} counts each call's prompt and completion limit against the account's per-minute limit of ${said.limit} tokens, and a call asked for ${said.requested}: ${error.message.replace(/\.+$/, '')}. ` +
      `Every other call would be refused alike: the run stopped at once; every completed call is kept. Bound the completion with ${flag} (the prompt and it must fit in ${said.limit} tokens), ` +
      `or raise the account's tier, then continue with: tmas run --resume ${outputDir} ${flag} N --force (--force: the calls sent with the new limit are new calls)`,
    { cause: error },
  );
}

/** A wait in words: minutes under two hours, else hours. */
function waitWords(ms: number): string {
  const minutes = Math.ceil(ms / 60_000);
  return minutes < 120 ? `${minutes} min` : `${(ms / 3_600_000).toFixed(1)} h`;
}

/**
 * A server that asked to be called again only after longer than any call
 * waits (retry.ts): every other call would meet the same refusal, so the run
 * stops, saying when the server asked to be called again.
 */
function waitTooLong(error: CallFailedError, slot: EndpointSlot, outputDir: string): UserError {
  const asked = retryAfterMs(error.cause) ?? LONGEST_ASKED_WAIT_MS;
  const at = new Date(Date.now() + asked).toISOString().replace(/\.\d+Z$/, 'Z');
  return new UserError(
    'TMAS_RATE_LIMITED',
    `The endpoint of ${slotAgent(slot)} asks to be called again in ${waitWords(asked)} (at ${at}), longer than a call waits (${LONGEST_ASKED_WAIT_MS / 60_000} min): ${error.message.replace(/\.+$/, '')}. ` +
      'Every other call would be refused alike: the run stopped at once; every completed call is kept. ' +
      `Continue after then with: tmas run --resume ${outputDir} (a rate limit: a lower --concurrency, or another account's key with ${keySource(slot)}, may keep the run under it)`,
    { cause: error },
  );
}

/**
 * A 404 that names no model, or a 405, to a completion (route-gone.ts): the
 * base URL no longer leads to an OpenAI-compatible chat route, and every
 * other call would be refused alike.
 */
function routeGone(error: CallFailedError, slot: EndpointSlot, outputDir: string): UserError {
  return new UserError(
    'TMAS_ENDPOINT',
    `The endpoint of ${slotAgent(slot)} no longer has its chat route: ${error.message.replace(/\.+$/, '')}. Its base URL no longer leads to an OpenAI-compatible server ` +
      '(a route removed at a proxy or an ingress, the port taken by another server after a restart). Every other call would be refused alike: ' +
      `the run stopped at once; every completed call is kept. Check that ${slotFlag(slot, 'base-url')} reaches the server (curl BASE_URL/models), then continue with: tmas run --resume ${outputDir}`,
    { cause: error },
  );
}
