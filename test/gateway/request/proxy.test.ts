/**
 * Endpoints behind a site's proxy (HTTPS_PROXY, HTTP_PROXY, NO_PROXY, in
 * either case): a run reaches the simulator through a forward proxy of the
 * test's own (forward-proxy.ts), over a CONNECT tunnel for https and
 * forwarded for http; NO_PROXY bypasses it; a proxy that refuses, cannot be
 * reached, or is misspelt is said to be the proxy, naming the variable and
 * never the password. Before, tmas read none of these variables.
 */
import { createServer as createHttpsServer } from 'node:https';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { checkEndpoints } from '../../../src/gateway/check.ts';
import { createGateway } from '../../../src/gateway/gateway.ts';
import { startWaitLine } from '../../../src/gateway/server-start.ts';
import { createHttpTransport } from '../../../src/gateway/request/http-transport.ts';
import { bypassesProxy } from '../../../src/gateway/request/proxy/no-proxy.ts';
import { proxyRoute } from '../../../src/gateway/request/proxy/proxy-env.ts';
import { UserError } from '../../../src/kernel/errors.ts';
import { startSimServer, type SimServer } from '../../../src/sim/server.ts';
import { additionRequest, runCli, runCliInProcess, serveFixedReply, serveHttp, smallProblems, test, withEnv, writeProblems } from '../../fixtures.ts';
import { startForwardProxy, type ForwardProxy, type ForwardProxyOptions } from './forward-proxy.ts';

const TLS = path.join(import.meta.dirname, '..', '..', 'fixtures', 'tls');
/** Every proxy variable unset: what the machine running the tests sets must not reach them. */
const NONE = { HTTPS_PROXY: undefined, https_proxy: undefined, HTTP_PROXY: undefined, http_proxy: undefined, ALL_PROXY: undefined, all_proxy: undefined, NO_PROXY: undefined, no_proxy: undefined };

/** An https server in front of `target` (TLS ends here, as at a hosted API), on `localhost`, with the test certificate; it keeps the Authorization headers it got. */
async function httpsFront(target: string) {
  const origin = new URL(target);
  const authorizations: Array<string | undefined> = [];
  const server = createHttpsServer({ key: await readFile(path.join(TLS, 'self-signed.key')), cert: await readFile(path.join(TLS, 'self-signed.crt')) }, (req, res) => {
    authorizations.push(req.headers.authorization);
    const upstream = httpRequest({ host: origin.hostname, port: origin.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
  return { url: `https://localhost:${(server.address() as AddressInfo).port}/v1`, authorizations, close };
}

/** A simulator, a proxy (as `options` says) and `work`, all closed afterwards. */
async function withProxy<T>(options: ForwardProxyOptions, work: (sim: SimServer, proxy: ForwardProxy) => Promise<T>): Promise<T> {
  const sim = await startSimServer({ problems: [{ id: 'p1', question: 'What is 6 times 7?', answer: '42' }] });
  const proxy = await startForwardProxy(options);
  try {
    return await work(sim, proxy);
  } finally {
    await proxy.close();
    await sim.close();
  }
}

/** What checkEndpoints did with `url` in the environment `env`: the models, or the error. */
function check(url: string, env: Record<string, string | undefined>): Promise<unknown> {
  return withEnv({ ...NONE, ...env }, () => checkEndpoints([{ endpoint: { baseUrl: url, model: '', apiKey: 'sk-secret-key' }, flag: '--base-url' }]).catch((error: unknown) => error));
}

const noPassword = (headers: IncomingHttpHeaders[]) => headers.every((one) => one.authorization === undefined);

describe('through a proxy', () => {
  test('tmas run --help says that --base-url is called through the proxy the environment names', async () => {
    const help = await runCliInProcess(['run', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('called through the proxy HTTPS_PROXY or HTTP_PROXY names, unless NO_PROXY names its host');
  });

  test('a run through HTTP_PROXY reaches the simulator, and says so at start', async ({ dir }) => {
    await withProxy({}, async (sim, proxy) => {
      const input = await writeProblems(dir, smallProblems(1));
      const ran = await withEnv({ ...NONE, HTTP_PROXY: proxy.url }, () =>
        runCliInProcess(['run', '--input-file', input, '--output-file', path.join(dir, 'run'), '--no-proof', '--strategy', 'majority', '--samples', '2', '--max-iterations', '1', '--base-url', sim.url]),
      );
      expect(ran.code, ran.stderr).toBe(0);
      expect(ran.stderr).toContain(`tmas: ${sim.url} (from --base-url) is called through the proxy ${proxy.url} (from HTTP_PROXY)`);
      expect(proxy.seen.forwarded.map((one) => new URL(one.url).pathname)).toContain('/v1/chat/completions');
      expect(proxy.seen.tunnels).toEqual([]);
    });
  });

  test('requests one after another through the proxy share one kept connection', async () => {
    await withProxy({}, async (sim, proxy) => {
      const transport = createHttpTransport();
      try {
        await withEnv({ ...NONE, HTTP_PROXY: proxy.url }, async () => {
          for (let request = 0; request < 5; request++) expect(JSON.parse(await (await transport.request(`${sim.url}/models`)).text())).toHaveProperty('data');
        });
        expect(proxy.seen.forwarded).toHaveLength(5);
        expect(proxy.seen.connections).toBe(1);
      } finally {
        transport.close();
      }
    });
  });

  test('the simulated model tmas starts itself is called directly, whatever HTTP_PROXY says', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(1));
    const ran = await withEnv({ ...NONE, HTTP_PROXY: 'http://127.0.0.1:1' }, () =>
      runCliInProcess(['run', '--input-file', input, '--output-file', path.join(dir, 'run'), '--no-proof', '--strategy', 'majority', '--samples', '2', '--max-iterations', '1']),
    );
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stderr).not.toContain('through the proxy');
  });

  test('a kept connection the proxy closes as it is reused: the request goes out again through the proxy, not a failed call', async () => {
    const server = await serveFixedReply('The answer is 2.', 'stop');
    const proxy = await startForwardProxy({ dropReused: true });
    const gateway = createGateway({ concurrency: 4, timeoutMs: 5_000, maxRetries: 0, stream: false });
    try {
      await withEnv({ ...NONE, HTTP_PROXY: proxy.url }, async () => {
        for (let seed = 1; seed <= 4; seed++) expect((await gateway.complete({ ...additionRequest(server.url, seed), endpoint: { baseUrl: server.url, model: 'm', apiKey: 'k' } })).content).toBe('The answer is 2.');
      });
      expect(gateway.stats.retries).toBe(0);
      expect(proxy.seen.dropped).toBeGreaterThan(0);
      expect(proxy.seen.forwarded.filter((one) => one.url.endsWith('/chat/completions'))).toHaveLength(4);
    } finally {
      gateway.close();
      await proxy.close();
      await server.close();
    }
  });

  test('NO_PROXY leaves the host out (a lower-case http_proxy is read as well)', async () => {
    await withProxy({}, async (sim, proxy) => {
      for (const noProxy of ['127.0.0.1', `127.0.0.1:${new URL(sim.url).port}`, '*', '127.0.0.0/8', 'example.com, 127.0.0.1']) {
        expect(await check(sim.url, { http_proxy: proxy.url, NO_PROXY: noProxy })).toBeInstanceOf(Map);
      }
      expect(proxy.seen.forwarded).toEqual([]);
      expect(await check(sim.url, { http_proxy: proxy.url, no_proxy: '127.0.0.1:1' })).toBeInstanceOf(Map);
      expect(proxy.seen.forwarded).toHaveLength(1);
    });
  });

  test('an https endpoint goes through a CONNECT tunnel: the key goes inside it, the endpoint\'s certificate is checked there', async () => {
    await withProxy({ credentials: 'alice:s3cret' }, async (sim, proxy) => {
      const front = await httpsFront(sim.url);
      try {
        const checked = await check(front.url, { HTTPS_PROXY: `http://alice:s3cret@127.0.0.1:${proxy.port}` });
        // The test certificate is trusted by no authority this process knows: refused inside the tunnel, as without a proxy.
        expect((checked as UserError).code).toBe('TMAS_ENDPOINT');
        expect((checked as UserError).message).toMatch(/through the proxy .*: its TLS certificate is signed by no authority Node trusts/);
        expect(proxy.seen.tunnels.map((one) => one.target)).toEqual([`localhost:${new URL(front.url).port}`]);
        expect(proxy.seen.tunnels[0]?.headers['proxy-authorization']).toBe(`Basic ${Buffer.from('alice:s3cret').toString('base64')}`);
        expect(noPassword(proxy.seen.tunnels.map((one) => one.headers))).toBe(true);
        expect(proxy.seen.tunnelled).not.toContain('sk-secret-key');
      } finally {
        await front.close();
      }
    });
  });

  // A child: NODE_EXTRA_CA_CERTS, which makes Node trust the test certificate, is read at a process's start.
  test('a tmas run reaches an https endpoint through the tunnel, its key seen by the endpoint alone', async ({ dir }) => {
    await withProxy({}, async (sim, proxy) => {
      const front = await httpsFront(sim.url);
      try {
        const input = await writeProblems(dir, smallProblems(1));
        // Eight calls, two at a time: kept tunnels carry them, far fewer than one a call.
        const args = ['run', '--input-file', input, '--output-file', path.join(dir, 'run'), '--no-proof', '--strategy', 'majority', '--samples', '8', '--concurrency', '2', '--max-iterations', '1', '--base-url', front.url, '--api-key', 'sk-secret-key'];
        const ran = await runCli(args, { env: { ...NONE, https_proxy: proxy.url, NODE_EXTRA_CA_CERTS: path.join(TLS, 'self-signed.crt') } as NodeJS.ProcessEnv });
        expect(ran.code, ran.stderr).toBe(0);
        expect(ran.stderr).toContain(`is called through the proxy ${proxy.url} (from https_proxy)`);
        expect(proxy.seen.tunnels.length).toBeGreaterThan(0);
        expect(front.authorizations.length).toBeGreaterThan(8);
        expect(proxy.seen.tunnels.length).toBeLessThan(front.authorizations.length / 2);
        expect(front.authorizations.every((one) => one === 'Bearer sk-secret-key')).toBe(true);
        expect(noPassword(proxy.seen.tunnels.map((one) => one.headers))).toBe(true);
        expect(proxy.seen.tunnelled).not.toContain('sk-secret-key');
      } finally {
        await front.close();
      }
    });
  }, 30_000);

  test('an https:// proxy: TLS to the proxy, then the tunnel, then TLS to the endpoint inside it', async ({ dir }) => {
    const tls = { key: await readFile(path.join(TLS, 'self-signed.key')), cert: await readFile(path.join(TLS, 'self-signed.crt')) };
    await withProxy({ tls, credentials: 'alice:s3cret' }, async (sim, proxy) => {
      const front = await httpsFront(sim.url);
      try {
        const input = await writeProblems(dir, smallProblems(1));
        const args = ['run', '--input-file', input, '--output-file', path.join(dir, 'run'), '--no-proof', '--strategy', 'majority', '--samples', '2', '--max-iterations', '1', '--base-url', front.url];
        const ran = await runCli(args, { env: { ...NONE, HTTPS_PROXY: `https://alice:s3cret@localhost:${proxy.port}`, NODE_EXTRA_CA_CERTS: path.join(TLS, 'self-signed.crt') } as NodeJS.ProcessEnv });
        expect(ran.code, ran.stderr).toBe(0);
        expect(ran.stderr).toContain(`is called through the proxy https://localhost:${proxy.port} (from HTTPS_PROXY)`);
        expect(ran.stderr).not.toContain('s3cret');
        expect(proxy.seen.tunnels.length).toBeGreaterThan(0);
        expect(front.authorizations.length).toBeGreaterThan(2);
      } finally {
        await front.close();
      }
    });
  }, 30_000);
});

describe('a proxy that fails is said to be the proxy', () => {
  test('the wait for a server still starting names the proxy it is called through', async () => {
    const started = performance.now();
    const models = JSON.stringify({ object: 'list', data: [{ id: 'm', object: 'model', owned_by: 'x' }] });
    const server = await serveHttp((_req, res) =>
      performance.now() - started < 500 ? res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'Loading model' } })) : res.writeHead(200, { 'content-type': 'application/json' }).end(models),
    );
    const proxy = await startForwardProxy();
    try {
      const lines: string[] = [];
      await withEnv({ ...NONE, HTTP_PROXY: proxy.url }, () => checkEndpoints([{ endpoint: { baseUrl: server.url, model: 'm', apiKey: 'k' }, flag: '--base-url' }], { waitMs: 30_000, onWait: (wait) => lines.push(startWaitLine(wait)) }));
      expect(lines[0]).toContain(`tmas: ${server.url} (from --base-url) through the proxy ${proxy.url} (from HTTP_PROXY) answers HTTP 503: Loading model: waiting up to 30 s`);
    } finally {
      await proxy.close();
      await server.close();
    }
  });

  test('407 on CONNECT, without credentials or with wrong ones: what to give, never the password', async () => {
    await withProxy({ credentials: 'alice:s3cret' }, async () => {
      const front = await httpsFront('http://127.0.0.1:9/v1');
      try {
        const proxy = await startForwardProxy({ credentials: 'alice:s3cret' });
        const none = (await check(front.url, { HTTPS_PROXY: proxy.url })) as UserError;
        expect(none.code).toBe('TMAS_PROXY');
        expect(none.message).toContain(`was not called: the proxy ${proxy.url} (from HTTPS_PROXY) refused to carry the call to localhost:`);
        expect(none.message).toMatch(/HTTP 407 .*it wants credentials \(Proxy-Authenticate: Basic realm="site"\): put a user and password in HTTPS_PROXY, before the proxy's host \(http:\/\/USER:PASSWORD@127\.0\.0\.1:\d+/);
        const wrong = (await check(front.url, { https_proxy: `http://alice:wrong-pass@127.0.0.1:${proxy.port}` })) as UserError;
        expect(wrong.message).toContain('it refused the credentials https_proxy gives (user alice)');
        expect(wrong.message).not.toContain('wrong-pass');
        expect(front.authorizations).toEqual([]);
        await proxy.close();
      } finally {
        await front.close();
      }
    });
  });

  test('a forwarding proxy\'s 407, a refused tunnel (403, 502): the proxy, and what to do', async () => {
    await withProxy({ credentials: 'alice:s3cret' }, async (sim, proxy) => {
      const forwarded = (await check(sim.url, { HTTP_PROXY: proxy.url })) as UserError;
      expect(forwarded.code).toBe('TMAS_PROXY');
      expect(forwarded.message).toMatch(/the proxy http:\/\/127\.0\.0\.1:\d+ \(from HTTP_PROXY\) refused to carry the call to 127\.0\.0\.1:\d+: HTTP 407 .*it wants credentials/);
    });
    for (const [status, advice] of [
      [403, 'its rules do not let this machine open a tunnel to'],
      [502, 'it could not reach localhost:'],
    ] as const) {
      const proxy = await startForwardProxy({ refuse: status });
      const refused = (await check('https://localhost:8443/v1', { HTTPS_PROXY: proxy.url })) as UserError;
      expect(refused.code).toBe('TMAS_PROXY');
      expect(refused.message).toContain(`HTTP ${status} Refused; ${advice}`);
      expect(refused.message).toContain('add its host to NO_PROXY');
      await proxy.close();
    }
  });

  test('a proxy that starts refusing mid-run (407: its credentials expired) stops the run at once, resumable', async ({ dir }) => {
    await withProxy({ credentials: 'alice:s3cret', credentialsAfter: 1 }, async (sim, proxy) => {
      const input = await writeProblems(dir, smallProblems(1));
      const run = path.join(dir, 'run');
      const ran = await withEnv({ ...NONE, HTTP_PROXY: proxy.url }, () => runCliInProcess(['run', '--input-file', input, '--output-file', run, '--no-proof', '--strategy', 'majority', '--samples', '2', '--max-iterations', '1', '--base-url', sim.url]));
      expect(ran.code).toBe(2);
      expect(ran.stderr).toContain('is called through a proxy that refuses its calls');
      // What tmas prints masks anything shaped as a URL's password, the placeholder too.
      expect(ran.stderr).toMatch(/HTTP 407 .*it wants credentials .*put a user and password in HTTP_PROXY, before the proxy's host \(http:\/\/USER:\*\*\*@127\.0\.0\.1:\d+/);
      expect(ran.stderr).toContain(`continue with: tmas run --resume ${run}`);
      expect(ran.stderr).toContain('TMAS_PROXY');
    });
  });

  test('a proxy that cannot be reached, or whose URL does not parse: the variable and the host, never the password', async () => {
    const unreachable = (await check('https://api.example.com/v1', { HTTPS_PROXY: 'http://bob:hunter2@127.0.0.1:1' })) as UserError;
    expect(unreachable.code).toBe('TMAS_PROXY');
    expect(unreachable.message).toContain('the proxy http://127.0.0.1:1 (from HTTPS_PROXY) cannot be reached (connect ECONNREFUSED 127.0.0.1:1)');
    expect(unreachable.message).toContain('check that the proxy runs and that HTTPS_PROXY names its host and port');
    expect(unreachable.message).not.toContain('names no port');
    // Given without a port, it was called on 80, where curl calls 1080: said, with the fix that holds for every tool.
    const portless = (await check('https://api.example.com/v1', { HTTPS_PROXY: 'http://bob:hunter2@127.0.0.1' })) as UserError;
    expect(portless.message).toContain('the proxy http://127.0.0.1:80 (from HTTPS_PROXY) cannot be reached');
    expect(portless.message).toContain("HTTPS_PROXY names no port, so port 80 was called, as Python's requests and the openai client call it (curl calls 1080): write the port the proxy listens on (HTTPS_PROXY=http://127.0.0.1:PORT)");
    expect(portless.message).not.toContain('hunter2');
    for (const [value, said] of [
      ['http://bob:hunter2@proxy example:3128', 'HTTPS_PROXY is not a URL ("http://bob:***@proxy example:3128")'],
      ['socks5://bob:hunter2@127.0.0.1:1080', 'HTTPS_PROXY names a socks5:// proxy ("socks5://bob:***@127.0.0.1:1080"), and tmas speaks to HTTP proxies only'],
      ['bob:hunter2@proxy example:3128', 'HTTPS_PROXY is not a URL ("bob:***@proxy example:3128")'],
      ['http://bob:100%hunter2@127.0.0.1:3128', 'HTTPS_PROXY has a user or password that is not percent-encoded ("http://bob:***@127.0.0.1:3128"): a % there must start a code'],
      // Passwords (and a user) pasted as they are: their own / or @ neither ends the mask nor hides its start.
      ['http://bob:hunter2/x@proxy:3128', 'HTTPS_PROXY is not a URL ("http://bob:***@proxy:3128")'],
      ['socks5://bob:x@hunter2@127.0.0.1:1080', 'HTTPS_PROXY names a socks5:// proxy ("socks5://bob:***@127.0.0.1:1080")'],
      ['http://bob@site.org:hunter2/x@proxy:3128', 'HTTPS_PROXY is not a URL ("http://bob@site.org:***@proxy:3128")'],
    ]) {
      const wrong = (await check('https://api.example.com/v1', { HTTPS_PROXY: value })) as UserError;
      expect(wrong.code).toBe('TMAS_PROXY');
      expect(wrong.message).toContain(said);
      expect(wrong.message).not.toContain('hunter2');
    }
    const cli = await withEnv({ ...NONE, HTTPS_PROXY: 'socks5://127.0.0.1:1080' }, () => runCliInProcess(['run', '--input-file', 'problems/demo.jsonl', '--base-url', 'https://api.example.com/v1', '--no-proof']));
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain('TMAS_PROXY');
  });

  test('a proxy whose answer to CONNECT never ends its headers: cut at 64 KiB, the proxy named', async () => {
    const proxy = await startForwardProxy({ endless: true });
    try {
      const started = performance.now();
      const endless = (await check('https://api.example.com/v1', { HTTPS_PROXY: proxy.url })) as UserError;
      expect(endless.code).toBe('TMAS_PROXY');
      expect(endless.message).toContain(`the proxy ${proxy.url} (from HTTPS_PROXY) failed before the tunnel to api.example.com:443 opened (its answer to CONNECT went on past 64 KiB without ending its headers)`);
      // Before, it was gathered until the check's 10 s ran out, every read joined to all before it.
      expect(performance.now() - started).toBeLessThan(3_000);
    } finally {
      await proxy.close();
    }
  });

  test('an https:// proxy whose TLS certificate Node does not trust: the proxy\'s certificate, not the endpoint\'s', async () => {
    const server = createTlsServer({ key: await readFile(path.join(TLS, 'self-signed.key')), cert: await readFile(path.join(TLS, 'self-signed.crt')) }, (socket) => socket.on('error', () => {}));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      for (const endpoint of ['https://api.example.com/v1', 'http://vllm.example:8000/v1']) {
        const refused = (await check(endpoint, { HTTPS_PROXY: `https://localhost:${port}`, HTTP_PROXY: `https://localhost:${port}` })) as UserError;
        expect(refused.code).toBe('TMAS_PROXY');
        expect(refused.message).toMatch(new RegExp(`the proxy https://localhost:${port} \\(from HTTPS?_PROXY\\) was not reached: its TLS certificate is signed by no authority Node trusts`));
      }
    } finally {
      server.close();
    }
  });

  test('a proxy that never answers the CONNECT: the call\'s abort ends the call at once and closes the connection to it', async () => {
    const proxy = await startForwardProxy({ silent: true });
    const transport = createHttpTransport();
    try {
      const started = performance.now();
      const failure = await withEnv({ ...NONE, HTTPS_PROXY: proxy.url }, () => transport.request('https://api.example.com/v1/models', { signal: AbortSignal.timeout(200) }).catch((error: unknown) => error));
      // Before, the call itself waited as long as the proxy kept silent: Node's request reports its end only once it has a socket.
      expect((failure as Error).name).toBe('TimeoutError');
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(proxy.seen.tunnels).toHaveLength(1);
      await expect.poll(() => proxy.seen.closed, { timeout: 2_000 }).toBe(1);
      // At start, the check's time limit: the message names the proxy the endpoint was called through, and NO_PROXY.
      const checked = await withEnv({ ...NONE, HTTPS_PROXY: proxy.url }, () =>
        checkEndpoints([{ endpoint: { baseUrl: 'https://api.example.com/v1', model: 'm', apiKey: 'k' }, flag: '--base-url' }], { timeoutMs: 300 }).catch((error: unknown) => error),
      );
      expect((checked as UserError).message).toContain(`Cannot reach the model endpoint https://api.example.com/v1 (from --base-url) through the proxy ${proxy.url} (from HTTPS_PROXY): no whole answer to GET /models within 0.3 s`);
      expect((checked as UserError).message).toContain('if the server is reached without the proxy, add its host to NO_PROXY');
    } finally {
      transport.close();
      await proxy.close();
    }
  });
});

describe('NO_PROXY as curl reads it', () => {

  const bypassed = (url: string, noProxy: string) => bypassesProxy(new URL(url), noProxy);
  test('names, domains, ports, addresses and networks', () => {
    expect(bypassed('https://api.example.com/v1', 'example.com')).toBe(true);
    expect(bypassed('https://api.example.com/v1', '.example.com')).toBe(true);
    expect(bypassed('https://api.example.com/v1', '*.example.com')).toBe(true);
    expect(bypassed('https://example.com/v1', '.example.com')).toBe(true);
    expect(bypassed('https://myexample.com/v1', 'example.com')).toBe(false);
    expect(bypassed('https://API.Example.com/v1', 'EXAMPLE.COM')).toBe(true);
    expect(bypassed('https://api.example.com/v1', 'example.com:443')).toBe(true);
    expect(bypassed('https://api.example.com:8443/v1', 'example.com:443')).toBe(false);
    expect(bypassed('http://10.1.2.3:8000/v1', '10.0.0.0/8')).toBe(true);
    expect(bypassed('http://11.1.2.3:8000/v1', '10.0.0.0/8')).toBe(false);
    expect(bypassed('http://[::1]:8000/v1', '::1')).toBe(true);
    expect(bypassed('http://[::1]:8000/v1', '[::1]:8000')).toBe(true);
    expect(bypassed('http://[fd00::5]:8000/v1', 'fd00::/8')).toBe(true);
    expect(bypassed('http://10.1.2.3/v1', '1.2.3')).toBe(false);
    expect(bypassed('http://localhost:8000/v1', 'example.com')).toBe(false);
    expect(bypassed('http://anything/v1', ' * ')).toBe(true);
  });

  test('which variable wins: the scheme\'s own, lower case first, then ALL_PROXY; a bare host:port is an http proxy', () => {
    const route = (url: string, env: NodeJS.ProcessEnv) => proxyRoute(new URL(url), env);
    expect(route('https://a.example/v1', { https_proxy: 'http://low:1', HTTPS_PROXY: 'http://up:2' })?.variable).toBe('https_proxy');
    expect(route('https://a.example/v1', { HTTP_PROXY: 'http://plain:1' })).toBeNull();
    expect(route('http://a.example/v1', { HTTPS_PROXY: 'http://secure:1' })).toBeNull();
    expect(route('http://a.example/v1', { ALL_PROXY: 'proxy.site:3128' })).toMatchObject({ variable: 'ALL_PROXY', shown: 'http://proxy.site:3128' });
    expect(route('http://a.example/v1', { HTTP_PROXY: '' })).toBeNull();
    expect(route('https://a.example/v1', { HTTPS_PROXY: 'https://proxy.site' })?.shown).toBe('https://proxy.site:443');
    // Without a port, a proxy is called on its scheme's (80, 443), as Python's requests and httpx, Node and Go call it (curl alone calls 1080), and that is kept; a port written, even the scheme's own, is not omitted.
    for (const written of ['http://proxy.site', 'proxy.site', 'http://bob:pa%2Fss@proxy.site/', 'http://proxy.site:']) {
      const found = route('http://a.example/v1', { HTTP_PROXY: written });
      expect([found?.shown, found?.proxy.port, found?.portOmitted], written).toEqual(['http://proxy.site:80', '', true]);
    }
    expect(route('http://a.example/v1', { HTTP_PROXY: 'http://[fd00::1]' })).toMatchObject({ shown: 'http://[fd00::1]:80', portOmitted: true });
    for (const written of ['http://proxy.site:80', 'proxy.site:80', 'http://bob:secret@proxy.site:80/']) expect(route('http://a.example/v1', { HTTP_PROXY: written }), written).toMatchObject({ shown: 'http://proxy.site:80', portOmitted: false });
    expect(route('http://a.example/v1', { HTTP_PROXY: 'http://[fd00::1]:80' })).toMatchObject({ shown: 'http://[fd00::1]:80', portOmitted: false });
    expect(route('https://a.example/v1', { HTTPS_PROXY: 'https://proxy.site:443' })).toMatchObject({ shown: 'https://proxy.site:443', portOmitted: false });
    // A SOCKS proxy set for other tools (ALL_PROXY) refuses a run, saying how to call its endpoint directly; NO_PROXY does so.
    expect(() => route('http://localhost:8000/v1', { ALL_PROXY: 'socks5://127.0.0.1:1080' })).toThrow(/ALL_PROXY names a socks5:\/\/ proxy .*unset it for tmas \(env -u ALL_PROXY tmas …\), or name the endpoint's host in NO_PROXY/);
    expect(route('http://localhost:8000/v1', { ALL_PROXY: 'socks5://127.0.0.1:1080', NO_PROXY: 'localhost' })).toBeNull();
  });
});
