import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { runReportCommand } from '../../src/cli/inspect/report.command.ts';
import { detailAnchor, problemAnchor } from '../../src/report/html.ts';
import { browserTest as test, CHROMIUM } from '../chromium.ts';
import { runInProcess, smallProblems, writeProblems } from '../fixtures.ts';


/** What the report's script records per chart (client.ts). */
interface DrawnChart {
  id: string;
  title: string;
  type: string;
  datasets: number;
  bands?: number;
  pointsPerRun: number[];
  empty?: string;
}

/** A page of the given width that records errors (console and uncaught) and refuses, and records, every request but a file's: the report must need no network. */
async function openReport(browser: Browser, width: number): Promise<{ page: Page; errors: string[]; fetched: string[] }> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  const fetched: string[] = [];
  await page.route('**/*', async (route) => {
    const url = route.request().url();
    if (url.startsWith('file:')) return route.continue();
    fetched.push(url);
    return route.abort();
  });
  return { page, errors, fetched };
}

describe.skipIf(!existsSync(CHROMIUM))('the HTML report in headless Chromium', () => {
  test('draws every chart with data for every run, logs no error, fetches nothing, and a problem link opens its details', async ({ dir, browser }) => {
    const input = await writeProblems(dir, smallProblems(3));
    const args = ['--input-file', input, '--no-proof', '--n-candidates', '3', '--n-verifications', '1', '--max-iterations', '2', '--judge-passes', '1'];
    await runInProcess([...args, '--output-file', path.join(dir, 'eps-low'), '--epsilon', '0']);
    await runInProcess([...args, '--output-file', path.join(dir, 'eps-high'), '--epsilon', '1']);
    const out = path.join(dir, 'report.html');
    await runReportCommand([path.join(dir, 'eps-low'), path.join(dir, 'eps-high')], { out, format: 'html' }, { stdout: () => {} });

    const { page, errors, fetched } = await openReport(browser, 1200);
    // Inline scripts have run by the load event.
    await page.goto(pathToFileURL(out).href, { waitUntil: 'load' });
    expect(errors).toEqual([]);
    const charts = await page.evaluate(() => (window as unknown as { __tmasCharts?: DrawnChart[] }).__tmasCharts ?? []);

    expect(charts.map((c) => c.id)).toEqual(['pass1', 'majority', 'best-verified', 'oracle', 'pass1-tokens', 'tokens', 'banks', 'exploit-prompt', 'tokens-by-role', 'latency']);
    for (const chart of charts) {
      expect(chart.title, chart.id).toMatch(/simulated/);
      expect(chart.pointsPerRun, chart.id).toHaveLength(2);
      for (const points of chart.pointsPerRun) expect(points, chart.id).toBeGreaterThan(0);
    }
    // One line per run on the Pass@1 chart, a point per iteration; two bank lines per run.
    expect(charts.find((c) => c.id === 'pass1')).toMatchObject({ type: 'line', datasets: 2, pointsPerRun: [2, 2] });
    // Each accuracy curve carries its 95% bootstrap interval over problems: two band edges per run.
    for (const id of ['pass1', 'majority', 'best-verified', 'oracle']) expect(charts.find((c) => c.id === id)?.bands, id).toBe(4);
    expect(charts.find((c) => c.id === 'banks')).toMatchObject({ datasets: 4, pointsPerRun: [4, 4] });
    // Every canvas has pixels painted on it, not just a chart object behind it.
    const painted = await page.evaluate(() =>
      [...document.querySelectorAll('canvas')].map((canvas) => {
        const pixels = canvas.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data ?? new Uint8ClampedArray();
        let count = 0;
        for (let i = 3; i < pixels.length; i += 4) if ((pixels[i] ?? 0) > 0) count += 1;
        return count;
      }),
    );
    expect(painted).toHaveLength(charts.length);
    for (const count of painted) expect(count).toBeGreaterThan(1000);

    // A problem link opens that problem's details, and only that one.
    const p2 = page.locator(`details.problem:has(#${problemAnchor('p2')})`);
    const p1 = page.locator(`details.problem:has(#${problemAnchor('p1')})`);
    expect(await p2.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    await page.click(`a[href="#${problemAnchor('p2')}"]`);
    await page.waitForFunction((id) => document.getElementById(id)?.closest('details')?.open === true, problemAnchor('p2'));
    expect(await p2.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    expect(await p1.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    expect(await page.locator(`#${detailAnchor('p2', 1, 1)}`).isVisible()).toBe(true);
    expect(await p2.locator('.cand').count()).toBeGreaterThan(0);
    // Each candidate's hover is its summary, held once in the page and put in its title as its problem opens.
    const titles = await p2.locator('.cand').evaluateAll((spans) => spans.map((span) => span.getAttribute('title')));
    for (const title of titles) expect(title).toMatch(/^#\d+ [a-z-]+: \S.{20,}/);
    expect(await p1.locator('.cand[title]').count()).toBe(0);
    // An iteration link of the second run opens p1 at that iteration's candidates.
    await page.click(`a[href="#${detailAnchor('p1', 1, 1)}"]`);
    await page.waitForFunction((id) => document.getElementById(id)?.closest('details')?.open === true, detailAnchor('p1', 1, 1));
    expect(await page.locator(`#${detailAnchor('p1', 1, 1)}`).isVisible()).toBe(true);

    // Clicking scrolled the wide problem table sideways: back to its first column for the picture.
    await page.evaluate(() => {
      for (const box of document.querySelectorAll('.scroll')) box.scrollLeft = 0;
      window.scrollTo(0, 0);
    });
    await page.screenshot({ path: '/tmp/report.png', fullPage: true });
    expect(errors).toEqual([]);
    expect(fetched).toEqual([]);
  });

  test('six runs at 1400 px: nothing wider than the window, badges clear of chart titles, typeset answers in a scrolling problem table, one band at a time', async ({ dir, browser }) => {
    const input = await writeProblems(dir, [...smallProblems(2), { problem_id: 'frac', question: 'Write three quarters as a fraction.', answer: '\\frac{3}{4}' }]);
    const base = ['--input-file', input, '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '2', '--judge-passes', '0'];
    const strategies: Array<[string, string[]]> = [['tmas', []], ['majority', ['--samples', '2']], ['self-refine', []], ['verify-refine-chains', []], ['rse', []], ['pacore', ['--round-widths', '2,1']]];
    for (const [strategy, own] of strategies) await runInProcess([...base, '--output-file', path.join(dir, strategy), '--strategy', strategy, ...own]);
    const out = path.join(dir, 'six.html');
    await runReportCommand(strategies.map(([strategy]) => path.join(dir, strategy)), { out, format: 'html' }, { stdout: () => {} });

    const { page, errors, fetched } = await openReport(browser, 1400);
    await page.goto(pathToFileURL(out).href, { waitUntil: 'load' });
    await page.evaluate(() => document.fonts.ready);

    // Nothing makes the page wider than the window; the runs table fits without scrolling.
    expect(await page.evaluate(() => document.scrollingElement?.scrollWidth)).toBeLessThanOrEqual(1400);
    expect(await page.evaluate(() => [...document.querySelectorAll('.scroll')].slice(0, 1).map((box) => box.scrollWidth - box.clientWidth))).toEqual([0]);

    // The simulated badge of each chart never covers the title Chart.js draws.
    const overlaps = await page.evaluate(() => {
      type TitleBox = { left: number; top: number; width: number; height: number };
      const charting = (window as unknown as { Chart: { getChart(canvas: HTMLCanvasElement): { titleBlock?: TitleBox } | undefined } }).Chart;
      return [...document.querySelectorAll('figure.chart')].flatMap((figure) => {
        const badge = figure.querySelector('.sim')?.getBoundingClientRect();
        const canvas = figure.querySelector('canvas');
        const title = canvas ? charting.getChart(canvas)?.titleBlock : undefined;
        if (!badge || !canvas || !title) return [`${figure.getAttribute('data-chart')}: no badge or no title`];
        const at = canvas.getBoundingClientRect();
        const box = { left: at.left + title.left, top: at.top + title.top, right: at.left + title.left + title.width, bottom: at.top + title.top + title.height };
        const apart = badge.right <= box.left || badge.left >= box.right || badge.bottom <= box.top || badge.top >= box.bottom;
        return apart ? [] : [figure.getAttribute('data-chart') ?? '?'];
      });
    });
    expect(overlaps).toEqual([]);

    // The problem table: typeset answers (KaTeX, its fonts embedded), in a box of its own that scrolls, one column per run.
    const table = await page.evaluate(() => {
      const box = document.querySelector('.problems-box');
      const problems = document.querySelector('table.problems');
      return {
        katex: problems?.querySelectorAll('.katex .katex-html').length ?? 0,
        fraction: problems?.querySelectorAll('.katex .mfrac').length ?? 0,
        // LaTeX source left as text outside the typeset math (KaTeX keeps the source only in its MathML annotation).
        raw: (() => {
          const copy = problems?.cloneNode(true) as HTMLElement | undefined;
          copy?.querySelectorAll('.katex').forEach((math) => math.remove());
          return copy?.textContent?.includes('\\frac') ?? true;
        })(),
        columns: problems?.querySelectorAll('thead th').length ?? 0,
        boxWidth: box?.getBoundingClientRect().width ?? Infinity,
        scrolls: box === null ? '' : getComputedStyle(box).overflowY,
        font: document.fonts.check('16px KaTeX_Main'),
      };
    });
    expect(table.columns).toBe(1 + 6);
    expect(table.katex).toBeGreaterThan(0);
    expect(table.fraction).toBeGreaterThan(0);
    expect(table.raw).toBe(false);
    expect(table.boxWidth).toBeLessThanOrEqual(1400);
    expect(table.scrolls).toBe('auto');
    expect(table.font).toBe(true);

    // Each distinct answer is typeset once in the file, not at every candidate of every iteration (half of a
    // report of 20 problems × 20 iterations was the same few answers typeset again); the page puts them in place.
    const html = await readFile(out, 'utf8');
    const shelf = JSON.parse(/<script type="application\/json" id="tmas-math">(.*?)<\/script>/s.exec(html)?.[1] ?? '{}') as Record<string, string>;
    expect(Object.keys(shelf)).toContain('\\frac{3}{4}');
    expect(html.split('class=\\"katex\\"').length - 1).toBe(Object.keys(shelf).length);
    expect(html).not.toContain('class="katex"');
    // A problem's details, opened, show every answer typeset, none as its source.
    await page.locator('details.problem > summary:text-is("frac")').click();
    // The toggle event comes a task after the click.
    await page.waitForFunction(() => [...document.querySelectorAll<HTMLDetailsElement>('details.problem')].some((d) => d.open && d.querySelector('summary')?.textContent === 'frac' && d.querySelector('span.answer .katex') !== null));
    const opened = await page.evaluate(() => {
      const details = [...document.querySelectorAll('details.problem')].find((d) => d.querySelector('summary')?.textContent === 'frac');
      return { sources: details?.querySelectorAll('span.answer.tex').length ?? -1, typeset: details?.querySelectorAll('span.answer .katex .katex-html').length ?? 0, fractions: details?.querySelectorAll('.katex .mfrac').length ?? 0 };
    });
    expect(opened.sources).toBe(0);
    expect(opened.typeset).toBeGreaterThan(6);
    expect(opened.fractions).toBeGreaterThan(0);

    // Six banded lines: no band at rest; hovering a run's legend entry draws that run's band alone.
    const pass1 = () => page.evaluate(() => (window as unknown as { __tmasCharts: Array<DrawnChart & { bandFocus?: number | null }> }).__tmasCharts.find((c) => c.id === 'pass1'));
    expect((await pass1())?.bandFocus).toBeNull();
    expect(await page.locator('[data-chart="pass1"] figcaption.hint').textContent()).toMatch(/hover a line or its legend entry/);
    await page.locator('[data-chart="pass1"]').scrollIntoViewIfNeeded();
    // The third run's legend entry, in window coordinates.
    const legendItem = await page.evaluate(() => {
      const canvas = document.getElementById('chart-pass1') as HTMLCanvasElement;
      const chart = (window as unknown as { Chart: { getChart(c: HTMLCanvasElement): { legend: { legendHitBoxes: Array<{ left: number; top: number; width: number; height: number }> } } } }).Chart.getChart(canvas);
      const hit = chart.legend.legendHitBoxes[2];
      const at = canvas.getBoundingClientRect();
      return hit ? { x: at.left + hit.left + hit.width / 2, y: at.top + hit.top + hit.height / 2 } : null;
    });
    expect(legendItem).not.toBeNull();
    if (legendItem) await page.mouse.move(legendItem.x, legendItem.y);
    await page.waitForFunction(() => (window as unknown as { __tmasCharts: Array<{ id: string; bandFocus?: number | null }> }).__tmasCharts.find((c) => c.id === 'pass1')?.bandFocus === 2);
    await page.screenshot({ path: '/tmp/report-six.png', fullPage: true });
    expect(errors).toEqual([]);
    expect(fetched).toEqual([]);
  });

  test('a proof-mode run without reference solutions explains its empty charts, and a strategy without verifier has no best-verified figures', async ({ dir, browser }) => {
    const input = await writeProblems(dir, smallProblems(2));
    const base = ['--input-file', input, '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1', '--judge-passes', '0'];
    await runInProcess([...base, '--output-file', path.join(dir, 'proof')]);
    await runInProcess([...base, '--output-file', path.join(dir, 'majority'), '--strategy', 'majority', '--samples', '2', '--no-proof']);
    const alone = path.join(dir, 'alone.html');
    const both = path.join(dir, 'both.html');
    await runReportCommand([path.join(dir, 'proof')], { out: alone, format: 'html' }, { stdout: () => {} });
    await runReportCommand([path.join(dir, 'proof'), path.join(dir, 'majority')], { out: both, format: 'html' }, { stdout: () => {} });
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const chartsOf = () => page.evaluate(() => (window as unknown as { __tmasCharts?: DrawnChart[] }).__tmasCharts ?? []);

    // In proof mode (no --no-proof) and without reference solutions nothing is graded: the chart says why instead of staying empty.
    await page.goto(pathToFileURL(alone).href, { waitUntil: 'load' });
    expect((await chartsOf()).find((c) => c.id === 'pass1')?.empty).toMatch(/No candidate was graded.*proof mode.*--no-proof/);
    expect(await page.locator('[data-chart="pass1"] .empty-chart').textContent()).toContain('--no-proof');

    // The proof-mode run and the --no-proof one are graded otherwise: each has its own accuracy charts (groups A and B).
    // majority has no verifier: no best-verified line or figure for it; the tmas run has one.
    await page.goto(pathToFileURL(both).href, { waitUntil: 'load' });
    const charts = await chartsOf();
    expect(charts.find((c) => c.id === 'pass1')?.pointsPerRun).toEqual([0, 0]);
    expect(charts.find((c) => c.id === 'pass1-b')?.pointsPerRun).toEqual([0, 1]);
    expect(charts.find((c) => c.id === 'best-verified')?.empty).toMatch(/No candidate was graded/);
    expect(charts.some((c) => c.id === 'best-verified-b')).toBe(false);
    expect(await page.locator('[data-chart="pass1-b"] figcaption').textContent()).toMatch(/Not comparable with group A \(here vs A\): .*proof: false vs true/);
    // Best-verified is n/a for majority (no verifier) and for the proof-mode run (no candidate graded for a score to pick).
    expect(await page.locator('table').first().locator('td:text-is("n/a")').count()).toBe(2);
    // The runs table fits a 1400 px window: nothing to scroll sideways.
    const overflow = await page.evaluate(() => [...document.querySelectorAll('.scroll')].slice(0, 1).map((box) => box.scrollWidth - box.clientWidth));
    expect(overflow).toEqual([0]);
    expect(errors).toEqual([]);
  });
});
