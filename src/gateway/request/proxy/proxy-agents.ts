/**
 * The connections of an endpoint called through a proxy (proxy-env.ts):
 * https-proxy-agent's tunnel (CONNECT, then TLS to the endpoint inside it,
 * its certificate checked as any other) for https endpoints, and
 * http-proxy-agent's forwarding (the request sent to the proxy with the
 * endpoint's full URL) for http ones; both keep their connections alive, as
 * the transport's own agents do. They are used as they are, with what
 * follows added, each found by reading what they do:
 * - a proxy that refuses the tunnel (407, 403, 502) has its answer replayed
 *   to the request as if the endpoint had given it: a proxy's 403 would read
 *   as the endpoint refusing the API key. It is a ProxyRefusedError here,
 *   naming the proxy and what to do; so is a 407 of a forwarding proxy;
 * - a failure before the tunnel or the connection to the proxy is up (a
 *   proxy that refuses connections, does not resolve, or closes) says only
 *   `connect ECONNREFUSED 10.0.0.5:3128`, which would read as the
 *   endpoint's: it is a ProxyUnreachableError here;
 * - a call aborted while its connection to the proxy was being made (a proxy
 *   that never answers the CONNECT) waited for that connection: Node's
 *   request reports its own destruction only once it has a socket, so the
 *   call hung, and the connection stayed open, as long as the proxy kept
 *   silent. The call's signal, which the transport hands every request
 *   (CALL_SIGNAL), now closes that connection, which fails the request at
 *   once (only until the tunnel is up: a kept connection outlives the call
 *   that opened it); and an answer to CONNECT that never ends its headers is
 *   cut at MAX_CONNECT_ANSWER_BYTES, where it was gathered without bound.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';
import type { Socket, TcpNetConnectOpts } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { HttpProxyAgent } from 'http-proxy-agent';
import type { ProxyRoute } from './proxy-env.ts';

/** The request option under which the transport hands an agent the call's signal. */
export const CALL_SIGNAL = 'tmasCallSignal';

/** The options an agent's `connect` is given: the request's own, the call's signal among them. */
type ConnectOptions = Parameters<HttpsProxyAgent<string>['connect']>[1] & { [CALL_SIGNAL]?: AbortSignal };

/** What a proxy answered to CONNECT, as https-proxy-agent tells it. */
interface ConnectAnswer {
  statusCode: number;
  statusText: string;
  headers: Record<string, string | string[] | undefined>;
}

/** The endpoint a connection is for: `api.example.com:443`. */
function targetOf(options: ConnectOptions): string {
  const host = options.host ?? 'localhost';
  return `${host.includes(':') ? `[${host}]` : host}:${options.port ?? (options.secureEndpoint ? 443 : 80)}`;
}

/** What to do about a refusal of `status`, for messages: the proxy's rules, its credentials, or the endpoint it could not reach. */
function refusalAdvice(route: ProxyRoute, status: number, target: string, authenticate: string | null): string {
  const bypass = `if the endpoint can be reached without the proxy, add its host to NO_PROXY`;
  if (status === 407) {
    const asks = authenticate === null ? '' : ` (Proxy-Authenticate: ${authenticate.slice(0, 120)})`;
    return route.proxy.username !== ''
      ? `it refused the credentials ${route.variable} gives (user ${decodeURIComponent(route.proxy.username)})${asks}: check the user and password in ${route.variable}, the password percent-encoded`
      : `it wants credentials${asks}: put a user and password in ${route.variable}, before the proxy's host (${route.proxy.protocol}//USER:PASSWORD@${route.proxy.host}, the password percent-encoded)`;
  }
  if (status === 403) return `its rules do not let this machine open a tunnel to ${target} (many proxies allow port 443 only): ask its administrators to allow it, or, ${bypass}`;
  if (status === 502 || status === 503 || status === 504) return `it could not reach ${target} itself: check the base URL's host and port (the proxy resolves and connects to them) and that the server runs; ${bypass}`;
  return `check that ${route.variable} names the proxy meant; ${bypass}`;
}

/** A proxy that refused to carry a call: its answer to CONNECT (or a forwarding proxy's 407). */
export class ProxyRefusedError extends Error {
  constructor(
    readonly route: ProxyRoute,
    readonly status: number,
    statusText: string,
    readonly target: string,
    authenticate: string | null,
  ) {
    super(`the proxy ${route.shown} (from ${route.variable}) refused to carry the call to ${target}: HTTP ${status}${statusText === '' ? '' : ` ${statusText}`}; ${refusalAdvice(route, status, target, authenticate)}`);
    this.name = 'ProxyRefusedError';
  }
}

/**
 * What to add when the variable named no port for an http:// proxy: tmas then calls 80, the scheme's own, as Python's
 * requests and httpx (the openai client), Node and Go do, where curl calls 1080; so a proxy that curl, given the same
 * variable, reaches is not reached here, and the port written in the variable settles it for every tool.
 */
function omittedPortAdvice(route: ProxyRoute): string {
  if (!route.portOmitted || route.proxy.protocol !== 'http:') return '';
  return `${route.variable} names no port, so port 80 was called, as Python's requests and the openai client call it (curl calls 1080): write the port the proxy listens on (${route.variable}=http://${route.proxy.host}:PORT); `;
}

/** A proxy that could not be reached, or closed the connection before the tunnel opened. */
export class ProxyUnreachableError extends Error {
  constructor(
    readonly route: ProxyRoute,
    readonly target: string,
    cause: unknown,
  ) {
    const code = (cause as NodeJS.ErrnoException | null)?.code;
    const said = cause instanceof Error ? (code !== undefined && !cause.message.includes(code) ? `${code}: ${cause.message}` : cause.message) : String(cause);
    const what = code === undefined ? `failed before the tunnel to ${target} opened` : 'cannot be reached';
    super(
      `the proxy ${route.shown} (from ${route.variable}) ${what} (${said}): check that the proxy runs and that ${route.variable} names its host and port; ` +
        `${omittedPortAdvice(route)}if the endpoint can be reached without the proxy, add its host to NO_PROXY`,
      { cause },
    );
    this.name = 'ProxyUnreachableError';
  }
}

/** An agent whose connections to its proxy are opened with `connectOpts`. */
interface ProxyConnecting {
  connectOpts: TcpNetConnectOpts & ConnectionOptions;
}

/** Bytes a proxy's answer to CONNECT may take up to its blank line: a status line and a few headers; more is no proxy's answer. */
export const MAX_CONNECT_ANSWER_BYTES = 64 * 1024;

/** A proxy whose answer to CONNECT went on past MAX_CONNECT_ANSWER_BYTES without its end. */
export class ConnectAnswerTooLargeError extends Error {
  constructor() {
    super(`its answer to CONNECT went on past ${MAX_CONNECT_ANSWER_BYTES / 1024} KiB without ending its headers`);
    this.name = 'ConnectAnswerTooLargeError';
  }
}

/**
 * The connection to the proxy that `open()` makes (synchronously, as the
 * agents do before their first wait), as Node's `net.client.socket` channel
 * tells it; null for a connection of TLS (an https:// proxy), which that
 * channel does not tell.
 */
function openedConnection<T>(open: () => T): { value: T; socket: Socket | null } {
  let socket: Socket | null = null;
  const heard = (message: unknown) => void (socket ??= (message as { socket: Socket }).socket);
  subscribe('net.client.socket', heard);
  try {
    return { value: open(), socket };
  } finally {
    unsubscribe('net.client.socket', heard);
  }
}

/**
 * `connect()`, bounded until it settles: its connection to the proxy is
 * closed when the call's signal aborts, and, with `answerLimit`, when more
 * bytes than that came before the tunnel was up (https-proxy-agent gathers
 * the answer to CONNECT until its blank line, joining all it has at each
 * read). Both agents open that connection from `connectOpts`, read before
 * their first wait: a signal put there for that moment is that connection's
 * alone (test/gateway/request/proxy.test.ts checks it still is).
 */
function boundedConnect<T>(agent: ProxyConnecting, options: ConnectOptions, connect: () => Promise<T>, answerLimit: number | null): Promise<T> {
  const signal = options[CALL_SIGNAL];
  const ending = new AbortController();
  const end = () => ending.abort(signal?.reason);
  // Aborted already (between the request and its agent's turn): the connection is closed as it opens.
  if (signal?.aborted === true) end();
  else signal?.addEventListener('abort', end, { once: true });
  const shared = agent.connectOpts;
  agent.connectOpts = { ...shared, signal: ending.signal };
  let opened: { value: Promise<T>; socket: Socket | null };
  try {
    opened = openedConnection(connect);
  } finally {
    agent.connectOpts = shared;
  }
  const { socket } = opened;
  const overflow = () => {
    if (answerLimit !== null && socket !== null && socket.bytesRead > answerLimit) socket.destroy(new ConnectAnswerTooLargeError());
  };
  // Before the agent's own reader, which takes what came at each 'readable'.
  socket?.prependListener('readable', overflow);
  return opened.value.finally(() => {
    signal?.removeEventListener('abort', end);
    socket?.removeListener('readable', overflow);
  });
}

/** The tunnel of an https endpoint through an HTTP(S) proxy. */
export class TunnelAgent extends HttpsProxyAgent<string> {
  constructor(
    readonly route: ProxyRoute,
    keepAlive: boolean,
  ) {
    super(route.proxy, { keepAlive, scheduling: 'lifo' });
  }

  override async connect(request: ClientRequest, options: ConnectOptions): Promise<Socket> {
    let answer: ConnectAnswer | null = null;
    const heard = (connect: ConnectAnswer) => void (answer = connect);
    request.once('proxyConnect', heard);
    try {
      const socket = await boundedConnect(this, options, () => super.connect(request, options), MAX_CONNECT_ANSWER_BYTES);
      const answered = answer as ConnectAnswer | null;
      if (answered === null || answered.statusCode === 200) return socket;
      // What the library returns for a refusal replays the proxy's answer to the request: it goes unread.
      socket.destroy();
      const authenticate = answered.headers['proxy-authenticate'];
      throw new ProxyRefusedError(this.route, answered.statusCode, answered.statusText, targetOf(options), Array.isArray(authenticate) ? (authenticate[0] ?? null) : (authenticate ?? null));
    } catch (error) {
      if (error instanceof ProxyRefusedError || options[CALL_SIGNAL]?.aborted === true) throw error;
      throw new ProxyUnreachableError(this.route, targetOf(options), error);
    } finally {
      request.removeListener('proxyConnect', heard);
    }
  }
}

/** The connection of an http endpoint's requests to an HTTP(S) proxy, which forwards them. */
export class ForwardingAgent extends HttpProxyAgent<string> {
  constructor(
    readonly route: ProxyRoute,
    keepAlive: boolean,
  ) {
    super(route.proxy, { keepAlive, scheduling: 'lifo' });
  }

  override async connect(request: Parameters<HttpProxyAgent<string>['connect']>[0], options: ConnectOptions): Promise<Socket> {
    try {
      return await boundedConnect(this, options, () => super.connect(request, options), null);
    } catch (error) {
      if (options[CALL_SIGNAL]?.aborted === true) throw error;
      throw new ProxyUnreachableError(this.route, targetOf(options), error);
    }
  }
}

/** The agent of a request to an endpoint of `protocol` through `route`. */
export function proxyAgent(route: ProxyRoute, protocol: string, keepAlive: boolean): TunnelAgent | ForwardingAgent {
  return protocol === 'https:' ? new TunnelAgent(route, keepAlive) : new ForwardingAgent(route, keepAlive);
}
