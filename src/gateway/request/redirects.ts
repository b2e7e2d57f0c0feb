/**
 * What a redirect the transport follows tells the user. A 307 or 308 is
 * followed as fetch follows it, the request's body sent again; to another
 * server, without the API key, as fetch does too. Followed without a word,
 * every call went out twice, and a key left behind on the way came back as
 * the next server's 401: "refused its API key", of a key that was right.
 */

/** One redirect followed: where the request was sent, where it went next, with what status. */
export interface Redirect {
  from: string;
  to: string;
  status: number;
}

/** Routes tmas asks for under a base URL: a redirect's target less its route is the base URL it implies. */
const ROUTE = /\/(?:chat\/completions|completions|models)\/?(?:[?#].*)?$/;

/** The base URL a redirect's target implies: the address less the route asked for (`…/v1/chat/completions` is `…/v1`). */
export function impliedBaseUrl(location: string): string {
  return location.replace(ROUTE, '');
}

/** What to give instead of a base URL that redirects to `location`: its base URL, or, for a path alone, that base on the same server. */
export function redirectAdvice(location: string): string {
  const base = impliedBaseUrl(location);
  return base.startsWith('/') ? `give the base URL ${base} on the same server` : `give ${base} as the base URL`;
}

/** What the note of a redirect not followed for looping says, so that no other advice is added beside it (retry.ts). */
export const REDIRECT_LOOP = 'redirects in a loop';

/**
 * The note of a 307 or 308 not followed: its target was an address already
 * on the way (`visited`), or the hops ran out. Before, the call failed with
 * "a redirect to /v1/chat/completions: give the base URL /v1 on the same
 * server", the very base URL given, and the user had nothing to change.
 */
export function redirectLoopNote(visited: readonly string[], target: string): string {
  const chain = [...visited, target].join(' -> ');
  return `it ${REDIRECT_LOOP} (${chain.length > 400 ? `${chain.slice(0, 400)}…` : chain}): the server or a proxy in front of it is misconfigured; fix its redirect rules, or give the server's own address as the base URL`;
}

/** The sentence a refusal of the key gets when the key was left behind at a redirect to another server. */
export function keyLeftBehind(redirect: Redirect): string {
  return `the request was redirected (HTTP ${redirect.status}) from ${redirect.from} to ${redirect.to}, another server, and an API key is not sent on to another server: ${redirectAdvice(redirect.to)}`;
}

/**
 * An error answer's body (in the shape the `openai` client reads, error-body.ts)
 * with `note` after its message; a body that is not such JSON gets it after
 * its text.
 */
export function withNote(body: string, note: string): string {
  try {
    const value = JSON.parse(body) as { error?: { message?: unknown } };
    const error = value.error;
    if (typeof error === 'object' && error !== null && typeof error.message === 'string') {
      return JSON.stringify({ ...value, error: { ...error, message: `${error.message.replace(/[.\s]+$/, '')} (${note})` } });
    }
  } catch {
    // Not JSON: the note follows the text.
  }
  return JSON.stringify({ error: { message: `${body.trim() === '' ? 'no message' : body.trim().slice(0, 300)} (${note})` } });
}
