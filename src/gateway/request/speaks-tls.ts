/**
 * Whether a server given by an http:// base URL speaks TLS on its port. A
 * TLS server that is sent plain HTTP (Node's https, uvicorn or vLLM started
 * with --ssl-keyfile, a TLS terminator) mostly closes the connection without
 * a word of HTTP: the start check said "socket hang up" and "check that the
 * server is running", which it was. Asked only after such a failure, and
 * only of a server reached directly (a proxy's connection says nothing of
 * the endpoint's port): one TLS handshake, its certificate not checked, since
 * the question is what the port speaks, not whom to trust.
 */
import { isIP } from 'node:net';
import tls from 'node:tls';
import { causeWords } from './tls-trust.ts';

/** How long the handshake is waited for: a TLS server answers it in one round trip. */
const HANDSHAKE_WAIT_MS = 3000;

/** Failures of a plain HTTP request that a TLS server's answer gives: the connection closed or reset, or bytes that are no HTTP. */
const NO_HTTP_ANSWER = /ECONNRESET|socket hang up|HPE_INVALID_CONSTANT|Expected HTTP\//;

/**
 * What to change when the plain HTTP request to `baseUrl` failed with
 * `error` because its port speaks TLS: the https URL to give; null when the
 * failure is another, or the port speaks no TLS either.
 */
export async function tlsPortAdvice(error: unknown, baseUrl: string): Promise<string | null> {
  if (!URL.canParse(baseUrl)) return null;
  const url = new URL(baseUrl);
  if (url.protocol !== 'http:' || !NO_HTTP_ANSWER.test(causeWords(error))) return null;
  if (!(await speaksTls(url))) return null;
  const port = url.port === '' ? '80' : url.port;
  return `it speaks TLS on that port, and closed the plain HTTP request: give https://${url.host.replace(/:\d+$/, '')}:${port}${url.pathname.replace(/\/$/, '')} as the base URL`;
}

/** Whether `url`'s host and port complete a TLS handshake within HANDSHAKE_WAIT_MS. */
export async function speaksTls(url: URL): Promise<boolean> {
  return (await handshake(url, 80)) === 'completed';
}

/** How a TLS handshake with `url`'s host and port (`defaultPort` when it names none) went within HANDSHAKE_WAIT_MS: completed, held (connected, and no answer), or failed. */
function handshake(url: URL, defaultPort: number): Promise<'completed' | 'held' | 'failed'> {
  const port = Number(url.port === '' ? defaultPort : url.port);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    let connected = false;
    // A name only for a host name: an address as the server name (IPv6 with letters in it too) is refused by Node with a warning.
    const socket = tls.connect({ host, port, rejectUnauthorized: false, ...(isIP(host) === 0 ? { servername: host } : {}) });
    const done = (answer: 'completed' | 'held' | 'failed') => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => done(connected ? 'held' : 'failed'), HANDSHAKE_WAIT_MS);
    socket.once('connect', () => (connected = true));
    socket.once('secureConnect', () => done('completed'));
    socket.once('error', () => done('failed'));
    socket.once('close', () => done('failed'));
  });
}

/**
 * What to change when an https:// endpoint gave no answer in time because
 * its port accepts connections and never completes a TLS handshake (a plain
 * HTTP server that waits for a request line, a load balancer or firewall
 * that holds the handshake): the start check said only "no whole answer to
 * GET /models within 10 s" and "check that the server is running". Null
 * when the handshake completes, or the port refuses or closes.
 */
export async function stalledHandshakeAdvice(baseUrl: string): Promise<string | null> {
  if (!URL.canParse(baseUrl)) return null;
  const url = new URL(baseUrl);
  if (url.protocol !== 'https:') return null;
  const stalled = (await handshake(url, 443)) === 'held';
  if (!stalled) return null;
  const hostPort = url.port === '' ? `${url.host}:443` : url.host;
  const plain = `http://${hostPort}${url.pathname.replace(/\/$/, '')}`;
  return `it accepts connections on ${hostPort} but never completed a TLS handshake within ${HANDSHAKE_WAIT_MS / 1000} s: a server of plain HTTP that waits for a request does this (give ${plain} as the base URL), as does a load balancer or firewall that holds TLS; check the port and the scheme`;
}
