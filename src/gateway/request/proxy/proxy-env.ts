/**
 * Which proxy, if any, an endpoint is called through: the environment
 * variables a cluster sets for it, read as curl and Python's requests read
 * them. An https endpoint goes through `https_proxy` (else `HTTPS_PROXY`),
 * an http one through `http_proxy` (else `HTTP_PROXY`), either through
 * `all_proxy` (else `ALL_PROXY`) when its own is not set; `no_proxy` (else
 * `NO_PROXY`) leaves hosts out (no-proxy.ts). A variable set to nothing is
 * unset. Before, tmas read none of them: on a machine that reaches the
 * outside only through its site's proxy, a hosted API was refused as
 * unreachable, and nothing said why.
 *
 * A value that is no http:// or https:// proxy URL (a typo, a SOCKS proxy,
 * which tmas does not speak) refuses the run naming the variable, rather
 * than call the endpoint directly, which on such a machine fails anyway and
 * hides the cause. A proxy's password is never shown.
 */
import { UserError } from '../../../kernel/errors.ts';
import { isIP } from 'node:net';
import { bypassesProxy } from './no-proxy.ts';

/** The proxy an endpoint is called through. */
export interface ProxyRoute {
  /** The proxy's URL, credentials included: only the agents read them (Proxy-Authorization). */
  readonly proxy: URL;
  /** The variable that named it, as it is spelt in the environment: `HTTPS_PROXY`, `https_proxy`, `ALL_PROXY`. */
  readonly variable: string;
  /** The proxy as messages show it: scheme, host and port, never its credentials. */
  readonly shown: string;
  /**
   * Whether the variable named no port, so the scheme's own (80 for http://, 443 for https://) is called, as Python's
   * urllib, requests and httpx (the openai client), Node and Go call it; curl alone calls 1080 for an http:// proxy, so a
   * proxy that curl reaches and tmas does not is said to be one (proxy-agents.ts).
   */
  readonly portOmitted: boolean;
}

/** The variables that may name the proxy of an endpoint of `protocol`, the one that wins first (lower case first, as curl and requests read them). */
function proxyVariables(protocol: string): string[] {
  const scheme = protocol === 'https:' ? 'https' : 'http';
  return [`${scheme}_proxy`, `${scheme.toUpperCase()}_PROXY`, 'all_proxy', 'ALL_PROXY'];
}

/** The first of `names` set to something in `env`, and its value. */
function firstSet(env: NodeJS.ProcessEnv, names: readonly string[]): { name: string; value: string } | null {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value !== undefined && value !== '') return { name, value };
  }
  return null;
}

/** `value` with the password of a URL's credentials masked, for messages. */
export function withoutPassword(value: string): string {
  // With its scheme or without (`bob:secret@proxy:3128` is a proxy URL too). The credentials end at the last @ and the
  // password starts at the first : in them: a value quoted here failed to parse, often for a user or password pasted
  // as it is (bob@site.org, pa/ss@word), whose own @ or / must neither end the mask nor hide its start.
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(value)?.[0] ?? '';
  const at = value.lastIndexOf('@');
  const colon = value.indexOf(':', scheme.length);
  if (at < scheme.length || colon === -1 || colon > at) return value;
  return `${value.slice(0, colon)}:***${value.slice(at)}`;
}

/** A proxy as messages show it: `http://proxy.example:3128`, without its credentials. */
function shownProxy(proxy: URL): string {
  const port = proxy.port !== '' ? proxy.port : proxy.protocol === 'https:' ? '443' : '80';
  return `${proxy.protocol}//${proxy.hostname}:${port}`;
}

/** Whether a proxy URL as written names its port: `new URL` drops one equal to its scheme's default (`http://proxy:80`). */
function writesPort(written: string): boolean {
  const authority = written.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').split(/[/?#]/, 1)[0] ?? '';
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  return /:\d+$/.test(host.startsWith('[') ? host.slice(host.indexOf(']') + 1) : host);
}

/** The proxy URL `value` names (a bare `host:port` is an http:// proxy, as curl and requests read it); a UserError naming `variable` when it is none tmas can use. */
function parsedProxy(variable: string, value: string): URL {
  const written = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  const fix = `give ${variable}=http://HOST:PORT (or http://USER:PASSWORD@HOST:PORT, the password percent-encoded), unset it for tmas (env -u ${variable} tmas …), or name the endpoint's host in NO_PROXY to call it directly`;
  let proxy: URL;
  try {
    proxy = new URL(written);
  } catch {
    throw new UserError('TMAS_PROXY', `${variable} is not a URL ("${withoutPassword(value)}"): ${fix}.`);
  }
  if (proxy.protocol !== 'http:' && proxy.protocol !== 'https:') {
    throw new UserError('TMAS_PROXY', `${variable} names a ${proxy.protocol.replace(/:$/, '')}:// proxy ("${withoutPassword(value)}"), and tmas speaks to HTTP proxies only (http:// or https://): ${fix}.`);
  }
  if (proxy.hostname === '') throw new UserError('TMAS_PROXY', `${variable} names no proxy host ("${withoutPassword(value)}"): ${fix}.`);
  // The agents decode the user and password for Proxy-Authorization: a stray % would fail every call.
  try {
    decodeURIComponent(proxy.username);
    decodeURIComponent(proxy.password);
  } catch {
    throw new UserError('TMAS_PROXY', `${variable} has a user or password that is not percent-encoded ("${withoutPassword(value)}"): a % there must start a code such as %40 (@) or %3A (:); write a % itself as %25.`);
  }
  return proxy;
}

/**
 * Origins called directly whatever the environment says: the simulated model
 * tmas itself started on this machine's loopback, which no proxy elsewhere
 * could reach (`npm start` on a machine with HTTP_PROXY set).
 */
const directOrigins = new Set<string>();

/** Calls `url`'s origin directly until the returned function is called. */
export function callDirectly(url: string): () => void {
  const origin = new URL(url).origin;
  directOrigins.add(origin);
  return () => directOrigins.delete(origin);
}

/** The proxy `url` is called through, or null for a direct call; a UserError (TMAS_PROXY) naming the variable whose value is no proxy URL. */
export function proxyRoute(url: URL, env: NodeJS.ProcessEnv = process.env): ProxyRoute | null {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (directOrigins.has(url.origin)) return null;
  const named = firstSet(env, proxyVariables(url.protocol));
  if (named === null) return null;
  const noProxy = firstSet(env, ['no_proxy', 'NO_PROXY']);
  if (noProxy !== null && bypassesProxy(url, noProxy.value)) return null;
  const proxy = parsedProxy(named.name, named.value);
  return { proxy, variable: named.name, shown: shownProxy(proxy), portOmitted: proxy.port === '' && !writesPort(named.value) };
}

/** What a message about the endpoint at `baseUrl` says of its proxy: ` through the proxy http://proxy:3128 (from HTTPS_PROXY)`, or nothing for a direct call. */
export function throughProxy(baseUrl: string): string {
  try {
    const route = URL.canParse(baseUrl) ? proxyRoute(new URL(baseUrl)) : null;
    return route === null ? '' : ` through the proxy ${route.shown} (from ${route.variable})`;
  } catch {
    return '';
  }
}

/** Whether `url` names this machine's loopback: `localhost` (and names under it), 127.0.0.0/8, ::1. */
function isLoopback(url: URL): boolean {
  const host = url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return isIP(host) === 4 ? host.startsWith('127.') : host === '::1';
}

/**
 * What to add when a loopback endpoint goes through a proxy: a proxy on
 * another machine reaches its own localhost, where nothing serves the model
 * (or something else does), and answers 502 or 503, which reads as a server
 * still starting: tmas would wait --wait-for-server (10 min) for it. Nothing
 * when `baseUrl` is called directly or is no loopback address.
 */
export function loopbackAdvice(baseUrl: string): string {
  try {
    const url = URL.canParse(baseUrl) ? new URL(baseUrl) : null;
    if (url === null || !isLoopback(url) || proxyRoute(url) === null) return '';
    return ` A proxy on another machine cannot reach this one's ${url.hostname}: if the server runs here, add ${url.hostname} to NO_PROXY (NO_PROXY=localhost,127.0.0.1,::1).`;
  } catch {
    return '';
  }
}

