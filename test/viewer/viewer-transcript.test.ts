import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runViewCommand } from '../../src/cli/inspect/view.command.ts';
import type { ViewerServer } from '../../src/viewer/server.ts';
import type { CallRecord } from '../../src/store/store.ts';
import { readJournal, runInProcess, writeProblems } from '../fixtures.ts';

/** Debian's Chromium (`.ci/run` installs it); without it these tests skip. */
const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/**
 * Few problems: a test's runs are small so that the file stays short under
 * load. The second one's id extends the first's past a `/` (`p1/1`): every key
 * of it starts the way p1's keys at iteration 1 do, and none of it may show in p1's pages.
 */
const PROBLEMS = [
  { problem_id: 'p1', question: 'What is the remainder when $2^{10}$ is divided by $7$?', answer: '2' },
  { problem_id: 'p1/1', question: 'What is $3 + 4$?', answer: '7' },
];

interface Shared {
  dir: string;
  viewer: ViewerServer;
  browser: Browser;
  /** The tmas run's journal: N = 3, M = 2, T = 2, two judge passes. */
  journal: CallRecord[];
}

let shared: Shared | null = null;

/** The calls of tmas run's p1 at iteration 1 about candidate 1, as the journal's keys say (candidate × 10,000 + j for a verification, × 100 + pass for the judge), oldest first. */
function candidateCalls(journal: CallRecord[], candidate: number): CallRecord[] {
  const about = (call: CallRecord) =>
    call.role === 'verification' ? Math.floor(call.index / 10_000) === candidate : call.role === 'judge' ? Math.floor(call.index / 100) === candidate : call.index === candidate;
  return journal
    .filter((call) => call.problem === 'p1' && call.iteration === 1 && ['solution', 'verification', 'summary', 'judge'].includes(call.role) && about(call))
    .sort((a, b) => a.timings.startedAt - b.timings.startedAt || (a.key < b.key ? -1 : 1));
}

async function open(route: string): Promise<{ page: Page; errors: string[] }> {
  if (!shared) throw new Error('no viewer');
  const page = await shared.browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(`${shared.viewer.url}${route}`, { waitUntil: 'load' });
  await page.waitForSelector(`body[data-ready="${route}"]`);
  return { page, errors };
}

describe.skipIf(!existsSync(CHROMIUM))('tmas view: transcripts, strategy-aware headers, empty errors, downloads', () => {
  beforeAll(async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'tmas-transcript-'));
    const input = await writeProblems(dir, PROBLEMS);
    const common = ['--input-file', input, '--no-proof', '--max-iterations', '2', '--sim-output-tokens', '60'];
    await runInProcess([...common, '--output-file', path.join(dir, 'tmas'), '--n-candidates', '3', '--n-verifications', '2', '--judge-passes', '2']);
    await runInProcess([...common, '--output-file', path.join(dir, 'majority'), '--strategy', 'majority', '--samples', '4', '--judge-passes', '0']);
    const journal = await readJournal(path.join(dir, 'tmas'));
    const viewer = await runViewCommand([path.join(dir, 'tmas'), path.join(dir, 'majority')], { port: 0 });
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    shared = { dir, viewer, browser, journal };
  }, 60_000);

  afterAll(async () => {
    await shared?.browser.close();
    await shared?.viewer.close();
    if (shared) await rm(shared.dir, { recursive: true, force: true });
  });

  test('a candidate\'s transcript: its solution, M verifications, summary and judge passes in the order they started, with tokens, named by candidate and pass', async () => {
    const expected = candidateCalls(shared?.journal ?? [], 1);
    expect(expected.map((c) => c.role).sort()).toEqual(['judge', 'judge', 'solution', 'summary', 'verification', 'verification']);
    const { page, errors } = await open('#/run/0/problem/p1/1');
    const entries = page.locator('#cand-1 ol.transcript > li.entry > .call');
    expect(await entries.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-key')))).toEqual(expected.map((c) => c.key));
    const heads = await entries.locator('.call-head').allTextContents();
    for (const head of heads) expect(head).toMatch(/^candidate 1 · (solution|verification [01]|summary|judge pass [01]) · \d+ \+ \d+ tokens · \d+ ms · 1 attempt/);
    expect(heads.filter((h) => h.includes('judge pass')).map((h) => h.match(/judge pass \d/)?.[0]).sort()).toEqual(['judge pass 0', 'judge pass 1']);
    // Each judge pass shows its verdict beside its response.
    expect(await page.locator('#cand-1 details[data-kind="judge"] > summary > b').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringMatching(/^judge pass 0 \((verdict [✓✗]|no verdict)\)$/), expect.stringMatching(/^judge pass 1 \((verdict [✓✗]|no verdict)\)$/)]),
    );
    // The summary follows the verifications it summarises.
    const order = heads.map((h) => h.split(' · ')[1]);
    expect(order.indexOf('summary')).toBeGreaterThan(Math.max(order.indexOf('verification 0'), order.indexOf('verification 1')));
    // Experience and guideline are about the problem: its own timeline, not a candidate's.
    expect(await page.locator('.timeline .call').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-role')).sort())).toEqual(['experience', 'guideline']);
    // In the calls tab too, a judge call is named by its candidate and pass, never by its index.
    await page.goto(`${shared?.viewer.url}#/run/0/calls?problem=p1&iteration=1&role=judge`);
    await page.waitForSelector('body[data-ready^="#/run/0/calls"]');
    const judgeHeads = await page.locator('.call[data-role="judge"] .call-head').allTextContents();
    expect(judgeHeads).toHaveLength(3 * 2);
    for (const head of judgeHeads) expect(head).toMatch(/^candidate [0-2] · judge pass [01] · /);
    expect(judgeHeads.join(' ')).not.toContain('#');
    expect(errors).toEqual([]);
    await page.close();
  });

  test('a majority run\'s header shows its samples and T, and no N, M, ε, θ, verifier or judge it does not have', async () => {
    const { page, errors } = await open('#/run/1');
    const settings = await page.locator('.run-head p.muted').textContent();
    expect(settings).toMatch(/^samples=4 vote-pool=0 T=2 ·/);
    for (const absent of ['N=', 'M=', 'ε', 'θ', 'judge']) expect(settings).not.toContain(absent);
    expect(await page.locator('.run-head .models li').allTextContents()).toEqual(['tmas-sim (simulated): solution']);
    // The tmas run beside it keeps its own.
    await page.goto(`${shared?.viewer.url}#/run/0`);
    await page.waitForSelector('body[data-ready="#/run/0"]');
    expect(await page.locator('.run-head p.muted').textContent()).toMatch(/^N=3 M=2 T=2 ε=0\.2 θ=0\.7 judge×2 ·/);
    expect(await page.locator('.run-head .models li').allTextContents()).toEqual(['tmas-sim (simulated): solution, verification, summary, experience, guideline, judge']);
    // Majority asks for every sample in iteration 0: iteration 1's candidates still show the call that wrote them.
    await page.goto(`${shared?.viewer.url}#/run/1/problem/0/1`);
    await page.waitForSelector('body[data-ready="#/run/1/problem/0/1"]');
    expect(await page.locator('#cand-0 .call-head').first().textContent()).toMatch(/^candidate 0 · solution · .* · made in iteration 0/);
    // Iteration 0 holds the first 2 samples; the calls of the other 2 stay in view, said to be outside its results.
    await page.goto(`${shared?.viewer.url}#/run/1/problem/0/0`);
    await page.waitForSelector('body[data-ready="#/run/1/problem/0/0"]');
    expect(await page.locator('.candidate').count()).toBe(4);
    expect(await page.locator('#cand-3 h3').textContent()).toBe('candidate 3 · not among the results of iteration 0 · 1 call');
    expect(errors).toEqual([]);
    await page.close();
  });

  test('the errors tab of a run without errors says so, with no button', async () => {
    const { page, errors } = await open('#/run/1/errors');
    expect(await page.locator('.no-errors').textContent()).toBe('No errors in this run: no failed call, unusable output or trimmed prompt.');
    expect(await page.locator('button:visible').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  test('downloads: a candidate\'s transcript, a call and a problem as JSON attachments that hold the calls', async () => {
    const journal = shared?.journal ?? [];
    const expected = candidateCalls(journal, 1);
    const { page, errors } = await open('#/run/0/problem/0/1');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#cand-1 h3 a.download')]);
    expect(download.suggestedFilename()).toBe('tmas-p1-t1-candidate1.json');
    const transcript = JSON.parse(await readFile((await download.path()) ?? '', 'utf8')) as { strategy: string; candidate: number; result: { candidate: number }; calls: Array<CallRecord & { name: string }> };
    expect(transcript.strategy).toBe('tmas');
    expect(transcript.result.candidate).toBe(1);
    expect(transcript.calls.map((c) => c.key)).toEqual(expected.map((c) => c.key));
    expect(transcript.calls.map((c) => c.response.content)).toEqual(expected.map((c) => c.response.content));
    expect(transcript.calls.filter((c) => c.role === 'judge').map((c) => c.name)).toEqual(expect.arrayContaining(['candidate 1 · judge pass 0', 'candidate 1 · judge pass 1']));

    const solution = expected[0] as CallRecord;
    const one = await page.request.get(`${shared?.viewer.url}download/0/call?key=${encodeURIComponent(solution.key)}`);
    expect(one.headers()['content-disposition']).toMatch(/^attachment; filename="tmas-p1-t1-solution-1\.json"$/);
    expect(((await one.json()) as { call: CallRecord }).call.response.content).toBe(solution.response.content);

    const problem = await page.request.get(`${shared?.viewer.url}download/0/problem/0`);
    expect(problem.headers()['content-disposition']).toMatch(/^attachment; /);
    const body = (await problem.json()) as { iterations: unknown[]; calls: CallRecord[]; truncated: unknown };
    expect(body.iterations).toHaveLength(2);
    expect(body.calls.map((c) => c.key).sort()).toEqual(journal.filter((c) => c.problem === 'p1').map((c) => c.key).sort());
    expect(body.truncated).toBeNull();
    expect((await page.request.get(`${shared?.viewer.url}download/0/problem/9`)).status()).toBe(404);
    // A malformed %-escape in the address is the request's fault: 400 saying so, not a server error.
    for (const address of ['download/0/problem/%E0', 'api/runs/0/problems/50%/transcript/1']) {
      const bad = await page.request.get(`${shared?.viewer.url}${address}`);
      expect(bad.status()).toBe(400);
      expect(await bad.text()).toMatch(/^bad request: the address holds a malformed %-escape: '(%E0|50%)'/);
    }
    expect(errors).toEqual([]);
    await page.close();
  });
});
