import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { runReportCommand } from '../../src/cli/inspect/report.command.ts';
import type { ChartSpec } from '../../src/report/charts.ts';
import { detailAnchor, problemAnchor } from '../../src/report/html.ts';
import { startSimServer } from '../../src/sim/server.ts';
import { runCliInProcess, runInProcess, smallProblems, startProxy, test, writeProblems } from '../fixtures.ts';

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
    expect(html).toContain('eps-low');
    expect(html).toContain('eps-high');
    expect(html).toContain('simulated');
    // Nothing to fetch: no external script, stylesheet, image, frame, font or link; Chart.js itself is inlined.
    // The only absolute links are the ones a reader clicks into `tmas view` on loopback.
    expect(html).toMatch(/href="http:\/\/127\.0\.0\.1:8765\/#\/run\/1\/problem\/p1\/1"/);
    expect(html.replaceAll('href="http://127.0.0.1:8765/#', 'href="#')).not.toMatch(/\b(?:src|href|action|poster|srcset)\s*=\s*["']?\s*(?:https?:)?\/\//i);
    expect(html).not.toMatch(/<script[^>]*\ssrc\s*=/i);
    expect(html).not.toMatch(/<(?:link|img|iframe|object|embed)\b/i);
    expect(html).not.toMatch(/url\(\s*["']?\s*(?:https?:)?\/\/|@import/i);
    expect(html).toContain('Chart.js v4');
    // The chart data: the Pass@1 chart has one line per run, each with a point per iteration.
    const data = /<script type="application\/json" id="tmas-chart-data">(.*?)<\/script>/s.exec(html)?.[1];
    const specs = JSON.parse(data ?? 'null') as ChartSpec[];
    expect(specs.map((spec) => spec.id)).toEqual(['pass1', 'majority', 'best-verified', 'oracle', 'pass1-tokens', 'tokens', 'banks', 'exploit-prompt', 'tokens-by-role', 'latency']);
    const pass1 = specs.find((spec) => spec.id === 'pass1');
    expect(pass1?.datasets.map((d) => [d.label, d.run, d.points?.length])).toEqual([
      ['eps-low (simulated)', 0, 2],
      ['eps-high (simulated)', 1, 2],
    ]);
    // Every chart is labelled simulated, in its title and on its figure, and has a canvas to draw on.
    for (const spec of specs) expect(spec.title).toMatch(/simulated/);
    expect(html.match(/<canvas /g)).toHaveLength(specs.length);
    expect(html.match(/<figure class="chart"[^>]*><div class="chart-head"><span class="sim">simulated<\/span>/g)).toHaveLength(specs.length);
    // Each candidate's hover summary is held once (a summary in place on every candidate it was shown on was 412 KB
    // of a 1.48 MB report at 20 problems × 20 iterations × 4 candidates), and each candidate names its place.
    const hovers = JSON.parse(/<script type="application\/json" id="tmas-hovers">(.*?)<\/script>/s.exec(html)?.[1] ?? 'null') as string[];
    const places = [...html.matchAll(/<span class="cand" data-hover="(\d+) #\d+ [a-z-]+">/g)].map((match) => Number(match[1]));
    expect(places).toHaveLength(2 * 3 * 2 * 3);
    expect(new Set(places)).toEqual(new Set(hovers.map((_, index) => index)));
    expect(new Set(hovers).size).toBe(hovers.length);
    expect(html).not.toMatch(/class="cand" title=/);
    // Each problem links to its details, and to each run's iterations and banks in them.
    for (const problem of ['p1', 'p2', 'p3']) {
      expect(html).toContain(`href="#${problemAnchor(problem)}"`);
      expect(html).toMatch(new RegExp(`<details class="problem"><summary>${problem}</summary><div id="${problemAnchor(problem)}"`));
      for (const run of [0, 1]) {
        for (const part of [0, 1, 'banks'] as const) {
          expect(html).toContain(`href="#${detailAnchor(problem, run, part)}"`);
          expect(html).toContain(`id="${detailAnchor(problem, run, part)}"`);
        }
      }
    }
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

  // `tmas report runs/a --out report.md` wrote an HTML page into report.md without a word; --format html with it did too.
  test('an --out ending in .md writes Markdown, and a --format that its name contradicts is refused, writing nothing', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(1));
    const run = path.join(dir, 'run');
    await runInProcess(['--input-file', input, '--output-file', run, '--no-proof', '--n-candidates', '1', '--n-verifications', '1', '--max-iterations', '1', '--judge-passes', '0']);
    const markdown = await runCliInProcess(['report', run, '--out', path.join(dir, 'report.md')]);
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toContain(`Report: ${path.join(dir, 'report.md')}`);
    expect(await readFile(path.join(dir, 'report.md'), 'utf8')).toMatch(/^# tmas report: run\n/);
    const contradicted = await runCliInProcess(['report', run, '--out', path.join(dir, 'other.md'), '--format', 'html']);
    expect(contradicted.code).toBe(2);
    expect(contradicted.stderr).toContain('other.md names a Markdown file, but --format html writes HTML. Give --out a .html name, or leave --format out to write Markdown. [TMAS_USAGE]');
    expect(existsSync(path.join(dir, 'other.md'))).toBe(false);
  });

  test('--format md prints best-verified as n/a, in the runs table and per iteration, for a method without verifiers and for one whose every verification was unusable', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(2));
    const args = ['--input-file', input, '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '2', '--judge-passes', '0'];
    await runInProcess([...args, '--output-file', path.join(dir, 'majority'), '--strategy', 'majority', '--samples', '2']);
    await runInProcess([...args, '--output-file', path.join(dir, 'pacore'), '--strategy', 'pacore']);
    // Every reply broken, a cut one run on to the completion limit: 1,500 tokens, not the window (5.5 s of counting and journaling cut replies).
    await runInProcess([...args, '--output-file', path.join(dir, 'unverified'), '--sim-break-formats', '1', '--completion-max-tokens', '1500']);
    const metrics = JSON.parse(await readFile(path.join(dir, 'unverified', 'metrics.json'), 'utf8')) as { iterations: Array<{ meanScore: number | null; bestVerified: number | null }> };
    expect(metrics.iterations.map((it) => [it.meanScore, it.bestVerified])).toEqual([[null, null], [null, null]]);
    const lines: string[] = [];
    await runReportCommand(['majority', 'pacore', 'unverified'].map((name) => path.join(dir, name)), { format: 'md' }, { stdout: (line) => lines.push(line) });
    const md = lines.join('\n');
    const column = (header: string, row: string) => row.split(' | ')[header.split(' | ').indexOf('best-verified')];
    for (const name of ['majority', 'pacore', 'unverified']) {
      const section = md.slice(md.indexOf(`## ${name}`)).split('\n');
      const header = section.find((line) => line.startsWith('| iteration')) ?? '';
      const rows = section.filter((line) => /^\| [01] \| /.test(line)).slice(0, 2);
      expect(rows.map((row) => column(header, row)), name).toEqual(['n/a', 'n/a']);
      const runsHeader = md.split('\n').find((line) => line.startsWith('| run |')) ?? '';
      expect(column(runsHeader, md.split('\n').find((line) => line.startsWith(`| ${name} (simulated)`)) ?? ''), name).toBe('n/a');
    }
  });

  test("the tokens and tokens / solved columns count the method's own tokens, the judge's grading apart", async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(2));
    const run = path.join(dir, 'majority');
    await runInProcess(['--input-file', input, '--output-file', run, '--no-proof', '--strategy', 'majority', '--samples', '4', '--max-iterations', '1', '--judge-passes', '2']);
    const { totals } = JSON.parse(await readFile(path.join(run, 'metrics.json'), 'utf8'));
    const judge = totals.tokensByRole.judge.prompt + totals.tokensByRole.judge.completion;
    const own = totals.tokensByRole.solution.prompt + totals.tokensByRole.solution.completion;
    expect(totals.tokens.total).toBe(own + judge);

    const lines: string[] = [];
    await runReportCommand([run], { format: 'md' }, { stdout: (line) => lines.push(line) });
    const md = lines.join('\n');
    const cells = (start: string) => md.split('\n').find((line) => line.startsWith(start))?.slice(2, -2).split(' | ') ?? [];
    const [header, row] = [cells('| run |'), cells('| majority (simulated)')];
    const cell = (title: string) => row[header.indexOf(title)];
    expect(cell('tokens')).toBe(String(own));
    expect(cell('tokens / solved')).toBe(totals.solved > 0 ? String(Math.round(own / totals.solved)) : '–');
    expect(cell('judge tokens')).toBe(String(judge));
    // The iteration table's tokens are the method's own too.
    expect(md.slice(md.indexOf('## majority'))).toMatch(new RegExp(`^\\| 0 \\| .* \\| ${own} \\|$`, 'm'));
  });

  test('beside a TMAS run, another method\'s Pass@1 minus TMAS per iteration, with its 95% paired interval: a chart with bands and a Markdown column', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(3));
    const args = ['--input-file', input, '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '2', '--judge-passes', '0'];
    await runInProcess([...args, '--output-file', path.join(dir, 'tmas')]);
    await runInProcess([...args, '--output-file', path.join(dir, 'refine'), '--strategy', 'self-refine']);
    const runs = [path.join(dir, 'refine'), path.join(dir, 'tmas')];
    const out = path.join(dir, 'report.html');
    await runReportCommand(runs, { out, format: 'html' }, { stdout: () => {} });
    const html = await readFile(out, 'utf8');
    const specs = JSON.parse(/<script type="application\/json" id="tmas-chart-data">(.*?)<\/script>/s.exec(html)?.[1] ?? 'null') as ChartSpec[];
    expect(specs.map((spec) => spec.id).slice(0, 3)).toEqual(['pass1', 'pass1-vs-tmas', 'majority']);
    const versus = specs.find((spec) => spec.id === 'pass1-vs-tmas');
    expect(versus?.title).toMatch(/^Pass@1 minus tmas per iteration \(95% paired bootstrap interval over the problems both graded\)/);
    // A line per run, a point per iteration: TMAS's own difference is 0, the other's has its interval as a band around it.
    expect(versus?.datasets.map((d) => [d.label, d.run, d.points?.length])).toEqual([
      ['refine (simulated) − tmas', 0, 2],
      ['tmas (simulated) (the reference)', 1, 2],
    ]);
    expect(versus?.datasets[1]?.points?.map(([, y]) => y)).toEqual([0, 0]);
    const [refine] = versus?.datasets ?? [];
    for (const [x, low, high] of refine?.band ?? []) {
      const y = refine?.points?.find(([at]) => at === x)?.[1] ?? NaN;
      expect(low).toBeLessThanOrEqual(y);
      expect(y).toBeLessThanOrEqual(high);
    }
    expect(refine?.band).toHaveLength(2);

    const lines: string[] = [];
    await runReportCommand(runs, { format: 'md' }, { stdout: (line) => lines.push(line) });
    const md = lines.join('\n');
    expect(md).toMatch(/^Pass@1 − tmas: each run's difference in points from tmas .*95% paired bootstrap interval.*2,000 resamples/m);
    expect(md).toMatch(/^\| iteration \| Pass@1 \| Pass@1 − tmas \| majority \|/m);
    const row = '\\| [01] \\| [\\d.]+% \\| ';
    // Each of refine's two iterations: an interval, or a bracket saying every problem had the same difference.
    expect(md.match(new RegExp(`^${row}-?\\+?\\d+\\.\\d \\[(?:-?\\+?\\d+\\.\\d, -?\\+?\\d+\\.\\d|all \\d+ alike)\\] \\|`, 'gm'))).toHaveLength(2);
    // TMAS against itself: 0 at every iteration, by construction, not an interval of zero width read as exact.
    expect(md.slice(md.indexOf('## tmas')).match(new RegExp(`^${row}0 \\(the reference\\) \\|`, 'gm'))).toHaveLength(2);
    expect(md).not.toMatch(/\[([-+]?\d+\.\d), \1\]/);
  });

  // Before, every run of a chain was read against its first run: C's difference was from A, B's change and C's own mixed.
  test('a chain of forks (A, B forked from A, C forked from B): each is read against its direct source', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(2));
    const [a, b, c] = ['a', 'b', 'c'].map((name) => path.join(dir, name)) as [string, string, string];
    await runInProcess(['--input-file', input, '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1', '--judge-passes', '0', '--output-file', a]);
    expect((await runCliInProcess(['fork', a, '--output-file', b, '--epsilon', '1'])).code).toBe(0);
    expect((await runCliInProcess(['fork', b, '--output-file', c, '--epsilon', '0'])).code).toBe(0);
    const out = path.join(dir, 'report.html');
    await runReportCommand([a, b, c], { out, format: 'html' }, { stdout: () => {} });
    const specs = JSON.parse(/<script type="application\/json" id="tmas-chart-data">(.*?)<\/script>/s.exec(await readFile(out, 'utf8'))?.[1] ?? 'null') as ChartSpec[];
    const versus = specs.find((spec) => spec.id === 'pass1-vs-tmas');
    expect(versus?.title).toMatch(/^Pass@1 minus the run each was forked from per iteration/);
    expect(versus?.datasets.map((d) => d.label)).toEqual(['a (simulated) (the reference)', 'b (simulated) − a', 'c (simulated) − b']);
    const lines: string[] = [];
    await runReportCommand([a, b, c], { format: 'md' }, { stdout: (line) => lines.push(line) });
    expect(lines.join('\n')).toContain("Pass@1 − source: each run's difference in points from the run it was forked from (b from a; c from b;");
  });

  // tmas report runs/table1 read the folder as a run and refused it for its missing metrics.json, where tmas view took it.
  test('a folder of runs (a tmas table1 output) reports the finished runs under it, as the runs given one by one', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(2));
    const small = ['--input-file', input, '--no-proof', '--max-iterations', '1', '--judge-passes', '0'];
    await runInProcess([...small, '--output-file', path.join(dir, 'table', 'tmas'), '--n-candidates', '2', '--n-verifications', '1']);
    await runInProcess([...small, '--output-file', path.join(dir, 'table', 'majority'), '--strategy', 'majority', '--samples', '2']);
    await writeFile(path.join(dir, 'table', 'table1.md'), '# Table 1\n');
    const report = async (dirs: string[]) => {
      const lines: string[] = [];
      await runReportCommand(dirs, { format: 'md' }, { stdout: (line) => lines.push(line) });
      return lines.join('\n');
    };
    const folder = await report([path.join(dir, 'table')]);
    expect(folder).toMatch(/^# tmas report: majority, tmas$/m);
    expect(folder).toBe(await report([path.join(dir, 'table', 'majority'), path.join(dir, 'table', 'tmas')]));
    // A method whose run has no metrics.json (killed before writing it) is not reported, and the report says so.
    await cp(path.join(dir, 'table', 'tmas'), path.join(dir, 'table', 'rse'), { recursive: true });
    await rm(path.join(dir, 'table', 'rse', 'metrics.json'));
    const missing = `${path.join(dir, 'table', 'rse')}: no metrics.json (the run is going, or was stopped before writing it: tmas run --resume ${path.join(dir, 'table', 'rse')} writes it)`;
    expect(await report([path.join(dir, 'table')])).toContain(`> **left out** of this report: ${missing}`);
    await runReportCommand([path.join(dir, 'table')], { format: 'html', out: path.join(dir, 'report.html') }, { stdout: () => {} });
    expect(await readFile(path.join(dir, 'report.html'), 'utf8')).toContain(`Left out of this report: ${missing}`);
    await mkdir(path.join(dir, 'unfinished', 'run', 'store'), { recursive: true });
    await expect(report([path.join(dir, 'unfinished')])).rejects.toMatchObject({ code: 'TMAS_REPORT', message: expect.stringContaining('holds no finished run (no metrics.json in run)') });
  });

  test('a run interrupted before its last iteration is marked ‡, naming how many problems reached each iteration: its final figures are not over every problem', async ({ dir }) => {
    const [{ parseRunFlags, toRunConfig }, { loadProblems }, { runEvaluation }] = await Promise.all([import('../../src/cli/run/run.command.ts'), import('../../src/input/problems.ts'), import('../../src/host/run/run-evaluation.ts')]);
    const input = await writeProblems(dir, smallProblems(2));
    const run = path.join(dir, 'interrupted');
    const { config, secrets } = toRunConfig(parseRunFlags(['--input-file', input, '--output-file', run, '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '2', '--judge-passes', '0']), {});
    // Stopped once a problem has finished iteration 0: no call of iteration 1 is sent after it, so no problem finishes the run.
    const controller = new AbortController();
    const observe = ({ envelopes$ }: { envelopes$: import('rxjs').Observable<{ message: { type: string; iteration: number } }> }) =>
      void envelopes$.subscribe((envelope) => {
        if (envelope.message.type === 'iteration.completed' && envelope.message.iteration === 0) controller.abort(new Error('stopped by the test'));
      });
    const quiet = { stdout: () => {}, stderr: () => {} };
    await expect(runEvaluation(config, secrets, await loadProblems(input), quiet, { signal: controller.signal, observe })).rejects.toMatchObject({ code: 'TMAS_INTERRUPTED' });
    const lines: string[] = [];
    await runReportCommand([run], { format: 'md' }, { stdout: (line) => lines.push(line) });
    const report = lines.join('\n');
    expect(report).toMatch(/^\| interrupted \(simulated\) ‡ \|/m);
    expect(report).toMatch(/^> ‡ interrupted: 2 of 2 problems were stopped before their last iteration, the run being interrupted \(T=2; problems per iteration: [12], 0\): .* the final figures are over the problems that got there\. Finish them with: tmas run --resume /m);
    // table1.md counts the problems the run was given, a problem that finished no iteration among them.
    const [{ formatTable1 }, { loadRun }] = await Promise.all([import('../../src/cli/run/table1-markdown.ts'), import('../../src/report/load.ts')]);
    const table = formatTable1([{ strategy: 'tmas', options: {}, run: await loadRun(run) }]);
    expect(table).toMatch(/over 2 problems/);
    expect(table).toMatch(/^\| iteration \| tmas ‡ \|$/m);
    expect(table).toMatch(/^\| problems \| (2|1 of 2) \|$/m);
  });

  test('a directory without metrics.json is a user error naming it', async ({ dir }) => {
    await expect(runReportCommand([path.join(dir, 'nothing')], { format: 'html' }, { stdout: () => {} })).rejects.toMatchObject({ code: 'TMAS_REPORT' });
  });

  test('a run stopped before T (its last iterations failed) is grouped apart from a finished one: its last figures are no final ones', async ({ dir }) => {
    const problems = smallProblems(2);
    const sim = await startSimServer({ problems: problems.map((p) => ({ id: p.problem_id, question: p.question, answer: p.answer })), seed: 3 });
    const refusing = { on: false };
    const proxy = await startProxy(sim.url, (url, _body, res) => {
      if (!refusing.on || !url.endsWith('/chat/completions')) return false;
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'refused by the test proxy' } }));
      return true;
    });
    try {
      const args = ['--input-file', await writeProblems(dir, problems), '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--base-url', proxy.url, '--model-name', 'tmas-sim', '--max-retries', '0'];
      await runInProcess([...args, '--max-iterations', '2', '--output-file', path.join(dir, 'finished')]);
      await runInProcess([...args, '--max-iterations', '1', '--output-file', path.join(dir, 'stopped')]);
      // Its second iteration's calls all fail: the run ends with iteration 0 done of T=2.
      refusing.on = true;
      const resumed = await runCliInProcess(['run', '--resume', path.join(dir, 'stopped'), '--max-iterations', '2']);
      expect(resumed.code, resumed.stderr).toBe(3);
    } finally {
      proxy.server.close();
      await sim.close();
    }
    const out = path.join(dir, 'report.md');
    await runReportCommand([path.join(dir, 'finished'), path.join(dir, 'stopped')], { out, format: 'md' }, { stdout: () => {} });
    const markdown = await readFile(out, 'utf8');
    expect(markdown).toMatch(/\| stopped \(simulated\) ‡ \| [^|]+ \| rule: not comparable \(group B\) \|/);
    expect(markdown).toContain('- group B: stopped: graded by rule · 2 problems · T=2 (1 done: not finished); differs from A in (here vs A): iterations done: 1 vs all\n');
    // Listed first, the stopped run is still the one apart: of two groups of one, the finished run's is the reference.
    await runReportCommand([path.join(dir, 'stopped'), path.join(dir, 'finished')], { out, format: 'md' }, { stdout: () => {} });
    expect(await readFile(out, 'utf8')).toContain('- group B: stopped: graded by rule · 2 problems · T=2 (1 done: not finished); differs from A in (here vs A): iterations done: 1 vs all\n');
  });

  test('runs graded otherwise, or over other problems or T, are marked not comparable and charted apart, naming the evaluation fields that differ; a run that stored the block under its former name compares as written', async ({ dir }) => {
    const two = await writeProblems(dir, smallProblems(2));
    const args = ['--no-proof', '--n-candidates', '2', '--n-verifications', '1'];
    await runInProcess(['--input-file', two, ...args, '--max-iterations', '1', '--output-file', path.join(dir, 'judged-a'), '--judge-model-name', 'tmas-sim']);
    // A second run with the same settings: the same run, which a copy is.
    await cp(path.join(dir, 'judged-a'), path.join(dir, 'judged-b'), { recursive: true });
    await runInProcess(['--input-file', two, ...args, '--max-iterations', '1', '--output-file', path.join(dir, 'rule')]);
    const one = path.join(dir, 'one');
    await mkdir(one);
    await runInProcess(['--input-file', await writeProblems(one, smallProblems(1)), ...args, '--max-iterations', '2', '--output-file', path.join(dir, 'other'), '--judge-model-name', 'tmas-sim']);
    // A judge field this code does not know (as a later tmas may record): a copy of judged-b whose block has two more.
    await cp(path.join(dir, 'judged-b'), path.join(dir, 'new-field'), { recursive: true });
    const file = path.join(dir, 'new-field', 'metrics.json');
    const metrics = JSON.parse(await readFile(file, 'utf8')) as { evaluation: { judge: Record<string, unknown>; judgeReuse?: string } };
    metrics.evaluation.judge.temperature = 0;
    metrics.evaluation.judgeReuse = 'byte-identical';
    await writeFile(file, JSON.stringify(metrics));
    // A run written before the evaluation block had its name: a copy of judged-a whose block is stored as `protocol`.
    await cp(path.join(dir, 'judged-a'), path.join(dir, 'older'), { recursive: true });
    const olderFile = path.join(dir, 'older', 'metrics.json');
    const { evaluation, ...rest } = JSON.parse(await readFile(olderFile, 'utf8')) as { evaluation: unknown };
    await writeFile(olderFile, JSON.stringify({ ...rest, protocol: evaluation }));

    const dirs = ['judged-a', 'judged-b', 'rule', 'other', 'new-field', 'older'].map((name) => path.join(dir, name));
    const out = path.join(dir, 'report.md');
    await runReportCommand(dirs, { out, format: 'md' }, { stdout: () => {} });
    const markdown = await readFile(out, 'utf8');
    expect(markdown).toMatch(/\| judged-a \(simulated\) \| [^|]+ \| judge simulated ×4 \(T 0\.6, top_p 0\.95\) \|/);
    expect(markdown).toMatch(/\| rule \(simulated\) \| [^|]+ \| rule: not comparable \(group B\) \|/);
    expect(markdown).toMatch(/\| older \(simulated\) \| [^|]+ \| judge simulated ×4 \(T 0\.6, top_p 0\.95\) \|/);
    expect(markdown).toContain('- group A: judged-a, judged-b, older: graded by judge simulated ×4 (T 0.6, top_p 0.95) · 2 problems · T=1\n');
    // How each was graded, in the words of the runs table: before, the judge block as JSON against null, and judgePasses and sampling.judge again.
    expect(markdown).toContain('- group B: rule: graded by rule · 2 problems · T=1; differs from A in (here vs A): grading: rule vs judge simulated ×4 (T 0.6, top_p 0.95)\n');
    expect(markdown).toMatch(/^- group C: other: graded by judge simulated ×4 \(T 0\.6, top_p 0\.95\) · 1 problems · T=2; differs from A in \(here vs A\): problems: 1 vs 2 \(1 in common; only there: p2\); T: 2 vs 1$/m);
    expect(markdown).toMatch(/^- group D: new-field: .*differs from A in \(here vs A\): judge\.temperature: 0 vs 0\.6; judgeReuse: "byte-identical" vs absent$/m);

    const html = path.join(dir, 'report.html');
    await runReportCommand(dirs, { out: html, format: 'html' }, { stdout: () => {} });
    const page = await readFile(html, 'utf8');
    expect(page).toContain('rule: not comparable (group B)');
    expect(page).toContain('These runs do not all compare');
    const specs = JSON.parse(/<script type="application\/json" id="tmas-chart-data">(.*?)<\/script>/s.exec(page)?.[1] ?? 'null') as ChartSpec[];
    // Each group's accuracy charts are drawn apart, with only its own runs, its group in the title and what sets it apart under it.
    const lines = (id: string) => specs.find((spec) => spec.id === id)?.datasets.filter((d) => (d.points?.length ?? 0) > 0).map((d) => d.label);
    expect(lines('pass1')).toEqual(['judged-a (simulated)', 'judged-b (simulated)', 'older (simulated)']);
    expect(lines('pass1-b')).toEqual(['rule (simulated)']);
    expect(lines('pass1-c')).toEqual(['other (simulated)']);
    expect(lines('pass1-d')).toEqual(['new-field (simulated)']);
    expect(specs.find((spec) => spec.id === 'pass1-b')?.title).toMatch(/^\[B: graded by rule · 2 problems · T=1\] Pass@1 per iteration/);
    expect(specs.find((spec) => spec.id === 'majority-c')?.note).toBe('Not comparable with group A (here vs A): problems: 1 vs 2 (1 in common; only there: p2); T: 2 vs 1.');
    expect(page).toMatch(/<figure class="chart" data-chart="oracle-d">.*?<figcaption class="bad">Not comparable with group A \(here vs A\): judge\.temperature: 0 vs 0\.6/s);
    // What does not depend on grading stays on one chart.
    expect(lines('tokens')).toHaveLength(6);
  });

  // Two runs over p1-p3 and p2-p4 read "problems: 3 vs 3 (2 in common)": which problem each lacks was left to find.
  test('runs over other problems name the ids only one of them holds, each side', async ({ dir }) => {
    const args = ['--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1', '--judge-passes', '0', '--sim-output-tokens', '60'];
    const four = smallProblems(4);
    const firstDir = path.join(dir, 'a');
    const secondDir = path.join(dir, 'b');
    await mkdir(firstDir);
    await mkdir(secondDir);
    await runInProcess(['--input-file', await writeProblems(firstDir, four.slice(0, 3)), ...args, '--output-file', path.join(dir, 'first')]);
    await runInProcess(['--input-file', await writeProblems(secondDir, four.slice(1)), ...args, '--output-file', path.join(dir, 'second')]);
    const out = path.join(dir, 'report.md');
    await runReportCommand([path.join(dir, 'first'), path.join(dir, 'second')], { out, format: 'md' }, { stdout: () => {} });
    expect(await readFile(out, 'utf8')).toMatch(/^- group B: second: .*differs from A in \(here vs A\): problems: 3 vs 3 \(2 in common; only here: p4; only there: p1\)$/m);
  });

  // Two runs whose p2 had another question were one group, their Pass@1 differences paired over two different problems.
  test('runs whose problem of one id has another question are apart, saying which ids and why', async ({ dir }) => {
    const args = ['--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1', '--judge-passes', '0', '--sim-output-tokens', '60'];
    const original = await writeProblems(dir, smallProblems(2));
    const revisedDir = path.join(dir, 'revised');
    await mkdir(revisedDir);
    const revised = await writeProblems(revisedDir, smallProblems(2).map((p) => (p.problem_id === 'p2' ? { ...p, question: `${p.question} Show your work.` } : p)));
    await runInProcess(['--input-file', original, ...args, '--output-file', path.join(dir, 'first')]);
    await runInProcess(['--input-file', revised, ...args, '--output-file', path.join(dir, 'second')]);
    const out = path.join(dir, 'report.md');
    await runReportCommand([path.join(dir, 'first'), path.join(dir, 'second')], { out, format: 'md' }, { stdout: () => {} });
    expect(await readFile(out, 'utf8')).toMatch(/^- group B: second: .*differs from A in \(here vs A\): problems: 2 vs 2 \(1 in common; 1 more of the same id is another problem, never paired: p2 \(its question\)\)$/m);
  });
});
