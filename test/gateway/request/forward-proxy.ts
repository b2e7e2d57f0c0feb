/**
 * A site's forward proxy, for the tests of endpoints called through one: it
 * opens CONNECT tunnels (for https endpoints) and forwards requests sent to
 * it with a full URL (for http ones), counts both, keeps what it saw, and can
 * demand credentials, refuse every tunnel, or never answer.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';

/** How the proxy behaves. */
export interface ForwardProxyOptions {
  /** `user:password` it demands (407 without them, or with others). */
  credentials?: string;
  /** Requests it forwards before it demands `credentials`, as when a session's credentials expire (0 unless given). */
  credentialsAfter?: number;
  /** A status it answers every CONNECT with (403, 502). */
  refuse?: number;
  /** Takes connections and never answers. */
  silent?: boolean;
  /** Forwards this many requests, then answers each with its own 403 page, as when its rules change mid-run. */
  forbidAfter?: number;
  /** Forwards this many requests (or opens this many tunnels), then answers none: a proxy that hangs mid-run. */
  silentAfter?: number;
  /** Answers CONNECT with headers that never end. */
  endless?: boolean;
  /** Closes a kept connection as a second request comes on it, as a proxy closes those idle past its keep-alive timeout. */
  dropReused?: boolean;
  /** Its key and certificate: an https:// proxy, spoken to over TLS. */
  tls?: { key: Buffer; cert: Buffer };
}

/** What the proxy saw. */
export interface ProxySeen {
  /** CONNECT requests: their target and headers. */
  tunnels: Array<{ target: string; headers: IncomingHttpHeaders }>;
  /** Requests forwarded: their URL and headers. */
  forwarded: Array<{ url: string; headers: IncomingHttpHeaders }>;
  /** Every byte clients sent inside the tunnels, as text (TLS records for an https endpoint). */
  tunnelled: string;
  /** TCP connections clients opened to the proxy. */
  connections: number;
  /** Of those, the ones closed since. */
  closed: number;
  /** Requests whose kept connection it closed as they came (dropReused). */
  dropped: number;
}

/** A running proxy: its URL (`http://127.0.0.1:PORT`, or `https://localhost:PORT`), what it saw, and a close that drops every connection. */
export interface ForwardProxy {
  url: string;
  port: number;
  seen: ProxySeen;
  close(): Promise<void>;
}

function authorized(headers: IncomingHttpHeaders, credentials: string | undefined): boolean {
  return credentials === undefined || headers['proxy-authorization'] === `Basic ${Buffer.from(credentials).toString('base64')}`;
}

/** Starts a forward proxy on loopback. */
export async function startForwardProxy(options: ForwardProxyOptions = {}): Promise<ForwardProxy> {
  const seen: ProxySeen = { tunnels: [], forwarded: [], tunnelled: '', connections: 0, closed: 0, dropped: 0 };
  const served = new WeakMap<Socket, number>();
  const sockets = new Set<Socket>();
  const forward = (req: IncomingMessage, res: ServerResponse) => {
    served.set(req.socket, (served.get(req.socket) ?? 0) + 1);
    if (options.dropReused === true && (served.get(req.socket) ?? 0) > 1) {
      seen.dropped++;
      return void req.socket.destroy();
    }
    seen.forwarded.push({ url: req.url ?? '', headers: req.headers });
    if (seen.forwarded.length > (options.silentAfter ?? Infinity)) return;
    if (seen.forwarded.length > (options.forbidAfter ?? Infinity)) return void res.writeHead(403, { 'content-type': 'text/html' }).end('<html>Access Denied.</html>');
    if (seen.forwarded.length > (options.credentialsAfter ?? 0) && !authorized(req.headers, options.credentials)) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="site"', 'content-type': 'text/html' }).end('<html>407</html>');
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = httpRequest(req.url ?? '', { method: req.method, headers, agent: false }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  };
  const server = options.tls === undefined ? createServer(forward) : createHttpsServer(options.tls, forward);
  server.on(options.tls === undefined ? 'connection' : 'secureConnection', (socket: Socket) => {
    seen.connections++;
    sockets.add(socket);
    socket.once('close', () => {
      seen.closed++;
      sockets.delete(socket);
    });
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    seen.tunnels.push({ target: req.url ?? '', headers: req.headers });
    // Silent, but it lets the connection go when the client does (an HTTP server's sockets stay half open otherwise).
    if (options.silent === true || seen.tunnels.length > (options.silentAfter ?? Infinity)) return void client.resume().once('end', () => client.destroy());
    if (options.endless === true) {
      client.write('HTTP/1.1 200 Connection Established\r\n');
      const line = `X-Padding: ${'p'.repeat(1000)}\r\n`;
      const more = () => !client.destroyed && client.write(line.repeat(16), () => setImmediate(more));
      return void more();
    }
    if (options.refuse !== undefined) return void client.end(`HTTP/1.1 ${options.refuse} Refused\r\ncontent-length: 0\r\n\r\n`);
    if (!authorized(req.headers, options.credentials)) return void client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="site"\r\ncontent-length: 0\r\n\r\n');
    const [host, port] = (req.url ?? '').split(/:(?=\d+$)/) as [string, string];
    const upstream = connect(Number(port), host.replace(/^\[|\]$/g, ''), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      client.on('data', (chunk: Buffer) => (seen.tunnelled += chunk.toString('latin1')));
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    client.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: options.tls === undefined ? `http://127.0.0.1:${port}` : `https://localhost:${port}`,
    port,
    seen,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
