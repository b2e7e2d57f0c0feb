/**
 * Behind a site's proxy, beyond what test/gateway/request/proxy.test.ts covers: requests tmas
 * sends outside a run's calls go through the proxy the environment names, as
 * the calls do, and a proxy that fails mid-run is said to be on the way.
 */
import path from 'node:path';
import { describe, expect } from 'vitest';
import { checkEndpoints } from '../../../src/gateway/check.ts';
import { startWaitLine } from '../../../src/gateway/server-start.ts';
import { UserError } from '../../../src/kernel/errors.ts';
import { startSimServer } from '../../../src/sim/server.ts';
import { runCliInProcess, serveHttp, smallProblems, test, withEnv, writeProblems } from '../../fixtures.ts';
import { startForwardProxy, type ForwardProxyOptions } from './forward-proxy.ts';

/** Every proxy variable unset: what the machine running the tests sets must not reach them. */
const NONE = { HTTPS_PROXY: undefined, https_proxy: undefined, HTTP_PROXY: undefined, http_proxy: undefined, ALL_PROXY: undefined, all_proxy: undefined, NO_PROXY: undefined, no_proxy: undefined };

/** A `tmas run` of `samples` calls to simulators (a pool of `replicas`) through a proxy that behaves as `options` say after the start check; its stderr and exit code, and the URLs. */
async function runThroughProxy(dir: string, options: ForwardProxyOptions, samples: number, more: string[] = [], replicas = 1) {
  const sims = await Promise.all(Array.from({ length: replicas }, () => startSimServer({ problems: [{ id: 'p1', question: 'What is 6 times 7?', answer: '42' }] })));
  const proxy = await startForwardProxy(options);
  try {
    const input = await writeProblems(dir, smallProblems(1));
    const urls = sims.map((sim) => sim.url);
    const flags = ['run', '--input-file', input, '--output-file', path.join(dir, 'run'), '--no-proof', '--strategy', 'majority', '--samples', String(samples), '--max-iterations', '1', '--base-url', urls.join(','), ...more];
    // The credentials a proxy demands go in its URL, as a user gives them.
    const named = options.credentials === undefined ? proxy.url : proxy.url.replace('://', `://${options.credentials}@`);
    const ran = await withEnv({ ...NONE, HTTP_PROXY: named }, () => runCliInProcess(flags));
    return { ...ran, simUrl: urls[0] ?? '', simUrls: urls, proxyUrl: proxy.url };
  } finally {
    await proxy.close();
    await Promise.all(sims.map((sim) => sim.close()));
  }
}

describe('behind a proxy, beyond the calls', () => {
  test('tmas plan --metrics-from reads /metrics through HTTP_PROXY, and names a proxy that cannot be reached', async ({ dir }) => {
    const sim = await startSimServer({ problems: [{ id: 'p1', question: 'What is 6 times 7?', answer: '42' }], capacity: { timeScale: 50 } });
    const proxy = await startForwardProxy();
    try {
      const input = await writeProblems(dir, smallProblems(1));
      const flags = ['plan', '--input-file', input, '--no-proof', '--max-iterations', '1', '--draws', '1', '--metrics-from', sim.url, '--metrics-seconds', '1'];
      // An idle simulator decodes nothing: refused, but only once its metrics were read, here through the proxy.
      const idle = await withEnv({ ...NONE, HTTP_PROXY: proxy.url }, () => runCliInProcess(flags));
      expect(idle.stderr).toContain('decoded nothing');
      expect(proxy.seen.forwarded.map((one) => one.url)).toContain(new URL('/metrics', sim.url).href);
      // Before, the global fetch went straight to the server, and a proxy it needed was never named.
      const unreachable = await withEnv({ ...NONE, HTTP_PROXY: 'http://bob:hunter2@127.0.0.1:1' }, () => runCliInProcess(flags));
      expect(unreachable.code).toBe(2);
      expect(unreachable.stderr).toContain('the proxy http://127.0.0.1:1 (from HTTP_PROXY) cannot be reached');
      expect(unreachable.stderr).toContain('TMAS_PROXY');
      expect(unreachable.stderr).not.toContain('hunter2');
      const direct = await withEnv({ ...NONE, HTTP_PROXY: 'http://127.0.0.1:1', NO_PROXY: '127.0.0.1' }, () => runCliInProcess(flags));
      expect(direct.stderr).toContain('decoded nothing');
    } finally {
      await proxy.close();
      await sim.close();
    }
  });
});

describe('a proxy that fails mid-run', () => {
  test('a proxy that stops answering: the endpoint said down names the proxy it is called through, and NO_PROXY', async ({ dir }) => {
    // The start check's GET /models passes; every call after it waits on the proxy.
    const ran = await runThroughProxy(dir, { silentAfter: 1 }, 4, ['--timeout', '0.5', '--max-retries', '0']);
    expect(ran.code, ran.stderr).toBe(2);
    expect(ran.stderr).toContain('TMAS_ENDPOINT_DOWN');
    // Before: 'stays down … Check the server', though the server was fine and the proxy hung.
    expect(ran.stderr).toContain(`The model endpoint ${ran.simUrl} (tmas-sim) called through the proxy ${ran.proxyUrl} (from HTTP_PROXY) stays down`);
    expect(ran.stderr).toContain('Check the server and the proxy (or lower --concurrency; if the server is reached without the proxy, add its host to NO_PROXY), then resume');
  });

  test('a proxy that stops answering every replica of a pool: the pool said down names the proxy, as one endpoint said down does, never its password', async ({ dir }) => {
    // The start check's two GET /models pass; every call after them waits on the proxy.
    const ran = await runThroughProxy(dir, { silentAfter: 2, credentials: 'bob:hunter2' }, 8, ['--timeout', '0.5', '--max-retries', '2'], 2);
    expect(ran.code, ran.stderr).toBe(2);
    expect(ran.stderr).toContain('TMAS_ENDPOINT_DOWN');
    // Before: 'Every replica of the model endpoint pool … stays down … Check the servers', the proxy never named.
    expect(ran.stderr).toContain(`Every replica of the model endpoint pool ${ran.simUrls.join(',')} (tmas-sim) called through the proxy ${ran.proxyUrl} (from HTTP_PROXY) stays down`);
    expect(ran.stderr).toContain('Check the servers and the proxy (if the servers are reached without it, add their hosts to NO_PROXY), then resume');
    expect(ran.stderr).not.toContain('hunter2');
  });
});

describe('a pool whose replicas go their own ways', () => {
  test('a pool down with one replica through a proxy and one called directly (NO_PROXY): each replica is named with its way', async ({ dir }) => {
    const sim = await startSimServer({ problems: [{ id: 'p1', question: 'What is 6 times 7?', answer: '42' }] });
    // The direct replica lists the model at the start check, then never answers a call.
    const direct = await serveHttp((req, res) => {
      if (req.url?.endsWith('/models') === true) res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'tmas-sim', object: 'model' }] }));
    });
    // The proxy passes the start check's GET /models, then goes silent.
    const proxy = await startForwardProxy({ silentAfter: 1 });
    try {
      const input = await writeProblems(dir, smallProblems(1));
      const flags = ['run', '--input-file', input, '--output-file', path.join(dir, 'run'), '--no-proof', '--strategy', 'majority', '--samples', '8', '--max-iterations', '1'];
      const more = ['--base-url', `${sim.url},${direct.url}`, '--timeout', '0.5', '--max-retries', '2'];
      const ran = await withEnv({ ...NONE, HTTP_PROXY: proxy.url, NO_PROXY: new URL(direct.url).host }, () => runCliInProcess([...flags, ...more]));
      expect(ran.code, ran.stderr).toBe(2);
      expect(ran.stderr).toContain(
        `Every replica of the model endpoint pool ${sim.url},${direct.url} (tmas-sim) (${sim.url} called through the proxy ${proxy.url} (from HTTP_PROXY); ${direct.url} called directly) stays down`,
      );
      expect(ran.stderr).toContain('Check the servers and the proxy (if the servers are reached without it, add their hosts to NO_PROXY), then resume');
    } finally {
      await proxy.close();
      await direct.close();
      await sim.close();
    }
  });
});

describe('a proxy that refuses an endpoint at the start check', () => {
  test('an https endpoint whose tunnel the proxy refuses with 503 while it starts is waited for (--wait-for-server), as an http one is', async () => {
    const proxy = await startForwardProxy({ refuse: 503 });
    try {
      const lines: string[] = [];
      const started = performance.now();
      const endpoint = { baseUrl: 'https://api.example.com/v1', model: 'm', apiKey: 'k' };
      const error = await withEnv({ ...NONE, HTTPS_PROXY: proxy.url }, () =>
        checkEndpoints([{ endpoint, flag: '--base-url' }], { waitMs: 1_000, onWait: (wait) => lines.push(startWaitLine(wait)) }).catch((failure: unknown) => failure),
      );
      // Before, refused at once (TMAS_PROXY), no wait, where the same server over http:// was waited for.
      expect(lines[0]).toContain(`tmas: ${endpoint.baseUrl} (from --base-url) through the proxy ${proxy.url} (from HTTPS_PROXY) answers CONNECT with HTTP 503 at the proxy: waiting up to 1 s`);
      expect(proxy.seen.tunnels.length).toBeGreaterThan(1);
      expect((error as UserError).code).toBe('TMAS_PROXY');
      expect((error as UserError).message).toContain('refused to carry the call to api.example.com:443: HTTP 503');
      expect(performance.now() - started).toBeLessThan(5_000);
    } finally {
      await proxy.close();
    }
  });

  test('a replica of a pool whose proxy refuses its tunnel is left out, as one that does not answer is, not the whole run refused', async () => {
    const sim = await startSimServer({ problems: [{ id: 'p1', question: 'What is 6 times 7?', answer: '42' }] });
    const proxy = await startForwardProxy({ refuse: 502 });
    try {
      const left: string[] = [];
      const replicas = [sim.url, 'https://api.example.com/v1'];
      const endpoint = { baseUrl: sim.url, replicas, model: '', apiKey: 'k' };
      // The simulator on loopback is called directly (NO_PROXY); the other replica only through the proxy, which refuses it.
      const models = await withEnv({ ...NONE, HTTPS_PROXY: proxy.url, NO_PROXY: '127.0.0.1' }, () => checkEndpoints([{ endpoint, flag: '--base-url' }], { onUnreachable: (url) => left.push(url) }));
      expect(models.get(sim.url)?.map((model) => model.id)).toEqual(['tmas-sim']);
      // Before, the proxy's refusal of one replica refused the run (TMAS_PROXY) though the other answered.
      expect(left).toEqual(['https://api.example.com/v1']);
    } finally {
      await proxy.close();
      await sim.close();
    }
  });
});

describe('a forwarding proxy\'s own refusal', () => {
  test('a 403 to an http endpoint\'s GET /models through a forwarding proxy names the proxy, whose rules may be what refused', async () => {
    // squid's answer when its rules forbid the host: a 403 page, as the server's own refusal of a key would come.
    const proxy = await serveHttp((_req, res) => res.writeHead(403, { 'content-type': 'text/html' }).end('<html>Access Denied.</html>'));
    try {
      const proxyUrl = proxy.url.replace(/\/v1$/, '');
      const endpoint = { baseUrl: 'http://gpu-node-7.cluster:8000/v1', model: '', apiKey: 'sk-secret-key' };
      const error = (await withEnv({ ...NONE, HTTP_PROXY: proxyUrl }, () => checkEndpoints([{ endpoint, flag: '--base-url' }]).catch((failure: unknown) => failure))) as UserError;
      expect(error.code).toBe('TMAS_AUTH');
      // Before, 'It refused the API key' alone: the user changed a right key while the proxy's rules refused the host.
      expect(error.message).toContain(`It was sent through the proxy ${proxyUrl} (from HTTP_PROXY), whose own 403 (its rules forbid the host) reads the same`);
      expect(error.message).toContain('ask its administrators to allow gpu-node-7.cluster:8000, or name the host in NO_PROXY');
      expect(error.message).not.toContain('sk-secret-key');
    } finally {
      await proxy.close();
    }
  });
});

describe('a forwarding proxy\'s own refusal mid-run', () => {
  test('a 403 of a forwarding proxy whose rules changed mid-run stops the run naming the proxy, not the key alone', async ({ dir }) => {
    // The start check's GET /models passes; every call after it is refused by the proxy's rules.
    const ran = await runThroughProxy(dir, { forbidAfter: 1 }, 2);
    expect(ran.code, ran.stderr).toBe(2);
    expect(ran.stderr).toContain('TMAS_AUTH');
    // Before, 'refused its API key … Give a valid key' alone.
    expect(ran.stderr).toContain(`It was sent through the proxy ${ran.proxyUrl} (from HTTP_PROXY), whose own 403 (its rules forbid the host) reads the same`);
  });
});

describe('localhost through a proxy', () => {
  test('a loopback endpoint sent to a proxy that answers 503 for it: the start line and the wait say to add it to NO_PROXY', async ({ dir }) => {
    // A proxy on another machine: its own localhost serves nothing, so it answers 503, as squid does.
    const proxy = await serveHttp((_req, res) => res.writeHead(503, { 'content-type': 'text/html' }).end('<html>ERR_CONNECT_FAIL</html>'));
    try {
      const input = await writeProblems(dir, smallProblems(1));
      const flags = ['run', '--input-file', input, '--output-file', path.join(dir, 'run'), '--no-proof', '--base-url', 'http://localhost:8000/v1', '--wait-for-server', '1'];
      const ran = await withEnv({ ...NONE, HTTP_PROXY: proxy.url.replace(/\/v1$/, '') }, () => runCliInProcess(flags));
      expect(ran.code).toBe(2);
      // Before, only the wait's 'answers HTTP 503', as for a server loading its model (10 min by default).
      const advice = "A proxy on another machine cannot reach this one's localhost: if the server runs here, add localhost to NO_PROXY (NO_PROXY=localhost,127.0.0.1,::1).";
      expect(ran.stderr).toMatch(/is called through the proxy http:\/\/127\.0\.0\.1:\d+ \(from HTTP_PROXY\); a host NO_PROXY names is called directly\. A proxy on another machine/);
      expect(ran.stderr).toMatch(/answers HTTP 503.*: waiting up to 1 s .*0 does not wait\)\. A proxy on another machine cannot reach/);
      expect(ran.stderr.split(advice).length).toBe(3);
      const direct = await withEnv({ ...NONE, HTTP_PROXY: proxy.url.replace(/\/v1$/, ''), NO_PROXY: 'localhost' }, () => runCliInProcess([...flags, '--wait-for-server', '0']));
      expect(direct.stderr).not.toContain('A proxy on another machine');
    } finally {
      await proxy.close();
    }
  });
});

