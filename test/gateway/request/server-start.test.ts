/**
 * A server still starting when the run does: vLLM and SGLang refuse
 * connections until their model is loaded, llama.cpp answers 503 "Loading
 * model", a Kubernetes service's proxy 502 or 503. The check before a run
 * waits for it, up to --wait-for-server, saying what it waits for; what no
 * wait mends (a 404, a refused key, a host that does not resolve) is refused
 * at once. Real servers on real sockets.
 */
import { createServer, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { checkEndpoints } from '../../../src/gateway/check.ts';
import { speaksTls } from '../../../src/gateway/request/speaks-tls.ts';
import type { StartWait } from '../../../src/gateway/server-start.ts';
import { UserError } from '../../../src/kernel/errors.ts';
import { startSimServer } from '../../../src/sim/server.ts';
import { listening, runCliInProcess, serveHttp, smallProblems, startProxy, test, writeProblems } from '../../fixtures.ts';

const MODELS = JSON.stringify({ object: 'list', data: [{ id: 'm', object: 'model', owned_by: 'x' }] });

/** A server that answers `GET /models` with `starting` until `readyAfterMs` has passed since it started, then with its model list. */
async function startingServer(starting: (res: ServerResponse) => void, readyAfterMs: number) {
  const started = performance.now();
  return serveHttp((_req, res) => (performance.now() - started < readyAfterMs ? starting(res) : res.writeHead(200, { 'content-type': 'application/json' }).end(MODELS)));
}

/** Checks the endpoint at `url` with a wait of `waitMs`; what it returned or threw, what it told, and how long it took. */
async function check(url: string, waitMs: number) {
  const waits: StartWait[] = [];
  const started = performance.now();
  const result = await checkEndpoints([{ endpoint: { baseUrl: url, model: 'm', apiKey: 'k' }, flag: '--base-url' }], { waitMs, onWait: (wait) => waits.push(wait) }).catch((error: unknown) => error);
  return { result, waits, ms: performance.now() - started };
}

describe('an endpoint still starting is waited for', () => {
  const starting: Array<[string, (res: ServerResponse) => void, string]> = [
    ["llama.cpp's 503 Loading model", (res) => res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 503, message: 'Loading model', type: 'unavailable_error' } })), 'answers HTTP 503: Loading model'],
    // A hosted API's rate limit, met at the start of several runs on one key; Anthropic's overload.
    ["a hosted API's 429", (res) => res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' }).end(JSON.stringify({ error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } })), 'answers HTTP 429: Rate limit reached for requests'],
    ["Anthropic's 529", (res) => res.writeHead(529, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })), 'answers HTTP 529: Overloaded'],
    ["a Kubernetes proxy's 502", (res) => res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body>502 Bad Gateway</body></html>'), 'answers HTTP 502: a web page: 502 Bad Gateway'],
  ];
  test.for(starting)('%s: answered once ready, told what it waited for (before: refused at once)', async ([, answer, what]) => {
    const server = await startingServer(answer, 1_500);
    try {
      const { result, waits } = await check(server.url, 60_000);
      expect(result).toBeInstanceOf(Map);
      expect((result as Map<string, unknown>).get(server.url)).toEqual([{ id: 'm', ownedBy: 'x', window: null }]);
      expect(waits.map((wait) => wait.stage)).toEqual(['waiting', 'ready']);
      expect(waits[0]).toMatchObject({ urls: [server.url], flag: '--base-url', what, boundMs: 60_000 });
    } finally {
      await server.close();
    }
  });

  test('refused connections (vLLM, SGLang before they listen): answered once the server listens', async () => {
    const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(MODELS));
    const { url, close } = await listening(server);
    const port = (server.address() as AddressInfo).port;
    await close();
    setTimeout(() => server.listen(port, '127.0.0.1'), 1_500);
    try {
      const { result, waits } = await check(url, 60_000);
      expect(result).toBeInstanceOf(Map);
      expect(waits[0]).toMatchObject({ stage: 'waiting', what: 'refuses connections (ECONNREFUSED)' });
      expect(waits.at(-1)?.stage).toBe('ready');
    } finally {
      server.close();
    }
  });

  test('up to the bound: then refused, saying how long it waited', async () => {
    const server = await startingServer((res) => res.writeHead(503).end(), Number.POSITIVE_INFINITY);
    try {
      const { result, waits, ms } = await check(server.url, 2_500);
      expect(result).toBeInstanceOf(UserError);
      expect((result as UserError).code).toBe('TMAS_ENDPOINT');
      expect((result as UserError).message).toMatch(/HTTP 503.* tmas waited 3 s for it to start \(--wait-for-server\)\.$/);
      expect(waits.map((wait) => wait.stage)).toEqual(['waiting']);
      expect(ms).toBeGreaterThanOrEqual(2_500);
      expect(ms).toBeLessThan(10_000);
    } finally {
      await server.close();
    }
  });
});

describe('what no wait mends is refused at once, whatever the bound', () => {
  test.for([
    ['a 404 on every route (a wrong base URL)', 404, 'TMAS_ENDPOINT'],
    ['a 401 (a wrong key)', 401, 'TMAS_AUTH'],
    ['a 429 insufficient_quota (a spent account: no rate limit)', 429, 'TMAS_ENDPOINT'],
  ] as const)('%s', async ([, status, code]) => {
    const body = status === 429 ? { error: { message: 'You exceeded your current quota, please check your plan and billing details.', type: 'insufficient_quota', code: 'insufficient_quota' } } : { error: { message: 'no' } };
    const server = await serveHttp((_req, res) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body)));
    try {
      const { result, waits, ms } = await check(server.url, 600_000);
      expect((result as UserError).code).toBe(code);
      expect(waits).toEqual([]);
      expect(ms).toBeLessThan(5_000);
    } finally {
      await server.close();
    }
  });

  // Before: 'connection failed: DEPTH_ZERO_SELF_SIGNED_CERT: self-signed certificate. Check that the server is running …',
  // which it was; nothing said how to make Node trust the certificate.
  test('an https server whose certificate is self-signed (or signed by a private authority): names NODE_EXTRA_CA_CERTS, at once', async () => {
    const tls = path.join(import.meta.dirname, '..', '..', 'fixtures', 'tls');
    const server = createHttpsServer({ key: await readFile(path.join(tls, 'self-signed.key')), cert: await readFile(path.join(tls, 'self-signed.crt')) }, (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(MODELS));
    const { port } = (await new Promise<AddressInfo>((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address() as AddressInfo))));
    try {
      const { result, waits } = await check(`https://localhost:${port}/v1`, 600_000);
      expect((result as UserError).code).toBe('TMAS_ENDPOINT');
      expect((result as UserError).message).toMatch(/not called: its TLS certificate is signed by no authority Node trusts \(DEPTH_ZERO_SELF_SIGNED_CERT.*NODE_EXTRA_CA_CERTS=\/path\/to\/ca\.pem/);
      expect(waits).toEqual([]);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  // Before: https:// to a server of plain HTTP (as vLLM serves) said 'connection failed: write EPROTO …ssl3_get_record:wrong
  // version number …', and http:// to a TLS port nginx's page, each with 'Check that the server is running'.
  test('a base URL whose scheme is not its server\'s: names the base URL to give, at once', async () => {
    const plain = await serveHttp((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(MODELS));
    const nginx = await serveHttp((_req, res) => res.writeHead(400, { 'content-type': 'text/html' }).end('<html>\r\n<head><title>400 The plain HTTP request was sent to HTTPS port</title></head>\r\n<body>\r\n<center><h1>400 Bad Request</h1></center>\r\n<center>The plain HTTP request was sent to HTTPS port</center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n'));
    try {
      const tls = await check(plain.url.replace('http:', 'https:'), 600_000);
      expect((tls.result as UserError).message).toContain(`it answers in plain HTTP, not TLS (OpenSSL: wrong version number): give ${plain.url} as the base URL`);
      const unencrypted = await check(nginx.url, 600_000);
      expect((unencrypted.result as UserError).message).toContain(`it speaks TLS on that port, and refused the plain HTTP request: give ${nginx.url.replace('http:', 'https:')} as the base URL`);
      expect([...tls.waits, ...unencrypted.waits]).toEqual([]);
    } finally {
      await plain.close();
      await nginx.close();
    }
  });

  // Before: 'connection failed: ECONNRESET: socket hang up. Check that the server is running …', which it was: a TLS server
  // other than nginx (Node's https, uvicorn or vLLM with --ssl-keyfile) closes a plain HTTP request without a word.
  test('an http:// base URL of a TLS server that closes the plain request: names the https URL to give, at once', async () => {
    const tls = path.join(import.meta.dirname, '..', '..', 'fixtures', 'tls');
    const server = createHttpsServer({ key: await readFile(path.join(tls, 'self-signed.key')), cert: await readFile(path.join(tls, 'self-signed.crt')) }, (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(MODELS));
    const { port } = await new Promise<AddressInfo>((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address() as AddressInfo)));
    const closing = await serveHttp((req) => req.socket.destroy());
    try {
      const { result, waits } = await check(`http://127.0.0.1:${port}/v1`, 600_000);
      expect((result as UserError).code).toBe('TMAS_ENDPOINT');
      expect((result as UserError).message).toContain(`was not called: it speaks TLS on that port, and closed the plain HTTP request: give https://127.0.0.1:${port}/v1 as the base URL`);
      expect(waits).toEqual([]);
      // A server of plain HTTP that closes the request is no TLS port: the message stays what it was.
      const closed = await check(closing.url, 600_000);
      expect((closed.result as UserError).message).toMatch(/Cannot reach the model endpoint .*socket hang up/);
    } finally {
      server.closeAllConnections();
      server.close();
      await closing.close();
    }
  });

  // Before: an IPv6 address with letters (the probe took only digits, dots and colons for an address) was sent as the TLS
  // server name, which Node refuses with a DeprecationWarning (DEP0123) printed on the user's terminal.
  test('the TLS probe of an IPv6 address with letters in it tells a TLS port without a warning', async () => {
    const tls = path.join(import.meta.dirname, '..', '..', 'fixtures', 'tls');
    const server = createHttpsServer({ key: await readFile(path.join(tls, 'self-signed.key')), cert: await readFile(path.join(tls, 'self-signed.crt')) }, (_req, res) => res.end());
    const { port } = await new Promise<AddressInfo>((resolve) => server.listen(0, '::', () => resolve(server.address() as AddressInfo)));
    const warnings: string[] = [];
    const onWarning = (warning: Error & { code?: string }) => warnings.push(warning.code ?? warning.message);
    process.on('warning', onWarning);
    try {
      // ::ffff:7f00:1 is 127.0.0.1, written as an IPv4-mapped IPv6 address.
      expect(await speaksTls(new URL(`http://[::ffff:7f00:1]:${port}/v1`))).toBe(true);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      server.closeAllConnections();
      server.close();
    }
  });

  // Before: 'answered GET /models with HTTP 404 … check', nothing said that Azure's deployment URLs need an api-version tmas
  // cannot send, nor which URL takes none.
  test("an Azure OpenAI deployment's URL (its classic API, which needs an api-version): names the resource's v1 API to give instead", async () => {
    const server = await serveHttp((req, res) =>
      req.url === '/openai/v1/models' ? res.writeHead(200, { 'content-type': 'application/json' }).end(MODELS) : res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: '404', message: 'Resource not found' } })),
    );
    try {
      const origin = server.url.replace(/\/v1$/, '');
      const { result, waits } = await check(`${origin}/openai/deployments/m`, 600_000);
      expect((result as UserError).code).toBe('TMAS_ENDPOINT');
      expect((result as UserError).message).toContain(`Its OpenAI-compatible base URL is likely ${origin}/openai/v1: give --base-url ${origin}/openai/v1.`);
      expect(waits).toEqual([]);
    } finally {
      await server.close();
    }
  });

  test('an https:// port that accepts the connection and never answers the TLS handshake: says so, and names the http:// URL, in bounded time', async () => {
    // Reads what it is sent and never writes: a server of plain HTTP that waits for a request line does this with a ClientHello.
    const server = createNetServer((socket) => socket.resume());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const started = performance.now();
      const result = await checkEndpoints([{ endpoint: { baseUrl: `https://127.0.0.1:${port}/v1`, model: 'm', apiKey: 'k' }, flag: '--base-url' }], { waitMs: 0, timeoutMs: 1000 }).catch((error: unknown) => error);
      expect((result as UserError).code).toBe('TMAS_ENDPOINT');
      // Before: 'Cannot reach the model endpoint …: no whole answer to GET /models within 1 s. Check that the server is running …'.
      expect((result as UserError).message).toContain(`it accepts connections on 127.0.0.1:${port} but never completed a TLS handshake within 3 s`);
      expect((result as UserError).message).toContain(`give http://127.0.0.1:${port}/v1 as the base URL`);
      // The check's limit and the handshake's wait.
      expect(performance.now() - started).toBeLessThan(8_000);
    } finally {
      server.close();
    }
  });

  test('a host name that does not resolve', async () => {
    const { result, waits } = await check('http://tmas-no-such-host.invalid/v1', 600_000);
    expect((result as UserError).code).toBe('TMAS_ENDPOINT');
    expect((result as UserError).message).toMatch(/ENOTFOUND|EAI_AGAIN/);
    // Before: 'Cannot reach the model endpoint …: connection failed: getaddrinfo ENOTFOUND … Check that the server is running …'.
    expect((result as UserError).message).toMatch(/its host name tmas-no-such-host\.invalid does not resolve \(ENOTFOUND\)|no DNS server answered for its host name tmas-no-such-host\.invalid/);
    expect((result as UserError).message).toContain('check the host\'s spelling in --base-url');
    expect((result as UserError).message).not.toContain('Check that the server is running');
    expect(waits).toEqual([]);
  });
});

test('tmas run against a server that answers 503 Loading model for its first seconds: says what it waits for, then runs', async ({ dir }) => {
  const problems = smallProblems(1);
  const sim = await startSimServer({ problems: problems.map((p) => ({ id: p.problem_id, question: p.question, answer: p.answer })), seed: 3 });
  // Loading for 2 s from the first request the run sends.
  let first: number | null = null;
  const proxy = await startProxy(sim.url, (_url, _body, res) => {
    first ??= performance.now();
    if (performance.now() - first > 2_000) return false;
    res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 503, message: 'Loading model', type: 'unavailable_error' } }));
    return true;
  });
  try {
    const run = path.join(dir, 'run');
    const args = ['run', '--input-file', await writeProblems(dir, problems), '--output-file', run, '--base-url', proxy.url, '--no-proof', '--strategy', 'majority', '--samples', '2', '--max-iterations', '1', '--wait-for-server', '60'];
    const ended = await runCliInProcess(args);
    expect(ended.code, ended.stderr).toBe(0);
    expect(ended.stderr).toContain(`tmas: ${proxy.url} (from --base-url) answers HTTP 503: Loading model: waiting up to 60 s for the server to start, asking every 2 s (--wait-for-server sets how long; 0 does not wait).`);
    expect(ended.stderr).toMatch(new RegExp(`tmas: ${proxy.url.replace(/[.]/g, '\\.')} \\(from --base-url\\) answered after \\d+ s of waiting for it to start\\.`));
    expect((await readFile(path.join(run, 'results.jsonl'), 'utf8')).trim().split('\n')).toHaveLength(1);
  } finally {
    proxy.server.closeAllConnections();
    proxy.server.close();
    await sim.close();
  }
});
