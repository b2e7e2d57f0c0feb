import { execFileSync, spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { runReportCommand } from '../src/report/command.ts';
import { problemAnchor } from '../src/report/html.ts';
import { runInProcess, smallProblems, test, writeProblems } from './fixtures.ts';

/** Debian's headless Chromium, when installed (`.ci/run` installs it). */
const CHROMIUM = ['chromium', 'chromium-browser'].find((name) => spawnSync(name, ['--version'], { stdio: 'ignore' }).status === 0);

describe('tmas report', () => {
  test('two simulated runs make one self-contained HTML report with a line per run and a row per problem', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(3));
    const args = ['--input-file', input, '--no-proof', '--n-candidates', '3', '--n-verifications', '1', '--max-iterations', '2', '--judge-passes', '1'];
    await runInProcess([...args, '--output-file', path.join(dir, 'eps-low'), '--epsilon', '0']);
    await runInProcess([...args, '--output-file', path.join(dir, 'eps-high'), '--epsilon', '1']);
    const out = path.join(dir, 'report.html');
    const lines: string[] = [];
    await runReportCommand([path.join(dir, 'eps-low'), path.join(dir, 'eps-high')], { out, format: 'html' }, { stdout: (line) => lines.push(line) });
    const html = await readFile(out, 'utf8');

    expect(lines.join('\n')).toContain(out);
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<svg');
    expect(html).toContain('eps-low');
    expect(html).toContain('eps-high');
    expect(html).toContain('simulated');
    // Nothing to fetch: no scripts, no external stylesheets, images or links.
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<script|<link|<img/);
    // The Pass@1 chart has one line per run, each with a point per iteration.
    const pass1 = html.slice(html.indexOf('aria-label="Pass@1 per iteration"'));
    const chart = pass1.slice(0, pass1.indexOf('</svg>'));
    expect(chart).toContain('data-series="eps-low (simulated)" data-points="2"');
    expect(chart).toContain('data-series="eps-high (simulated)" data-points="2"');
    // Every chart carries the simulated badge.
    expect(html.match(/<svg/g)?.length).toBe(html.match(/class="badge-text">simulated</g)?.length);
    // Each problem links to its details.
    for (const problem of ['p1', 'p2', 'p3']) {
      expect(html).toContain(`href="#${problemAnchor(problem)}"`);
      expect(html).toMatch(new RegExp(`<details class="problem"><summary>${problem}</summary><div id="${problemAnchor(problem)}"`));
    }
  });

  test.skipIf(CHROMIUM === undefined)('in headless Chromium, following a problem link opens that problem\'s details', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(2));
    await runInProcess(['--input-file', input, '--output-file', path.join(dir, 'run'), '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1', '--judge-passes', '0']);
    const out = path.join(dir, 'report.html');
    await runReportCommand([path.join(dir, 'run')], { out, format: 'html' }, { stdout: () => {} });
    const dom = execFileSync(
      CHROMIUM ?? 'chromium',
      ['--headless', '--no-sandbox', '--disable-gpu', `--user-data-dir=${path.join(dir, 'chromium')}`, '--virtual-time-budget=2000', '--dump-dom', `file://${out}#${problemAnchor('p2')}`],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 60_000 },
    );
    expect(dom).toMatch(/<details class="problem" open(="")?><summary>p2<\/summary>/);
    expect(dom).toMatch(/<details class="problem"><summary>p1<\/summary>/);
    expect(dom.match(/<svg/g)?.length).toBeGreaterThanOrEqual(9);
  });

  test('--format md prints tables of runs and iterations', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(2));
    await runInProcess(['--input-file', input, '--output-file', path.join(dir, 'run'), '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '2', '--judge-passes', '0']);
    const lines: string[] = [];
    const written = await runReportCommand([path.join(dir, 'run')], { format: 'md' }, { stdout: (line) => lines.push(line) });
    expect(written).toBeNull();
    const md = lines.join('\n');
    expect(md).toContain('| run (simulated) |');
    expect(md).toMatch(/\| iteration \| Pass@1 \|/);
    expect(md.match(/^\| [01] \| /gm)).toHaveLength(2);
  });

  test('a directory without metrics.json is a user error naming it', async ({ dir }) => {
    await expect(runReportCommand([path.join(dir, 'nothing')], { format: 'html' }, { stdout: () => {} })).rejects.toMatchObject({ code: 'TMAS_REPORT' });
  });
});
