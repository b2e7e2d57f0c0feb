/**
 * A server still starting, as the check before a run (check.ts) meets it.
 * A researcher who starts the server and tmas in one job script reaches it
 * while it loads its model: vLLM and SGLang refuse connections until ready,
 * llama.cpp answers 503 `{"error": {"message": "Loading model"}}`, and a
 * Kubernetes service's proxy answers 502, 503 or 504 while no replica is
 * ready. Such an endpoint is asked again every few seconds, up to a bound
 * (`--wait-for-server`), and the user is told at once what it waits for and
 * how long, then every half minute. What no wait mends is refused at once
 * as before: a 404 (a wrong route), a 401 or 403 (a wrong key), a host name
 * that does not resolve, a reset or a timeout, an answer that is no model
 * list. A port nothing listens on is refused alike whether the server is
 * starting or the port is wrong: the first line of the wait names the
 * address, so a wrong one is seen at once (and `--wait-for-server 0` ends it).
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { quotaSpent } from './request/quota-spent.ts';
import { loopbackAdvice, throughProxy } from './request/proxy/proxy-env.ts';
import { ProxyRefusedError } from './request/proxy/proxy-agents.ts';
import { clippedText } from '../kernel/clipped-text.ts';

/**
 * Statuses a server or its proxy answers while it starts (the proxy finds no
 * ready replica: 502, 504; the server loads: 503) or while it is busy: a
 * hosted API's rate limit (429, which several runs on one key meet at their
 * start) or Anthropic's overload (529). Before, a 429 to `GET /models` was
 * refused at once as an endpoint not reached, advising to check the server,
 * the base URL and the key. A 429 that says the account's quota is spent is
 * no wait's to mend (quota-spent.ts).
 */
const STARTING_STATUSES = new Set([429, 502, 503, 504, 529]);

/** Statuses a proxy answers a CONNECT with when the endpoint behind it does not answer yet. */
const PROXY_STARTING_STATUSES = new Set([502, 503, 504]);

/** How long to wait between two asks of a starting server. */
export const START_POLL_MS = 2_000;
/** How often the user is told that the wait goes on. */
export const START_TELL_MS = 30_000;

/**
 * What a failed `GET /models` says of a server still starting ("refuses
 * connections (ECONNREFUSED)", "answers HTTP 503: Loading model"), or null
 * when the failure is one no wait mends.
 */
export function startingFailure(error: unknown): string | null {
  if (error instanceof APIError && error.status !== undefined && STARTING_STATUSES.has(error.status) && !quotaSpent(error)) {
    const words = clippedText(error.message.replace(new RegExp(`^${error.status} ?`), '').replace(/\s+/g, ' ').trim(), 120);
    return `answers HTTP ${error.status}${words === '' || words.startsWith('<') ? '' : `: ${words}`}`;
  }
  // Refused, not reset or timed out: a port nothing listens on yet. A reset or a silence is no server starting (a wrong scheme, a firewall).
  if (!(error instanceof APIConnectionError) || error instanceof APIConnectionTimeoutError) return null;
  // Through a proxy, an https endpoint not up yet is the proxy's 502, 503 or 504 to the CONNECT (its port refused it),
  // where an http one's is the proxy's answer to the request itself (an APIError above): both are waited for.
  const refusal = error.cause;
  if (refusal instanceof ProxyRefusedError && PROXY_STARTING_STATUSES.has(refusal.status)) return `answers CONNECT with HTTP ${refusal.status} at the proxy`;
  return (error.cause as NodeJS.ErrnoException | undefined)?.code === 'ECONNREFUSED' ? 'refuses connections (ECONNREFUSED)' : null;
}

/** One moment of a wait for starting servers, as the user is told it. */
export interface StartWait {
  /** The base URLs waited for, and the flag that names them. */
  urls: readonly string[];
  flag: string;
  /** What the first of them said last (startingFailure). */
  what: string;
  waitedMs: number;
  boundMs: number;
  /** `waiting` when the wait starts, `still` every START_TELL_MS, `ready` when one answered. */
  stage: 'waiting' | 'still' | 'ready';
}

/** The line a run prints for one moment of the wait. */
export function startWaitLine(wait: StartWait): string {
  // Through a proxy, a 502 or 504 may be the proxy's: the line says which proxy the server is called through.
  const where = `${wait.urls.join(', ')} (from ${wait.flag})${throughProxy(wait.urls[0] ?? '')}`;
  const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;
  if (wait.stage === 'ready') return `tmas: ${where} answered after ${seconds(wait.waitedMs)} of waiting for it to start.`;
  if (wait.stage === 'still') return `tmas: still waiting for ${where} to start: ${seconds(wait.waitedMs)} of ${seconds(wait.boundMs)} (it ${wait.what}).`;
  return (
    `tmas: ${where} ${wait.what}: waiting up to ${seconds(wait.boundMs)} for the server to start, asking every ${seconds(START_POLL_MS)} ` +
    `(--wait-for-server sets how long; 0 does not wait).${loopbackAdvice(wait.urls[0] ?? '')}`
  );
}

/** The sentence an endpoint's error gets when a wait for it to start ran out. */
export function waitedSentence(boundMs: number): string {
  return ` tmas waited ${Math.round(boundMs / 1000)} s for it to start (--wait-for-server).`;
}
