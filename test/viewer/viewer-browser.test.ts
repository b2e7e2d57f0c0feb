import { existsSync } from 'node:fs';
import { readdir, readFile, readlink } from 'node:fs/promises';
import { get } from 'node:http';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { parseRunFlags, toRunConfig } from '../../src/cli/run/run.command.ts';
import { runViewCommand, serveLiveRun } from '../../src/cli/inspect/view.command.ts';
import { runEvaluation } from '../../src/host/run/run-evaluation.ts';
import { chartLibraryFile } from '../../src/report/chart-library.ts';
import { openRunsCatalog } from '../../src/viewer/run-catalog.ts';
import { startViewer } from '../../src/viewer/server.ts';
import { loadProblems } from '../../src/input/problems.ts';
import { metricsFromLog, resumedMetricsCollector } from '../../src/observers/log-metrics.ts';
import { Store, type CallRecord } from '../../src/store/store.ts';
import { browserTest as test, CHROMIUM } from '../chromium.ts';
import { runInProcess, writeProblems } from '../fixtures.ts';


/** Problems whose questions carry LaTeX, so that the page has math to render. */
const MATH_PROBLEMS = [
  { problem_id: 'p1', question: 'What is the remainder when $2^{10}$ is divided by $7$?', answer: '2' },
  { problem_id: 'p2', question: 'Compute $\\frac{12}{4} + 3$.', answer: '6' },
  { problem_id: 'p3', question: 'Find $x$ if $x^2 = 49$ and $x > 0$.', answer: '7' },
];

/** A page that records console errors and every request that leaves loopback (those are refused). */
async function watchedPage(browser: Browser): Promise<{ page: Page; errors: string[]; outside: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const errors: string[] = [];
  const outside: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (url.protocol === 'data:' || url.hostname === '127.0.0.1') return route.continue();
    outside.push(url.href);
    return route.abort();
  });
  return { page, errors, outside };
}

async function firstCall(dir: string, prefix: string): Promise<CallRecord> {
  const store = await Store.open(dir);
  try {
    for await (const call of store.callRecords({ gte: prefix, lt: `${prefix}\uffff`, limit: 1 })) return call;
    throw new Error(`no call under ${prefix}`);
  } finally {
    await store.close();
  }
}

describe.skipIf(!existsSync(CHROMIUM))('tmas view in headless Chromium', () => {
  test('a finished run: a candidate\'s verification text and its prompt as sent are on the page, math is rendered, nothing leaves loopback', async ({ dir, browser }) => {
    const input = await writeProblems(dir, MATH_PROBLEMS);
    const run = path.join(dir, 'run');
    await runInProcess(['--input-file', input, '--output-file', run, '--no-proof', '--n-candidates', '3', '--n-verifications', '2', '--max-iterations', '2', '--judge-passes', '1']);
    const verification = await firstCall(run, 'p1/1/verification/');
    const solution = await firstCall(run, 'p1/1/solution/');

    const viewer = await runViewCommand([run], { port: 0 });
    try {
      const { page, errors, outside } = await watchedPage(browser);
      await page.goto(viewer.url, { waitUntil: 'load' });
      // One run: the page opens it, with its curves and problem table.
      await page.waitForSelector('body[data-ready="#/run/0"]');
      expect(await page.locator('table.problems tr').count()).toBe(1 + MATH_PROBLEMS.length);
      expect(await page.evaluate(() => (window as unknown as { __tmasView: { points: Record<number, number> } }).__tmasView.points[0])).toBe(2);

      // From the problem table to p1's last iteration.
      await page.click('table.problems a:text("p1")');
      // Its link names it by its id.
      await page.waitForSelector('body[data-ready="#/run/0/problem/p1/1"]');
      // The question's LaTeX is typeset by KaTeX.
      expect(await page.locator('.question .katex').count()).toBeGreaterThan(0);

      // The page's transcript holds no call's texts (an iteration's were 9.4 MB at N = M = 16): they are fetched when opened.
      const transcript = await (await fetch(`${viewer.url}api/runs/0/problems/p1/transcript/1`)).text();
      expect(transcript).not.toContain(JSON.stringify(verification.response.content).slice(1, -1));
      expect(transcript).not.toContain(JSON.stringify(solution.request.messages.at(-1)?.content ?? '').slice(1, -1));
      expect(await page.locator(`.call[data-key="${solution.key}"] .message`).count()).toBe(0);

      // The candidate's verification, as the verifier wrote it: collapsed, then opened (and only then fetched).
      // Its first fetch fails (a server restarted): the failure is said, and opening the block again asks again.
      // Before, the failed fetch was kept, and the block showed it each time it was opened until the page was reloaded.
      const candidate = Math.floor(verification.index / 10_000);
      const block = page.locator(`#cand-${candidate} details[data-kind="verification"]`).first();
      expect(await block.locator('.text').count()).toBe(0);
      let failed = 0;
      await page.route('**/download/0/call?**', async (route) => (failed++ === 0 ? route.fulfill({ status: 503, body: 'the viewer is restarting' }) : route.continue()));
      await block.locator('summary').click();
      await block.locator('.bad-text').waitFor();
      expect(await block.locator('.bad-text').textContent()).toContain('the viewer is restarting');
      await block.locator('summary').click();
      await block.locator('summary').click();
      await block.locator('.text').waitFor();
      expect(await block.locator('.bad-text').count()).toBe(0);
      await page.unroute('**/download/0/call?**');
      expect(await block.locator('.text').isVisible()).toBe(true);
      expect(await block.locator('.text').textContent()).toBe(verification.response.content);

      // The solution call's prompt, message by message as it was sent.
      const call = page.locator(`.call[data-key="${solution.key}"]`);
      await call.locator('details[data-kind="prompt"] > summary').click();
      await call.locator('details[data-kind="prompt"][data-loaded]').waitFor();
      const system = solution.request.messages.find((m) => m.role === 'system');
      expect(system).toBeDefined();
      expect(await call.locator('.message .text').first().textContent()).toBe(system?.content);
      expect(await call.locator('.call-head').textContent()).toMatch(/tokens · \d+ ms · 1 attempt/);

      // The call list's search finds the verification by a phrase of its text.
      await page.goto(`${viewer.url}#/run/0/calls?problem=p1&iteration=1&role=verification`);
      await page.waitForSelector('body[data-ready^="#/run/0/calls"]');
      expect(await page.locator('.call[data-role="verification"]').count()).toBe(3 * 2);

      await page.screenshot({ path: path.join(dir, 'viewer.png'), fullPage: false });
      // The one failed fetch's 503, which the browser logs, is the only error.
      expect(errors.filter((error) => !error.includes('503'))).toEqual([]);
      expect(outside).toEqual([]);
    } finally {
      await viewer.close();
    }
  });

  test('problems are named by id in the URL: an id, one that needs encoding, an id of digits before a position, and a position when no id matches', async ({ dir, browser }) => {
    const odd = 'AIME 2024/I #3? 50% & é';
    const problems = [
      { problem_id: '2', question: 'Compute $1 + 1$.', answer: '2' },
      { problem_id: odd, question: 'Compute $2 + 2$.', answer: '4' },
      { problem_id: 'demo-003', question: 'Compute $3 + 3$.', answer: '6' },
    ];
    const input = await writeProblems(dir, problems);
    const run = path.join(dir, 'run');
    await runInProcess(['--input-file', input, '--output-file', run, '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '2', '--judge-passes', '0']);
    const viewer = await runViewCommand([run], { port: 0 });
    const hash = (id: string, iteration: number) => `#/run/0/problem/${encodeURIComponent(id)}/${iteration}`;
    try {
      const { page, errors, outside } = await watchedPage(browser);
      const openProblem = async (route: string): Promise<string | null> => {
        await page.goto(`${viewer.url}${route}`, { waitUntil: 'load' });
        await page.waitForSelector(`body[data-ready="${route}"]`);
        return page.locator('h2').first().textContent();
      };
      expect(await openProblem('#/run/0/problem/demo-003/1')).toBe('problem demo-003');
      // The odd id, encoded: its page, its transcripts and its downloads.
      expect(await openProblem(hash(odd, 1))).toBe(`problem ${odd}`);
      expect(await page.locator('.candidate .call').count()).toBeGreaterThan(0);
      const download = await page.getAttribute('a.download:text("download the problem as JSON")', 'href');
      expect(download).toBe(`/download/0/problem/${encodeURIComponent(odd)}`);
      const body = (await (await page.request.get(`${viewer.url}${download?.slice(1) ?? ''}`)).json()) as { problem: { id: string }; calls: Array<{ problem: string }> };
      expect(body.problem.id).toBe(odd);
      expect(body.calls.length).toBeGreaterThan(0);
      expect(body.calls.every((call) => call.problem === odd)).toBe(true);
      expect(await page.locator('nav.tabs a:text-is("0")').getAttribute('href')).toBe(hash(odd, 0));
      // "2" is an id (the first problem) before it is a position (the third).
      expect(await openProblem('#/run/0/problem/2/0')).toBe('problem 2');
      // No problem has the id "1": it is the position, from 0.
      expect(await openProblem('#/run/0/problem/1/0')).toBe(`problem ${odd}`);
      await page.goto(`${viewer.url}#/run/0/problem/7/0`);
      await page.waitForSelector('#status:has-text("not found")');
      // That page's 404 is the only error the browser logs.
      expect(errors.splice(0)).toEqual([expect.stringContaining('404')]);

      // Every link to a problem names its id: the run's problem table, its candidates, and the problem list.
      await page.goto(`${viewer.url}#/run/0`, { waitUntil: 'load' });
      await page.waitForSelector('body[data-ready="#/run/0"]');
      expect(await page.locator('table.problems td:first-child a').evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual(problems.map((p) => hash(p.problem_id, 1)));
      expect(await page.locator(`table.problems a.cand[href^="${hash(odd, 1)}?c="]`).count()).toBe(2);
      await page.click(`table.problems a:text-is("${odd}")`);
      await page.waitForSelector(`body[data-ready="${hash(odd, 1)}"]`);
      await page.goto(`${viewer.url}#/problems?runs=0`, { waitUntil: 'load' });
      await page.waitForSelector('body[data-ready="#/problems?runs=0"]');
      const listed = await page.locator('table.problem-list td.id a').evaluateAll((links) => links.map((a) => a.getAttribute('href')?.split('?')[0]));
      expect(listed.sort()).toEqual(problems.map((p) => hash(p.problem_id, 1)).sort());
      expect(errors).toEqual([]);
      expect(outside).toEqual([]);
    } finally {
      await viewer.close();
    }
  });

  test('a running run (tmas run --view): the curves gain a point while it goes', async ({ dir, browser }) => {
    const input = await writeProblems(dir, MATH_PROBLEMS);
    const args = ['--input-file', input, '--output-file', path.join(dir, 'live'), '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '10', '--judge-passes', '0'];
    const { config, secrets } = toRunConfig(parseRunFlags([...args, '--sim-latency-ms', '60', '--sim-p99-ms', '120']), {});
    const problems = await loadProblems(config.problems.inputFile);
    let url: string | null = null;
    let signalUrl: (value: string) => void = () => {};
    const listening = new Promise<string>((resolve) => (signalUrl = resolve));
    const view = serveLiveRun({ port: 0, dir: config.outputs.dir, say: (line) => signalUrl((url = line.match(/http:\S+/)?.[0] ?? '')) });
    const quiet = { stdout: () => {}, stderr: () => {} };
    const running = runEvaluation(config, secrets, problems, quiet, { view });
    try {
      await Promise.race([listening, running]);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const { page, errors, outside } = await watchedPage(browser);
      await page.goto(url ?? '', { waitUntil: 'load' });
      await page.waitForSelector('body[data-ready="#/run/0"]');
      expect(await page.locator('.tag.live').count()).toBe(1);
      const points = () => page.evaluate(() => (window as unknown as { __tmasView: { points: Record<number, number> } }).__tmasView.points[0] ?? 0);
      const before = await points();
      expect(before).toBeLessThan(10);
      // The page polls the running process: a later iteration shows up as a new point without a reload.
      await page.waitForFunction((n) => ((window as unknown as { __tmasView: { points: Record<number, number> } }).__tmasView.points[0] ?? 0) > n, before, { timeout: 60_000 });
      expect(await points()).toBeGreaterThan(before);
      expect(errors).toEqual([]);
      expect(outside).toEqual([]);
      // Closed before the run ends, when its viewer goes away with it.
      await page.close();
    } finally {
      await running;
    }
  });
});

describe('tmas run --resume --view', () => {
  test("a resumed run's live curves hold every iteration of every problem, as its metrics.json does, not only what the resuming process ran", async ({ dir }) => {
    const input = await writeProblems(dir, MATH_PROBLEMS.slice(0, 2));
    const out = path.join(dir, 'resumed');
    const args = ['--input-file', input, '--output-file', out, '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--judge-passes', '0', '--sim-output-tokens', '60'];
    await runInProcess([...args, '--max-iterations', '1']);
    const { config, secrets } = toRunConfig(parseRunFlags([...args, '--max-iterations', '2']), {});
    const problems = await loadProblems(config.problems.inputFile);
    type Curve = { iteration: number; problems: number; pass1: number | null };
    let served: Curve[] = [];
    // The live viewer as the run ends, before it hands over to the finished run: what the page showed last.
    const view = async (parts: Parameters<ReturnType<typeof serveLiveRun>>[0]) => {
      let url = '';
      const stop = await serveLiveRun({ port: 0, dir: out, say: (line) => (url = line.match(/http:\S+/)?.[0] ?? '') })(parts);
      return async () => {
        served = ((await (await fetch(`${url}api/runs/0/curves`)).json()) as { iterations: Curve[] }).iterations;
        await stop();
      };
    };
    await runEvaluation(config, secrets, problems, { stdout: () => {}, stderr: () => {} }, { view, resume: true });
    const metrics = JSON.parse(await readFile(path.join(out, 'metrics.json'), 'utf8')) as { iterations: Curve[] };
    expect(metrics.iterations.map(({ iteration, problems: n }) => ({ iteration, problems: n }))).toEqual([{ iteration: 0, problems: 2 }, { iteration: 1, problems: 2 }]);
    expect(served.map(({ iteration, problems: n, pass1 }) => ({ iteration, problems: n, pass1 }))).toEqual(metrics.iterations.map(({ iteration, problems: n, pass1 }) => ({ iteration, problems: n, pass1 })));
  });
});

describe('a resume and its earlier log', () => {
  // The resume read its whole log before its first call (30,802 messages of a 200 × 4 run: 7 s), for the live figures alone.
  test('is folded in the background: the collector is there at once, empty until the fold ends, then the log\'s figures', async ({ dir }) => {
    const input = await writeProblems(dir, MATH_PROBLEMS.slice(0, 2));
    const out = path.join(dir, 'run');
    await runInProcess(['--input-file', input, '--output-file', out, '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--judge-passes', '0', '--sim-output-tokens', '60', '--max-iterations', '1']);
    const store = await Store.open(out);
    try {
      const live = resumedMetricsCollector(store, await store.nextSeq());
      expect(live).not.toBeInstanceOf(Promise);
      expect(live.iterations()).toEqual([]);
      await live.ready;
      expect(live.iterations()).toEqual(await metricsFromLog(store));
      expect(live.iterations()[0]?.problems).toBe(2);
    } finally {
      await store.close();
    }
  });
});

describe.skipIf(!existsSync('/proc/self/fd'))('the viewer server under clients that go away', () => {
  test('a client that disconnects mid-file leaves no file open: 100 aborted downloads of Chart.js hold no descriptor of it afterwards', async () => {
    const viewer = await startViewer(openRunsCatalog([]), { port: 0 });
    const chart = chartLibraryFile();
    const openOnChart = async () => (await Promise.all((await readdir('/proc/self/fd')).map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')))).filter((target) => target === chart).length;
    try {
      const aborted = Array.from({ length: 100 }, () => new Promise<void>((resolve) => {
        const request = get(`${viewer.url}assets/chart.js`, { agent: false }, (response) => response.once('data', () => {
          response.socket.destroy();
          resolve();
        }));
        request.on('error', () => resolve());
      }));
      await Promise.all(aborted);
      // The server sees each close on its own turn: a whole answer served afterwards means it has seen them all.
      expect((await fetch(`${viewer.url}assets/chart.js`)).status).toBe(200);
      // A file is closed a turn after its reader is destroyed: looked at again for a while before the verdict.
      for (let look = 0; look < 50 && (await openOnChart()) > 0; look++) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await openOnChart()).toBe(0);
    } finally {
      await viewer.close();
    }
  });
});
