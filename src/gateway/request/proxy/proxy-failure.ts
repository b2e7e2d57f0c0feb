/**
 * Whether a failed call failed at the proxy it went through, and what to do
 * about it. Before, a proxy that refused a tunnel, could not be reached, or
 * whose TLS certificate Node did not trust was reported as the endpoint's
 * failure ('Cannot reach the model endpoint', 'its TLS certificate is signed
 * by no authority Node trusts'), which sent the user to check a server that
 * was fine.
 */
import { UserError } from '../../../kernel/errors.ts';
import { ProxyRefusedError, ProxyUnreachableError } from './proxy-agents.ts';
import { proxyRoute, throughProxy } from './proxy-env.ts';
import { tlsAdvice } from '../tls-trust.ts';

/** The errors in `error`'s chain of causes, outermost first. */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let at: unknown = error, depth = 0; at !== undefined && at !== null && depth < 5; at = (at as { cause?: unknown }).cause, depth++) chain.push(at);
  return chain;
}

/** What to say of `error`, a failure of a call to `baseUrl`, when the proxy it went through failed it; null otherwise. */
export function proxyFailure(error: unknown, baseUrl: string): string | null {
  const chain = causes(error);
  const proxied = chain.find((at) => at instanceof ProxyRefusedError || at instanceof ProxyUnreachableError || (at instanceof UserError && at.code === 'TMAS_PROXY'));
  if (proxied instanceof Error) {
    // The connection to an https:// proxy is TLS too: a certificate refused there is the proxy's.
    const tls = proxied instanceof ProxyUnreachableError ? tlsAdvice(proxied.cause, proxied.route.proxy.href) : null;
    if (tls !== null && proxied instanceof ProxyUnreachableError) return `the proxy ${proxied.route.shown} (from ${proxied.route.variable}) was not reached: ${tls.replace(/or call the server over http:\/\/ if it serves it$/, `or give ${proxied.route.variable} as an http:// URL if the proxy serves one`)}`;
    return proxied.message;
  }
  // An http endpoint has no certificate: through an https:// proxy, a refused one is the proxy's.
  try {
    const url = new URL(baseUrl);
    const route = url.protocol === 'http:' ? proxyRoute(url) : null;
    const tls = route === null ? null : tlsAdvice(error, route.proxy.href);
    return tls === null || route === null ? null : `the proxy ${route.shown} (from ${route.variable}) was not reached: ${tls}`;
  } catch {
    return null;
  }
}

/**
 * What a 403 to an http endpoint's request adds when a proxy forwarded it: a
 * forwarding proxy answers for the server, and its own 403 (its rules forbid
 * the host, as squid's ERR_ACCESS_DENIED) comes back as the server's would.
 * It cannot be told from the server's by its status, so both are said, rather
 * than 'it refused the API key' alone. Nothing otherwise.
 */
export function forwardedRefusalNote(baseUrl: string, status: number | undefined): string {
  if (status !== 403 || !URL.canParse(baseUrl) || new URL(baseUrl).protocol !== 'http:') return '';
  const through = throughProxy(baseUrl);
  if (through === '') return '';
  return ` It was sent${through}, whose own 403 (its rules forbid the host) reads the same: if the page above is the proxy's, ask its administrators to allow ${new URL(baseUrl).host}, or name the host in NO_PROXY to call it directly.`;
}

