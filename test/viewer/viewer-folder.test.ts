import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { describe, expect } from 'vitest';
import { runViewCommand } from '../../src/cli/inspect/view.command.ts';
import { CHROMIUM, CHROMIUM_ARGS } from '../chromium.ts';
import { readJournal, runInProcess, test, writeProblems } from '../fixtures.ts';


const PROBLEMS = [
  { problem_id: 'p1', question: 'Compute $6 \\times 7$.', answer: '42' },
  { problem_id: 'p2', question: 'Compute $2^{5}$.', answer: '32' },
  { problem_id: 'p3', question: 'Compute $100 - 1$.', answer: '99' },
];

/** Three runs of different strategies in one folder, one of them a level deeper; tmas graded by a judge, the others by the rule. */
async function makeFolder(dir: string): Promise<{ folder: string; runs: { tmas: string; majority: string; 'self-refine': string } }> {
  const input = await writeProblems(dir, PROBLEMS);
  const folder = path.join(dir, 'experiments');
  await mkdir(path.join(folder, 'baselines'), { recursive: true });
  const runs = { tmas: path.join(folder, 'tmas'), majority: path.join(folder, 'baselines', 'majority'), 'self-refine': path.join(folder, 'baselines', 'self-refine') };
  const common = ['--input-file', input, '--no-proof', '--max-iterations', '2', '--n-candidates', '2', '--n-verifications', '1', '--sim-output-tokens', '60', '--concurrency', '16'];
  await runInProcess([...common, '--output-file', runs.tmas, '--judge-passes', '1']);
  await runInProcess([...common, '--output-file', runs.majority, '--strategy', 'majority', '--samples', '4']);
  await runInProcess([...common, '--output-file', runs['self-refine'], '--strategy', 'self-refine']);
  return { folder, runs };
}

async function finalPass1(run: string): Promise<number> {
  const metrics = JSON.parse(await readFile(path.join(run, 'metrics.json'), 'utf8')) as { totals: { final: { pass1: number } } };
  return metrics.totals.final.pass1;
}

/** Tokens per problem summed over the journals of runs, read directly from the stores. */
async function tokensByProblem(runs: string[]): Promise<Map<string, number>> {
  const tokens = new Map<string, number>();
  for (const run of runs) for (const call of await readJournal(run)) tokens.set(call.problem, (tokens.get(call.problem) ?? 0) + call.usage.promptTokens + call.usage.completionTokens);
  return tokens;
}

type View = { __tmasView: { overlay?: number[] } };

describe.skipIf(!existsSync(CHROMIUM))('tmas view of a folder of runs in headless Chromium', () => {
  test('the runs page lists three runs; two selected overlay their curves with the caveat; the problem list sorts and keeps its filter over a reload and Back', async ({ dir }) => {
    const { folder, runs } = await makeFolder(dir);
    const viewer = await runViewCommand([folder], { port: 0 });
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${viewer.url}#/`, { waitUntil: 'load' });
      await page.waitForSelector('body[data-ready="#/"]');

      // Breadth first, by name: the run at the top, then the two below `baselines/`.
      const rows = page.locator('table.runs tr[data-run]');
      expect(await rows.count()).toBe(3);
      expect(await rows.locator('td.strategy').allTextContents()).toEqual(['tmas', 'majority', 'self-refine']);
      const expected = await Promise.all([runs.tmas, runs.majority, runs['self-refine']].map(finalPass1));
      const shown = (await rows.locator('td.pass1').allTextContents()).map((text) => Number(text.replace('%', '')) / 100);
      shown.forEach((value, i) => expect(value).toBeCloseTo(expected[i] ?? NaN, 3));
      expect(await rows.locator('.tag.done').count()).toBe(3);

      // Selecting two runs overlays two curves of two points; tmas was judged, majority was not: the page says they do not compare.
      await page.check('table.runs input[data-run="0"]');
      await page.waitForSelector('body[data-ready="#/?runs=0"]');
      await page.check('table.runs input[data-run="1"]');
      await page.waitForSelector('body[data-ready="#/?runs=0,1"]');
      expect(await page.evaluate(() => (window as unknown as View).__tmasView.overlay)).toEqual([2, 2]);
      expect(await page.locator('.caveats .caveat').textContent()).toMatch(/do not all compare/);
      expect(await page.locator('.caveats').textContent()).toMatch(/grading: judge simulated ×1 \(T 0\.6, top_p 0\.95\) vs rule;/);
      expect(await page.locator('.caveats .differs').textContent()).toMatch(/strategy: "tmas" vs "majority"/);

      // The problem list of the two runs, sorted by tokens (the largest first), then reversed.
      await page.click('a.to-problems');
      await page.waitForSelector('body[data-ready="#/problems?runs=0,1"]');
      const ids = () => page.locator('table.problem-list tr[data-id]').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-id')));
      expect(await ids()).toEqual(['p1', 'p2', 'p3']);
      const tokens = await tokensByProblem([runs.tmas, runs.majority]);
      const byTokens = [...tokens.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id);
      await page.click('th[data-sort="tokens"]');
      await page.waitForSelector('body[data-ready$="sort=tokens&desc=1"]');
      expect(await ids()).toEqual(byTokens);
      await page.click('th[data-sort="tokens"]');
      await page.waitForSelector('body[data-ready$="sort=tokens"]');
      expect(await ids()).toEqual([...byTokens].reverse());

      // A filter set on the page is in the URL: a reload keeps it, and so does a problem's page and Back.
      await page.fill('input[name="q"]', 'p2');
      await page.press('input[name="q"]', 'Enter');
      await page.waitForSelector('body[data-ready*="q=p2"]');
      expect(await ids()).toEqual(['p2']);
      const listHash = await page.evaluate(() => location.hash);
      await page.reload({ waitUntil: 'load' });
      await page.waitForSelector(`body[data-ready="${listHash}"]`);
      expect(await ids()).toEqual(['p2']);
      expect(await page.inputValue('input[name="q"]')).toBe('p2');
      await page.click('table.problem-list tr[data-id="p2"] td.id a');
      await page.waitForSelector('body[data-ready^="#/run/0/problem/p2/1?list="]');
      expect(await page.getAttribute('#back-to-list', 'href')).toBe(listHash);
      await page.goBack();
      await page.waitForSelector(`body[data-ready="${listHash}"]`);
      expect(await ids()).toEqual(['p2']);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
      await viewer.close();
    }
  });
});
