/**
 * A problem side by side in two runs of `tmas view`, in headless Chromium: two
 * runs of the same problems on the simulator, one of them made with an
 * `--agents` module that changes only the summary prompt and marked in its
 * manifest as forked from the other (as `tmas fork` marks one). The first call
 * whose request differs is the summary of iteration 0; every call before it is
 * shown as identical, with the journal keys the stores hold; where the runs'
 * answers or grades first part is the place the stores say (a third run, of
 * another seed, parts from the first).
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { describe, expect } from 'vitest';
import { parseRunFlags, toRunConfig } from '../../src/cli/run/run.command.ts';
import { runViewCommand } from '../../src/cli/inspect/view.command.ts';
import { runEvaluation } from '../../src/host/run/run-evaluation.ts';
import { resolveStrategy } from '../../src/index.ts';
import { loadProblems } from '../../src/input/problems.ts';
import { Store, type CallRecord, type IterationRecord } from '../../src/store/store.ts';
import { CHROMIUM, CHROMIUM_ARGS, pageWithErrors } from '../chromium.ts';
import { readJournal, runCliInProcess, runInProcess, smallProblems, test, writeProblems } from '../fixtures.ts';

const MARK = 'Answer in one short paragraph.';

/** Replaces only the summary prompt: its system message gains a sentence. As a user writes it. */
const BRIEF_SUMMARY = `
import { defineAgents, summaryRole } from 'tmas';
export default defineAgents({
  summary: {
    prompt: (request, options) => {
      const spec = summaryRole.prompt(request, options);
      return { ...spec, system: spec.system + ' ${MARK}' };
    },
  },
});
`;

const FLAGS = ['--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '2', '--judge-passes', '0', '--sim-output-tokens', '60', '--concurrency', '16'];

async function run(input: string, output: string, agents: string | null, seed = '7'): Promise<void> {
  const { config, secrets } = toRunConfig(parseRunFlags(['--input-file', input, '--output-file', output, ...FLAGS, '--seed', seed, ...(agents ? ['--agents', agents] : [])]), {});
  const strategy = await resolveStrategy(config.loop);
  await runEvaluation(config, secrets, await loadProblems(config.problems.inputFile), { stdout: () => {}, stderr: () => {} }, { strategy });
}

/** Writes into the fork's manifest the run it was made from, as `tmas fork` does. */
async function markFork(fork: string, parent: string, changed: string[]): Promise<void> {
  const from = await Store.open(parent);
  const id = (await from.getManifest())?.run;
  await from.close();
  const store = await Store.open(fork);
  try {
    const manifest = await store.getManifest();
    await store.manifest().put('manifest', { ...manifest, forkedFrom: { run: id, dir: parent, changed } });
  } finally {
    await store.close();
  }
}

async function iterationRecords(dir: string, problem: string): Promise<IterationRecord[]> {
  const store = await Store.open(dir);
  try {
    const records: IterationRecord[] = [];
    for await (const record of store.iterationRecords()) if (record.problem === problem) records.push(record);
    return records;
  } finally {
    await store.close();
  }
}

/** Where two runs' answers or grades first part, from their stores: `iteration/candidate`, or '' where they never do. */
async function firstParting(a: string, b: string, problem: string): Promise<string> {
  const [left, right] = await Promise.all([iterationRecords(a, problem), iterationRecords(b, problem)]);
  for (const record of left) {
    const other = right.find((r) => r.iteration === record.iteration);
    for (const c of record.candidates) {
      const d = other?.candidates.find((x) => x.candidate === c.candidate);
      if (!d || d.answer !== c.answer || d.correct !== c.correct) return `${record.iteration}/${c.candidate}`;
    }
  }
  return '';
}

function callsOf(journal: CallRecord[], problem: string, iteration: number, role: string): CallRecord[] {
  return journal.filter((call) => call.problem === problem && call.iteration === iteration && call.role === role).sort((a, b) => a.index - b.index);
}

describe.skipIf(!existsSync(CHROMIUM))('tmas view: a problem side by side in two runs', () => {
  test('the first differing call is the summary of iteration 0, the calls before it are identical, the parting is where the stores say; a fork links to its parent', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(2));
    const folder = path.join(dir, 'runs');
    await mkdir(folder);
    const agents = path.join(dir, 'brief.mjs');
    await writeFile(agents, BRIEF_SUMMARY);
    // By name, the fork is run 0, the plain run 1 and the run of another seed 2.
    const fork = path.join(folder, 'brief');
    const plain = path.join(folder, 'plain');
    const reseeded = path.join(folder, 'reseeded');
    await run(input, plain, null);
    await run(input, fork, agents);
    // The run of another seed reads a revised data set: p2 is another question under the same id.
    const revised = smallProblems(2).map((p) => (p.problem_id === 'p2' ? { ...p, question: `${p.question} Show your work.` } : p));
    await mkdir(path.join(dir, 'revised'));
    await run(await writeProblems(path.join(dir, 'revised'), revised), reseeded, null, '8');
    await markFork(fork, plain, ['--agents brief.mjs']);

    // The stores: iteration 0's solutions and verifications are the same requests in both runs, its summaries are not.
    const [forkCalls, plainCalls] = await Promise.all([readJournal(fork), readJournal(plain)]);
    const keys = (journal: CallRecord[], role: string) => callsOf(journal, 'p1', 0, role).map((call) => call.key);
    expect(keys(forkCalls, 'solution')).toEqual(keys(plainCalls, 'solution'));
    expect(keys(forkCalls, 'verification')).toEqual(keys(plainCalls, 'verification'));
    expect(keys(forkCalls, 'summary')).toHaveLength(2);
    expect(keys(forkCalls, 'summary').filter((key) => keys(plainCalls, 'summary').includes(key))).toEqual([]);
    const parting = await firstParting(fork, plain, 'p1');

    const viewer = await runViewCommand([folder], { port: 0 });
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    try {
      const { page, errors } = await pageWithErrors(browser);

      // From the problem list of both runs: p1's compare link.
      await page.goto(`${viewer.url}#/problems?runs=0,1`, { waitUntil: 'load' });
      await page.waitForSelector('body[data-ready="#/problems?runs=0,1"]');
      await page.click('table.problem-list tr[data-id="p1"] a.compare');
      await page.waitForSelector('body[data-ready="#/compare/0,1/problem/p1"]');

      // Exactly one call is marked as the first difference: a summary of iteration 0, with each run's journal key.
      const first = page.locator('tr.call-row.first-difference');
      expect(await first.count()).toBe(1);
      expect(await first.getAttribute('data-role')).toBe('summary');
      expect(await first.getAttribute('data-iteration')).toBe('0');
      const shownKeys = await first.locator('td.digest').evaluateAll((cells) => cells.map((cell) => cell.getAttribute('title')));
      expect(keys(forkCalls, 'summary')).toContain(shownKeys[0]);
      expect(keys(plainCalls, 'summary')).toContain(shownKeys[1]);
      expect(await page.locator('.first-difference-note').textContent()).toMatch(/iteration 0, candidate \d · summary/);

      // Every call before it is shown as identical, under the key both journals hold; among them, iteration 0's solutions and verifications.
      const before = await page.locator('tr.call-row').evaluateAll((rows) => {
        const at = rows.findIndex((row) => row.classList.contains('first-difference'));
        return rows.slice(0, at).map((row) => ({ role: row.getAttribute('data-role'), same: row.classList.contains('same'), verdict: row.querySelector('.verdict')?.textContent, keys: [...row.querySelectorAll('td.digest')].map((cell) => cell.getAttribute('title')) }));
      });
      expect(before.map((row) => row.role).sort()).toEqual(['solution', 'solution', 'verification', 'verification']);
      for (const row of before) {
        expect(row).toMatchObject({ same: true, verdict: 'identical' });
        expect(row.keys[0]).toBe(row.keys[1]);
        expect([...keys(plainCalls, 'solution'), ...keys(plainCalls, 'verification')]).toContain(row.keys[0]);
      }

      // Where the answers or grades first part is what the stores say.
      expect(await page.getAttribute('.parting-note', 'data-parting')).toBe(parting);
      expect(await page.locator('tr.first-parting').count()).toBe(parting === '' ? 0 : 1);

      // Opened, the first difference shows both summary calls side by side: only the fork's prompt has the new sentence.
      await first.locator('button.open-texts').click();
      const sides = page.locator('tr.call-texts .side');
      await page.waitForSelector('tr.call-texts .side .call');
      expect(await sides.locator('h4').allTextContents()).toEqual(['brief', 'plain']);
      const systems = await sides.locator('.call .message .text').evaluateAll((texts) => texts.map((text) => text.textContent ?? ''));
      expect(systems.filter((text) => text.includes(MARK))).toHaveLength(1);
      expect(await sides.nth(0).locator('.message .text').first().textContent()).toContain(MARK);
      await page.screenshot({ path: '/tmp/viewer-compare.png', fullPage: true });

      // The fork's page names its parent (by its place in the folder, as the runs page does) and what changed, and links to the problems of both.
      await page.goto(`${viewer.url}#/run/0`, { waitUntil: 'load' });
      await page.waitForSelector('body[data-ready="#/run/0"]');
      expect(await page.locator('.fork-note').textContent()).toMatch(/forked from runs\/plain, changed: --agents brief\.mjs/);
      expect(await page.getAttribute('.fork-note a.fork-problems', 'href')).toBe('#/problems?runs=1,0');
      // A problem's page in the fork opens it side by side with the parent.
      await page.goto(`${viewer.url}#/run/0/problem/p1/1`, { waitUntil: 'load' });
      await page.waitForSelector('body[data-ready="#/run/0/problem/p1/1"]');
      await page.click('a.fork-compare:text("side by side with runs/plain")');
      await page.waitForSelector('body[data-ready="#/compare/1,0/problem/p1"]');
      expect(await page.locator('.compared-runs li[data-run="0"] .fork-of').textContent()).toMatch(/forked from plain/);
      // Each run's settings beside its name: the fork's module by name and digest (two edits of one module read apart), the plain run's none.
      expect(await page.locator('.compared-runs li[data-run="0"] .run-settings').textContent()).toMatch(/N=2 .*agents=brief\.mjs \(sha256:[0-9a-f]{12}\)/);
      expect(await page.locator('.compared-runs li[data-run="1"] .run-settings').textContent()).not.toContain('agents=');
      expect(await page.locator('tr.call-row.first-difference').getAttribute('data-role')).toBe('summary');
      // A run of another seed differs from its first call on, and its answers part from the plain run's where the stores say.
      const apart = await firstParting(plain, reseeded, 'p1');
      expect(apart).not.toBe('');
      await page.goto(`${viewer.url}#/compare/1,2/problem/p1`, { waitUntil: 'load' });
      await page.waitForSelector('body[data-ready="#/compare/1,2/problem/p1"]');
      expect(await page.locator('tr.call-row').first().getAttribute('class')).toContain('first-difference');
      expect(await page.getAttribute('.parting-note', 'data-parting')).toBe(apart);
      const [iteration, candidate] = apart.split('/');
      const partingRow = page.locator(`section[data-iteration="${iteration}"] tr.first-parting`);
      expect(await partingRow.getAttribute('data-candidate')).toBe(candidate);
      expect(await page.locator('tr.first-parting').count()).toBe(1);
      // p1 is the same problem in both; p2 is not, and the page says so on the run whose p2 is another.
      expect(await page.locator('.problem-differs').count()).toBe(0);
      await page.goto(`${viewer.url}#/compare/1,2/problem/p2`, { waitUntil: 'load' });
      await page.waitForSelector('body[data-ready="#/compare/1,2/problem/p2"]');
      expect(await page.locator('.compared-runs li[data-run="1"] .problem-differs').count()).toBe(0);
      expect(await page.locator('.compared-runs li[data-run="2"] .problem-differs').textContent()).toBe(' · another problem under this id: its question differs from the one shown');
      // The problem list paired them by id: p2's row averaged and set apart the Pass@1 of two different problems. Now the run
      // whose p2 is another is marked, left out of the row's figures, and the count of such ids said.
      await page.goto(`${viewer.url}#/problems?runs=1,2`, { waitUntil: 'load' });
      await page.waitForSelector('body[data-ready="#/problems?runs=1,2"]');
      expect(await page.locator('table.problem-list tr[data-id="p2"] .problem-differs').count()).toBe(1);
      expect(await page.locator('table.problem-list tr[data-id="p1"] .problem-differs').count()).toBe(0);
      expect(await page.locator('p.total').textContent()).toContain('1 id names another problem in some run (another question or reference answer');
      const p2Row = await page.locator('table.problem-list tr[data-id="p2"] td').allTextContents();
      expect(p2Row[4]).toBe('–');

      // The plain run has no parent.
      await page.goto(`${viewer.url}#/run/1`, { waitUntil: 'load' });
      await page.waitForSelector('body[data-ready="#/run/1"]');
      expect(await page.locator('.fork-note').count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
      await viewer.close();
    }
  });
});

/** Runs of one problem into DIR/runs/<name>, each with the flags all share and its own; resolves DIR/runs. */
async function runsOfOneProblem(dir: string, shared: string[], runs: Record<string, string[]>): Promise<string> {
  const input = await writeProblems(dir, smallProblems(1));
  const folder = path.join(dir, 'runs');
  for (const [name, own] of Object.entries(runs)) await runInProcess(['--input-file', input, '--no-proof', '--n-candidates', '2', '--n-verifications', '1', ...shared, ...own, '--output-file', path.join(folder, name)]);
  return folder;
}

describe('tmas view: settings a --resume --force changed', () => {
  // The evaluation block holds the settings a run ended with: a run resumed with --force --temperature 0.9 after iteration 0 read as one made at 0.9 throughout.
  test('the runs list, the overlay of two runs and the run page name the change and the iterations made before it', async ({ dir }) => {
    const folder = await runsOfOneProblem(dir, ['--judge-passes', '0'], { 'a-plain': ['--max-iterations', '2'], 'b-forced': ['--max-iterations', '1'] });
    const resumed = await runCliInProcess(['run', '--resume', path.join(folder, 'b-forced'), '--force', '--temperature', '0.9', '--max-iterations', '2']);
    expect(resumed.code, resumed.stderr).toBe(0);
    const viewer = await runViewCommand([folder], { port: 0 });
    try {
      const get = async <T>(route: string) => (await (await fetch(`${viewer.url}api/${route}`)).json()) as T;
      const change = '--temperature changed on resume after iteration 0';
      const { runs } = await get<{ runs: Array<{ label: string; forcedChanges: string[] }> }>('runs');
      expect(runs.map((run) => [run.label, run.forcedChanges])).toEqual([
        ['runs/a-plain', []],
        ['runs/b-forced', [change]],
      ]);
      const overlay = await get<{ runs: Array<{ differs: string[] }> }>('overlay?runs=0,1');
      expect(overlay.runs[1]?.differs).toContain(`changed on resume with --force: none vs ${change}`);
      expect((await get<{ forcedChanges: string[] }>('runs/1')).forcedChanges).toEqual([change]);
    } finally {
      await viewer.close();
    }
  });
});

describe('tmas view: runs graded apart', () => {
  // Before, the overlay's line named the judge's whole block as JSON against null, field after field.
  test('the overlay names how each run was graded in the runs table\'s words, one line, no judge block as JSON', async ({ dir }) => {
    const folder = await runsOfOneProblem(dir, ['--max-iterations', '1'], { 'a-rule': ['--judge-passes', '0'], 'b-judge': ['--judge-passes', '2'] });
    const viewer = await runViewCommand([folder], { port: 0 });
    try {
      const overlay = (await (await fetch(`${viewer.url}api/overlay?runs=0,1`)).json()) as { runs: Array<{ grading: string; differs: string[] }> };
      const [rule, judge] = overlay.runs;
      expect(rule?.grading).toBe('rule');
      expect(judge?.grading).toMatch(/^judge .*×2/);
      expect(judge?.differs).toContain(`grading: rule vs ${judge?.grading}`);
      for (const line of judge?.differs ?? []) expect(line).not.toMatch(/[{}]|\bnull\b/);
    } finally {
      await viewer.close();
    }
  });
});
