/** `tmas table1`: several strategies with one setup into sibling directories, one table (simulated or not, problems, 95% intervals, marks) and one report; run again, it resumes. */
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { formatTable1 } from '../../src/cli/run/table1-markdown.ts';
import { runReportCommand } from '../../src/cli/inspect/report.command.ts';
import { runShowCommand } from '../../src/cli/inspect/show.command.ts';
import { loadRun } from '../../src/report/load.ts';
import { readResults } from '../../src/store/results-line.ts';
import { runCli, runCliInProcess, runInProcess, smallProblems, startProxy, startSimInProcess, test, writeProblems } from '../fixtures.ts';

/**
 * The completion limit of a run on a simulator that breaks formats: a reply the mode cuts runs on to the limit, and at
 * the window's (some 100,000 tokens) each cost seconds to count, journal and log. 1,500 is six times a simulated reply.
 */
const CUT_AT = ['--completion-max-tokens', '1500'];

/** table1 of majority alone (4 samples a vote) over 4 problems, judged once, on a simulator that breaks `rate` of every role's replies, the judge's verdicts among them. */
async function brokenJudgeTable(dir: string, iterations: number, rate: string) {
  const input = await writeProblems(dir, smallProblems(4));
  const out = path.join(dir, 'broken-judge');
  const args = ['table1', '--strategies', 'majority', '--samples', '4', '--input-file', input, '--output-file', out, '--no-proof', '--max-iterations', String(iterations), '--judge-passes', '1', '--parse-retries', '0', '--sim-break-formats', rate, ...CUT_AT];
  const result = await runCliInProcess(args);
  expect(result.code, result.stderr).toBe(0);
  return { out, result };
}

describe('tmas table1', () => {
  test('runs each strategy into DIR/<strategy>, writes Pass@1 per iteration per method with its difference from TMAS, and MV@k as a figure, and resumes without paying again', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(2));
    const out = path.join(dir, 'table1');
    const args = ['table1', '--input-file', input, '--output-file', out, '--strategies', 'majority,self-refine,tmas', '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '2', '--samples', '4', '--judge-passes', '1'];
    // A process of its own, as a user starts it; the rest of the file runs the command line in this process.
    const first = await runCli(args);
    expect(first.code, first.stderr).toBe(0);
    const table = await readFile(path.join(out, 'table1.md'), 'utf8');
    // Where the figures come from, over how many problems, and how sure they are.
    expect(table).toMatch(/^# Table 1 \(simulated model: these figures exercise the runtime, they measure no real LLM\)$/m);
    // The grade names the judge, its passes and its verdict limit: a table at 1 pass does not read as one at the paper's 4.
    expect(table).toMatch(/over 2 problems \(judge grade: simulated, 1 pass per candidate, verdicts of at most 4096 tokens\).*95% interval in brackets \(percentile bootstrap over problems, 1,000 resamples/);
    // Rows are iterations, columns the iterative methods, each cell with its interval; majority is one MV@k figure, as in the paper.
    expect(table).toMatch(/^\| iteration \| self-refine \| tmas \|$/m);
    // A bracket is the interval, or says its problems all had one figure (no interval of zero width).
    const figure = '(-?\\+?\\d+\\.\\d) \\[(?:(-?\\+?\\d+\\.\\d), (-?\\+?\\d+\\.\\d)|all 2 alike)\\]';
    for (const t of [0, 1]) {
      const [, ...cells] = new RegExp(`^\\| ${t} \\| ${figure} \\| ${figure} \\|$`, 'm').exec(table) ?? [];
      expect(cells).toHaveLength(6);
      for (let c = 0; c < 6; c += 3) {
        if (cells[c + 1] === undefined) continue;
        expect(Number(cells[c + 1])).toBeLessThanOrEqual(Number(cells[c]));
        expect(Number(cells[c])).toBeLessThanOrEqual(Number(cells[c + 2]));
      }
    }
    expect(table).toMatch(/^\| problems \| 2 \| 2 \|$/m);
    // Each method's difference from TMAS, paired by problem, 2,000 resamples: a second table, one column per other method.
    expect(table).toMatch(/^Difference from TMAS in points of Pass@1 \(method − tmas\).*paired interval.*2,000 resamples/m);
    const differences = table.slice(table.indexOf('Difference from TMAS'));
    expect(differences).toMatch(/^\| iteration \| self-refine \|$/m);
    for (const t of [0, 1]) expect(differences).toMatch(new RegExp(`^\\| ${t} \\| ${figure} \\|$`, 'm'));
    // MV@4 is the mean over draws of 4 of each problem's pool (4 × 4 = 16 samples unless --vote-pool says otherwise), with its difference from TMAS.
    expect(table).toMatch(new RegExp(`^MV@4 \\(majority vote of 4 samples, the mean over draws of 4 of each problem's 16 samples: .*seeded.*\\): ${figure} over 2 problems; minus tmas at its last iteration \\(1\\), paired by problem: ${figure}$`, 'm'));
    expect(table).not.toMatch(/[†⚠]/);
    expect(existsSync(path.join(out, 'report.html'))).toBe(true);
    for (const strategy of ['majority', 'self-refine', 'tmas']) {
      const metrics = JSON.parse(await readFile(path.join(out, strategy, 'metrics.json'), 'utf8'));
      expect(metrics.evaluation).toMatchObject({ strategy, nCandidates: 2, maxIterations: 2, judgePasses: 1, grading: 'judge', judge: { passes: 1 } });
    }
    // Majority drew the pool: 16 samples per problem.
    expect(JSON.parse(await readFile(path.join(out, 'majority', 'metrics.json'), 'utf8')).evaluation.options).toEqual({ samples: 4, votePool: 16 });
    // The budget table: each column's width as drawn, and what it spent itself beside the judge's calls and tokens (metrics.json's totals, split).
    for (const [strategy, width] of [['majority', '16 samples, votes of 4'], ['self-refine', 'N=2'], ['tmas', 'N=2 M=1']] as const) {
      const { totals } = JSON.parse(await readFile(path.join(out, strategy, 'metrics.json'), 'utf8'));
      const judgeTokens = totals.tokensByRole.judge.prompt + totals.tokensByRole.judge.completion;
      const row = table.split('\n').find((line) => line.startsWith(`| ${strategy} | `))?.split(' | ') ?? [];
      expect(row[4], strategy).toBe(width);
      const [calls, tokens, judge] = row.slice(7, 10);
      const [tokensIn, tokensOut] = [totals.tokens.prompt - totals.tokensByRole.judge.prompt, totals.tokens.completion - totals.tokensByRole.judge.completion];
      expect(tokens, strategy).toBe(`${totals.tokens.total - judgeTokens} (${tokensIn} / ${tokensOut})`);
      expect(judge, strategy).toBe(`${totals.calls - Number(calls)} / ${judgeTokens}`);
      expect(Number(calls)).toBeGreaterThan(0);
    }
    expect(table.match(/^\| majority \|.*$/m)?.[0].split(' | ')[7]).toBe('32');

    const again = await runCliInProcess(args);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/resuming majority/);
    for (const strategy of ['majority', 'self-refine', 'tmas']) {
      const metrics = JSON.parse(await readFile(path.join(out, strategy, 'metrics.json'), 'utf8'));
      expect(metrics.calls.issued).toBe(0);
    }
    expect(await readFile(path.join(out, 'table1.md'), 'utf8')).toBe(table);

    // A larger N changes self-refine's and tmas's calls, not majority's, which does not read it: the refusal names a method it stops.
    const wider = await runCliInProcess(args.map((arg, i) => (args[i - 1] === '--n-candidates' ? '3' : arg)));
    expect(wider.code).toBe(2);
    expect(wider.stderr).toMatch(/Refusing to resume \S+self-refine with .*--n-candidates: the run has 2, this command gives 3.*--force.*\[TMAS_RESUME_CONFLICT\]/);
    expect(wider.stderr).not.toContain(path.join(out, 'majority'));
  });

  test('a judge that gave no verdict on some candidates: the judged cell says the share it graded, with ⚠', async ({ dir }) => {
    const { out, result } = await brokenJudgeTable(dir, 1, '0.5');
    const metrics = JSON.parse(await readFile(path.join(out, 'majority', 'metrics.json'), 'utf8')) as { iterations: Array<{ judgeCoverage: number }> };
    const coverage = metrics.iterations[0]?.judgeCoverage ?? 1;
    expect(coverage).toBeLessThan(1);
    const row = (await readFile(path.join(out, 'table1.md'), 'utf8')).match(/^\| majority \|.*$/gm)?.at(-1) ?? '';
    // Sent to the judge: every candidate but those cut before their end, which are graded 0 without it.
    expect(row).toMatch(new RegExp(`\\| (all|\\d+\\.\\d%), ${(coverage * 100).toFixed(1)}% graded ⚠`));
    // The judge's gaps are the grading's, not the method's: its note says the figure is over what it graded.
    const note = (await readFile(path.join(out, 'table1.md'), 'utf8')).match(/^- ⚠ majority: .* of the judge role .*$/m)?.[0] ?? '';
    expect(note).toMatch(/; the judge gave no verdict there, so Pass@1 is over the candidates it graded \(the method itself ran as designed\)\.$/);
    expect(result.stderr).toMatch(/judge role were unusable in iteration 0 .*: more than the 10% warned of: the judge gave no verdict there/);
    const lines: string[] = [];
    await runReportCommand([path.join(out, 'majority')], { format: 'md' }, { stdout: (line) => lines.push(line) });
    expect(lines.join('\n')).toMatch(/^> ⚠ majority: .* of the judge role .*: the judge gave no verdict there, so Pass@1 is over the candidates it graded/m);
    // The report's final Pass@1 says the share it is over, as the judged cell does.
    expect(lines.join('\n').match(/^\| majority \(simulated\) ⚠ \|.*$/m)?.[0].split(' | ')[3]).toMatch(new RegExp(`^\\d+\\.\\d% \\(${(coverage * 100).toFixed(1)}% judged\\)$`));
    // tmas show gives the judge's grade beside the rule's, and says which candidates it gave no verdict on.
    const shown: string[] = [];
    for (const problem of smallProblems(4)) shown.push(...(await runShowCommand(path.join(out, 'majority'), { problem: problem.problem_id })));
    const graded = shown.filter((line) => /^ {2}#\d/.test(line));
    expect(graded.length).toBeGreaterThan(0);
    for (const line of graded) expect(line).toMatch(/ {2}rule (correct|wrong)( \(unsure\))?, judge ((correct|wrong) \([01] of 1 passes\)|no verdict \(left out of Pass@1\)|not asked \(cut before its end: no final answer\))$/);
    expect(graded.some((line) => line.endsWith('judge no verdict (left out of Pass@1)'))).toBe(true);
  });

  test("a method the judge gave no verdict on at all: the table is written, and the command ends at 3 naming the method, the judge's replies and what to fix", async ({ dir }) => {
    const out = path.join(dir, 'broken-judge');
    const input = await writeProblems(dir, smallProblems(2));
    const result = await runCliInProcess(['table1', '--strategies', 'majority', '--samples', '2', '--vote-pool', '2', '--input-file', input, '--output-file', out, '--no-proof', '--max-iterations', '1', '--judge-passes', '1', '--parse-retries', '0', '--sim-break-formats', '1', ...CUT_AT]);
    expect(result.code, result.stderr).toBe(3);
    const error = result.stderr.split('\n').find((line) => line.endsWith('[TMAS_TABLE_UNGRADED]')) ?? '';
    expect(error).toMatch(/^tmas: Not a result: 1 of the 1 column of .*table1\.md, whatever their figures: majority: the judge gave no verdict on any of its candidates \((\d+) of \1 replies unusable, e\.g\. "no \\"VERDICT/);
    expect(error).toContain(`read them with tmas calls ${path.join(out, 'majority')} --role judge). `);
    expect(error).toMatch(/Fix the judge \(--judge-base-url, --judge-model-name, --judge-max-tokens\), then run the table again into a new --output-file/);
    const table = await readFile(path.join(out, 'table1.md'), 'utf8');
    // One problem's samples were both cut: graded 0 without the judge, the only figure, which the headline says is none.
    expect(table).toMatch(/^MV@2 ⚠ .*: 0\.0 \[–\] over 1 of 2 problems \(1 without a verdict of the judge\)$/m);
    // The file says so itself, under its title: a reader of table1.md alone sees no figure of 0 to take for an accuracy.
    expect(table.split('\n')[2]).toMatch(/^\*\*No column of this table is a result\.\*\* majority: the judge gave no verdict on any of its candidates \((\d+) of \1 replies unusable, .*read them with tmas calls majority --role judge\)\. Their cells are '-', or figures of the replies cut before their end alone \(0, graded without the judge\): they measure nothing, not an accuracy of 0\./);
    expect(table).not.toContain(dir);
    expect(existsSync(path.join(out, 'report.html'))).toBe(true);
  });

  test('a column graded by the rule whose candidates never gave a final answer is said to be no result, and ends the command at 3 as a judge-graded one does: its 0.0 is the format', async ({ dir }) => {
    const out = path.join(dir, 'answerless');
    const input = await writeProblems(dir, smallProblems(2));
    const result = await runCliInProcess(['table1', '--strategies', 'rse', '--n-candidates', '2', '--input-file', input, '--output-file', out, '--no-proof', '--max-iterations', '1', '--judge-passes', '0', '--sim-break-formats', '1', ...CUT_AT]);
    // Before: exit 0, and a script publishing on 0 published the column.
    expect(result.code, result.stderr).toBe(3);
    const error = result.stderr.split('\n').find((line) => line.endsWith('[TMAS_TABLE_UNGRADED]')) ?? '';
    expect(error).toMatch(/^tmas: Not a result: 1 of the 1 column of .*table1\.md, whatever their figures: rse: under the rule-based grade, no candidate of any problem gave a final answer the grader could read .*Their Pass@1 of 0\.0 is their replies' format, not an accuracy/);
    const table = await readFile(path.join(out, 'table1.md'), 'utf8');
    // Both problems at 0: no interval of zero width (`[0.0, 0.0]` before), as if 0 were exact.
    expect(table).toMatch(/^\| 0 \| 0\.0 \[all 2 alike\] \|$/m);
    expect(table.split('\n')[2]).toMatch(/^\*\*No column of this table is a result\.\*\* rse: under the rule-based grade, no candidate of any problem gave a final answer the grader could read \(its rollout role: 4 of 4 outputs unusable, e\.g\. "no final answer[^"]*"\)\. Their Pass@1 of 0\.0 is their replies' format, not an accuracy/);
  });

  test("every column counts the replies it could not use, its own and its judge's, even under the share that warns", async ({ dir }) => {
    const { out } = await brokenJudgeTable(dir, 1, '0.04');
    type Counts = Record<string, { outputs: number; unusable: number }>;
    const metrics = JSON.parse(await readFile(path.join(out, 'majority', 'metrics.json'), 'utf8')) as { iterations: Array<{ outputsByRole: Counts }> };
    const sum = (judge: boolean, field: 'outputs' | 'unusable') =>
      metrics.iterations.reduce((total, it) => total + Object.entries(it.outputsByRole).reduce((n, [role, counts]) => ((role === 'judge') === judge ? n + counts[field] : n), 0), 0);
    expect(sum(false, 'unusable')).toBeGreaterThan(0);
    const table = await readFile(path.join(out, 'table1.md'), 'utf8');
    const header = table.split('\n').find((line) => line.startsWith('| method | '))?.split(' | ') ?? [];
    const row = table.match(/^\| majority \|.*$/gm)?.at(-1)?.split(' | ') ?? [];
    const counted = `${sum(false, 'unusable')} of ${sum(false, 'outputs')}; judge ${sum(true, 'unusable')} of ${sum(true, 'outputs')}`;
    expect(row[header.indexOf('unusable')]).toBe(counted);
    // What the column spent, its calls and its tokens in and out, as the journal holds its calls.
    const journal = await runCliInProcess(['calls', path.join(out, 'majority')]);
    const calls = journal.stdout.trim().split('\n').map((line) => JSON.parse(line) as { role: string; usage: { promptTokens: number; completionTokens: number } });
    const own = calls.filter((call) => call.role !== 'judge');
    const [tokensIn, tokensOut] = [own.reduce((n, call) => n + call.usage.promptTokens, 0), own.reduce((n, call) => n + call.usage.completionTokens, 0)];
    expect(row[header.indexOf('calls')]).toBe(String(own.length));
    expect(row[header.indexOf('tokens (in / out)')]).toBe(`${tokensIn + tokensOut} (${tokensIn} / ${tokensOut})`);
    // The report says it too, in Markdown and in HTML.
    const lines: string[] = [];
    await runReportCommand([path.join(out, 'majority')], { format: 'md' }, { stdout: (line) => lines.push(line) });
    const report = lines.join('\n').split('\n');
    const cells = (start: string) => report.find((line) => line.startsWith(start))?.slice(2, -2).split(' | ') ?? [];
    expect(cells('| majority')[cells('| run | ').indexOf('unusable')]).toBe(counted);
    expect(await readFile(path.join(out, 'report.html'), 'utf8')).toContain(`unusable ${counted}`);
  });

  test("majority's rule = judge and judged cells count each sample once: its last iteration holds the earlier ones' samples again", async ({ dir }) => {
    const { out } = await brokenJudgeTable(dir, 2, '0.3');
    type Figures = { sureJudged: number; sureDisagreements: number; judged: number; judgeCoverage: number; reusedVerdicts: number };
    const metrics = JSON.parse(await readFile(path.join(out, 'majority', 'metrics.json'), 'utf8')) as { iterations: Figures[]; totals: { judged: number; disagreements: number; ruleJudgeAgreement: { judged: number; agreed: number } } };
    const [first, last] = metrics.iterations;
    // Iteration 1 holds iteration 0's samples of each problem again, with the verdicts they had: those count in
    // iteration 0 alone (reused), so the run's figures are over its last iteration's pool, each sample once.
    expect(first?.sureJudged).toBeGreaterThan(0);
    expect(last?.reusedVerdicts).toBeGreaterThan(0);
    const lines = await readResults(path.join(out, 'majority', 'results.jsonl'));
    const pool = lines.filter((line) => line.iteration === 1).flatMap((line) => line.candidates);
    const disagreeing = (candidates: typeof pool) => candidates.filter((c) => c.correct !== (c.correctJudge ?? 0) > 0.5).length;
    const judged = pool.filter((c) => c.correct !== null && c.ruled !== true && c.correctJudge !== null);
    // Compared: where the rule was sure of an answer it read (a sample without one is no agreement: 38 of 43 before, 36 of 38 now).
    const compared = judged.filter((c) => c.unsure !== true && c.answer !== null);
    expect(metrics.totals.ruleJudgeAgreement).toMatchObject({ judged: compared.length, agreed: compared.length - disagreeing(compared) });
    expect(metrics.totals).toMatchObject({ judged: judged.length, disagreements: disagreeing(judged) });
    const row = (await readFile(path.join(out, 'table1.md'), 'utf8')).match(/^\| majority \|.*$/gm)?.at(-1)?.split(' | ') ?? [];
    expect(row.at(-1)).toMatch(new RegExp(` of ${compared.length} \\|$`));
    const coverage = last?.judgeCoverage ?? 1;
    // Sent to the judge: every sample but those cut before their end, graded 0 without it.
    const asked = (last as Figures & { judgeAsked?: number }).judgeAsked ?? 1;
    const sent = asked === 1 ? 'all' : `${(asked * 100).toFixed(1)}%`;
    expect(row.at(-2)).toBe(coverage < 1 ? `${sent}, ${(coverage * 100).toFixed(1)}% graded ⚠` : sent);
    // Run again, the finished comparison resumes: majority starts again at iteration 0, answered from its journal, and
    // a pass without a verdict there stays without one (it took the verdict its repeat got in iteration 1, and the
    // results, metrics and table changed).
    const files = ['majority/results.jsonl', 'majority/metrics.json', 'table1.md'];
    const before = await Promise.all(files.map((file) => readFile(path.join(out, file), 'utf8')));
    await brokenJudgeTable(dir, 2, '0.3');
    const after = await Promise.all(files.map((file) => readFile(path.join(out, file), 'utf8')));
    expect(after[0]).toBe(before[0]);
    expect(JSON.parse(after[1] ?? '').problems).toEqual(JSON.parse(before[1] ?? '').problems);
    expect(after[2]).toBe(before[2]);

    // Extended to T = 3, majority cuts the same samples into other prefixes: no sample is new, so MV@4, its
    // interval and the judge calls are those it had (before: the moved samples judged again, and the figure moved).
    const mv = (table: string) => /^MV@4.*$/m.exec(table)?.[0];
    const judgeCalls = (table: string) => table.match(/^\| majority \|.*$/gm)?.at(-1)?.split(' | ')[9];
    await brokenJudgeTable(dir, 3, '0.3');
    const extended = await readFile(path.join(out, 'table1.md'), 'utf8');
    expect(mv(extended)).toBe(mv(before[2] ?? ''));
    expect(judgeCalls(extended)).toBe(judgeCalls(before[2] ?? ''));
    // Each sample counted once in rule = judge, where the new cut first shows it: the cell it had.
    const ruleJudge = (table: string) => table.match(/^\| majority \|.*$/gm)?.at(-1)?.split(' | ').at(-1);
    expect(ruleJudge(extended)).toBe(ruleJudge(before[2] ?? ''));
    // Its interval is seeded by the method and k, not by the last iteration: over figures that tell two seeds apart,
    // the run's last iteration and a run that stopped one iteration earlier give one MV@4 line.
    const run = await loadRun(path.join(out, 'majority'));
    const spread = new Map(Array.from({ length: 12 }, (_, i) => [`q${i}`, (i * 7) % 12 / 11] as const));
    const mvOf = (iterations: typeof run.iterations) => mv(formatTable1([{ strategy: 'majority', options: { samples: 4 }, run: { ...run, iterations }, draws: { byProblem: spread, pool: 16 } }]));
    expect(mvOf(run.iterations.slice(0, -1))).toBe(mvOf(run.iterations));
  });

  test("the report's intervals are table1.md's, and the same for the runs copied elsewhere: seeded by the run's name, never its path", async ({ dir }) => {
    // Six demo problems, two judge passes over four candidates: per-problem figures fine enough that two seeds give two intervals;
    // a reply the format-breaking mode cuts runs to the 4096-token limit, not the whole window.
    const input = path.join(dir, 'six.jsonl');
    await writeFile(input, (await readFile('problems/demo.jsonl', 'utf8')).split('\n').slice(0, 6).join('\n'));
    const out = path.join(dir, 'table1');
    const result = await runCliInProcess(['table1', '--input-file', input, '--output-file', out, '--strategies', 'pacore,tmas', '--no-proof', '--n-candidates', '4', '--n-verifications', '1', '--max-iterations', '2', '--judge-passes', '2', '--sim-break-formats', '0.4', '--completion-max-tokens', '4096']);
    expect(result.code, result.stderr).toBe(0);
    const table = await readFile(path.join(out, 'table1.md'), 'utf8');
    const report = async (root: string) => {
      const lines: string[] = [];
      await runReportCommand(['pacore', 'tmas'].map((name) => path.join(root, name)), { format: 'md' }, { stdout: (line) => lines.push(line) });
      return lines.join('\n');
    };
    const here = await report(out);
    // The row of iteration 0 under '## pacore': its Pass@1 with the band's figures, then its difference from tmas.
    const [pass1, difference] = here.slice(here.indexOf('## pacore')).match(/^\| 0 \| ([^|]+) \| ([^|]+) \|/m)?.slice(1) ?? [];
    expect(difference).toMatch(/\[/);
    expect(table).toContain(`| 0 | ${difference?.trim()} |`);
    expect(pass1).toMatch(/%/);
    // Copied elsewhere (two places, each a path of its own, one a folder deeper), the runs give the same report, intervals included.
    for (const place of ['elsewhere', 'a/b']) {
      const copy = path.join(dir, place);
      await mkdir(copy, { recursive: true });
      for (const name of ['pacore', 'tmas']) await cp(path.join(out, name), path.join(copy, name), { recursive: true });
      expect(await report(copy)).toBe(here);
    }
  });

  test('a method graded otherwise is marked † with the fields that differ; a cell over one problem has no interval', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(1));
    const args = ['--input-file', input, '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1'];
    await runInProcess([...args, '--output-file', path.join(dir, 'judged'), '--judge-model-name', 'tmas-sim']);
    // A second method run with the same settings: the same run, which a copy is.
    await cp(path.join(dir, 'judged'), path.join(dir, 'judged-too'), { recursive: true });
    await runInProcess([...args, '--output-file', path.join(dir, 'rule')]);
    const methods = await Promise.all(['judged', 'judged-too', 'rule'].map(async (name) => ({ strategy: name, options: {}, run: await loadRun(path.join(dir, name)) })));
    const table = formatTable1(methods);
    expect(table).toMatch(/^\| iteration \| judged \| judged-too \| rule † \|$/m);
    expect(table).toMatch(/^\| 0 \| \d+\.\d \[–\] \| \d+\.\d \[–\] \| \d+\.\d \[–\] \|$/m);
    // How each was graded, in the words of the runs table: before, the judge block as JSON against null, then judgePasses and sampling.judge.
    expect(table.split('\n')).toContain('- † rule: not comparable with the other methods (grading: rule vs judge simulated ×4 (T 0.6, top_p 0.95)).');
  });

  test("a difference from TMAS is marked where TMAS's own column is: a clean method's difference from a TMAS whose roles' outputs were unusable does not read clean", async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(2));
    const args = ['--input-file', input, '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1', '--judge-passes', '0'];
    await runInProcess([...args, '--output-file', path.join(dir, 'broken'), '--sim-break-formats', '0.6']);
    await runInProcess([...args, '--output-file', path.join(dir, 'clean'), '--strategy', 'self-refine']);
    const methods = await Promise.all([['broken', 'tmas'], ['clean', 'clean']].map(async ([name, strategy]) => ({ strategy: strategy as string, options: {}, run: await loadRun(path.join(dir, name as string)) })));
    expect(methods[0]?.run.unusable.length).toBeGreaterThan(0);
    expect(methods[1]?.run.unusable).toEqual([]);
    const table = formatTable1(methods);
    expect(table).toMatch(/^\| iteration \| tmas ⚠ \| clean \|$/m);
    const differences = table.slice(table.indexOf('Difference from TMAS'));
    expect(differences).toMatch(/^\| iteration \| clean \(tmas ⚠\) \|$/m);
    // The report's difference column says the same of the TMAS run it is taken from, in Markdown and on the chart.
    const lines: string[] = [];
    const runs = [path.join(dir, 'clean'), path.join(dir, 'broken')];
    await runReportCommand(runs, { format: 'md' }, { stdout: (line) => lines.push(line) });
    expect(lines.join('\n')).toMatch(/^\| iteration \| Pass@1 \| Pass@1 − broken ⚠ \| majority \|/m);
    expect(lines.join('\n')).toMatch(/^Pass@1 − broken ⚠: each run's difference .* Marked ⚠: broken's own figures carry the caveats noted above/m);
    await runReportCommand(runs, { format: 'html', out: path.join(dir, 'report.html') }, { stdout: () => {} });
    expect(await readFile(path.join(dir, 'report.html'), 'utf8')).toContain('Pass@1 minus broken ⚠ per iteration');
  });

  test('every column gets one completion limit unless --budgets upstream; the budget of each column is on the table; another limit or N is marked †', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(1));
    const out = path.join(dir, 'table1');
    const small = ['--input-file', input, '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1', '--judge-passes', '0'];
    const shared = await runCliInProcess(['table1', ...small, '--output-file', out, '--strategies', 'rse,tmas']);
    expect(shared.code, shared.stderr).toBe(0);
    const table = await readFile(path.join(out, 'table1.md'), 'utf8');
    // rse's upstream 38,912 is not applied: both columns get what the window leaves.
    expect(table).toMatch(/Every method had the same completion limit and window\./);
    expect(table).toMatch(/^\| rse \| window \| 0\.6 \| 0\.95 \| N=2 \| 1 \| 131072 \| \d+ \| \d+ \(\d+ \/ \d+\) \| – \| \d+ of \d+ \| \d+ of \d+ \| none \(rule\) \| - \|$/m);
    expect(table).toMatch(/^\| tmas \| window \| 0\.6 \| server's \| N=2 M=1 \| 1 \| 131072 \| \d+ \| \d+ \(\d+ \/ \d+\) \| – \| \d+ of \d+ \| \d+ of \d+ \| none \(rule\) \| - \|$/m);
    const upstream = await runCliInProcess(['table1', ...small, '--output-file', path.join(dir, 'upstream'), '--strategies', 'rse', '--budgets', 'upstream']);
    expect(upstream.code, upstream.stderr).toBe(0);
    expect(await readFile(path.join(dir, 'upstream', 'table1.md'), 'utf8')).toMatch(/^\| rse \| 38912 \|/m);
    // In a window that cannot hold rse's 38,912, every call gets what the window leaves, as tmas's do: the column says so, and nothing is marked †.
    const narrow = path.join(dir, 'narrow');
    const cut = await runCliInProcess(['table1', ...small, '--output-file', narrow, '--strategies', 'rse,tmas', '--budgets', 'upstream', '--max-tokens', '32768']);
    expect(cut.code, cut.stderr).toBe(0);
    const cutTable = await readFile(path.join(narrow, 'table1.md'), 'utf8');
    expect(cutTable).toMatch(/^\| rse \| window \(its 38912 does not fit\) \| 0\.6 \| 0\.95 \| N=2 \| 1 \| 32768 \|/m);
    expect(cutTable).toMatch(/Every method had the same completion limit and window\./);
    expect(cutTable).not.toMatch(/†/);

    await runInProcess([...small, '--output-file', path.join(dir, 'capped'), '--completion-max-tokens', '512']);
    await runInProcess([...small, '--output-file', path.join(dir, 'wide'), '--n-candidates', '3']);
    const methods = await Promise.all([path.join(out, 'tmas'), path.join(dir, 'capped'), path.join(dir, 'wide')].map(async (runDir, i) => ({ strategy: ['tmas', 'capped', 'wide'][i] as string, options: {}, run: await loadRun(runDir) })));
    const marked = formatTable1(methods);
    expect(marked).toMatch(/^- † capped: not comparable with the other methods \(completionMaxTokens: 512 vs null\)\.$/m);
    expect(marked).toMatch(/^- † wide: not comparable with the other methods \(nCandidates: 3 vs 2\)\.$/m);
    expect(marked).toMatch(/did not all have the same completion limit and window/);
  });

  test("a method's width is what it drew: mas-ceo's one solution a round, pacore's round widths; the report's settings name only what a strategy reads", async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(1));
    const out = path.join(dir, 'table1');
    const ran = await runCliInProcess(['table1', '--input-file', input, '--no-proof', '--n-candidates', '3', '--n-verifications', '2', '--max-iterations', '2', '--judge-passes', '0', '--output-file', out, '--strategies', 'mas-ceo,pacore,self-refine', '--round-widths', '3,1']);
    expect(ran.code, ran.stderr).toBe(0);
    const table = await readFile(path.join(out, 'table1.md'), 'utf8');
    const width = (strategy: string) => table.split('\n').find((line) => line.startsWith(`| ${strategy} | `))?.split(' | ')[4];
    expect(width('mas-ceo')).toBe('1 per round');
    expect(width('pacore')).toBe('3, then 1 per round');
    expect(width('self-refine')).toBe('N=3');
    // mas-ceo's solver and critics were sent the CEO's budget, at most 32,000 tokens, not the window the others had: its limit cell says so.
    const limit = (strategy: string) => table.split('\n').find((line) => line.startsWith(`| ${strategy} | `))?.split(' | ')[1];
    expect(limit('mas-ceo')).toBe("window (solver and critics: the CEO's budget, 2048 to 32000)");
    expect(limit('pacore')).toBe('window');
    const lines: string[] = [];
    await runReportCommand(['mas-ceo', 'pacore', 'self-refine'].map((name) => path.join(out, name)), { format: 'md' }, { stdout: (line) => lines.push(line) });
    const settings = (name: string) => lines.join('\n').split('\n').find((line) => line.startsWith(`| ${name} (simulated)`))?.split(' | ')[1];
    expect(settings('mas-ceo')).toBe('T=2');
    expect(settings('pacore')).toBe('round-widths=3,1 T=2');
    expect(settings('self-refine')).toBe('N=3 T=2');
  });

  test('a table whose judge was the model under test says so in its notes; one with an independent judge does not', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(1));
    const server = await startSimInProcess(['--problems', input]);
    // The simulator behind a server that does not say it is one: a model under test of its own, as a real server would serve.
    const models = JSON.stringify({ object: 'list', data: ['m', 'another-judge'].map((id) => ({ id, object: 'model', owned_by: 'test' })) });
    const proxy = await startProxy(server.url, (url, _, res) => url.endsWith('/models') && (res.writeHead(200, { 'content-type': 'application/json' }).end(models), true));
    try {
      const small = ['--input-file', input, '--no-proof', '--n-candidates', '2', '--max-iterations', '1', '--judge-passes', '1', '--strategies', 'self-refine', '--base-url', proxy.url, '--model-name', 'm'];
      const self = await runCliInProcess(['table1', ...small, '--output-file', path.join(dir, 'self')]);
      expect(self.code, self.stderr + self.stdout).toBe(0);
      expect(self.stderr).toMatch(/the LLM judge is the model under test/);
      const table = await readFile(path.join(dir, 'self', 'table1.md'), 'utf8');
      expect(table).toMatch(/^- The judge is the model under test: every method graded by \S+ itself \(no --judge-base-url or --judge-model-name\)/m);
      const independent = await runCliInProcess(['table1', ...small, '--judge-base-url', proxy.url, '--judge-model-name', 'another-judge', '--output-file', path.join(dir, 'independent')]);
      expect(independent.code, independent.stderr).toBe(0);
      expect(await readFile(path.join(dir, 'independent', 'table1.md'), 'utf8')).not.toMatch(/model under test/);
    } finally {
      proxy.server.closeAllConnections();
      proxy.server.close();
      await server.close();
    }
  });

  test('problems that calls failed for good stopped are marked ‡ and named in table1.md and the report; the error names every method and the command that finishes them', async ({ dir }) => {
    const problems = smallProblems(2);
    const input = await writeProblems(dir, problems);
    const server = await startSimInProcess(['--problems', input]);
    // Every call about the second problem is refused (a 400, which is not retried), until `refusing` is cleared.
    const refusing = { current: true };
    const proxy = await startProxy(server.url, (_, body, res) => refusing.current && body.includes(problems[1]?.question ?? '?') && (res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"refused"}}'), true));
    try {
      const out = path.join(dir, 'table');
      const args = ['table1', '--strategies', 'majority,tmas', '--samples', '2', '--input-file', input, '--output-file', out, '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1', '--judge-passes', '0', '--base-url', proxy.url];
      const stopped = await runCliInProcess(args);
      expect(stopped.code, stopped.stderr).toBe(3);
      expect(stopped.stderr).toMatch(/Calls failed for good in 2 of the methods: majority: \d+ failed in 1 problem iteration \(p2 at iteration 0; first: .*\); tmas: \d+ failed in 1 problem iteration \(p2 at iteration 0;/);
      expect(stopped.stderr).toMatch(/give the same tmas table1 command again: it resumes every method.* \[TMAS_RUN_INCOMPLETE\]/);
      const table = await readFile(path.join(out, 'table1.md'), 'utf8');
      expect(table).toMatch(/over 2 problems/);
      expect(table).toMatch(/^\| iteration \| tmas ‡ \|$/m);
      expect(table).toMatch(/^\| problems \| 1 of 2 \|$/m);
      expect(table).toMatch(/^MV@2 ‡ .* over 1 of 2 problems/m);
      for (const method of ['majority', 'tmas']) expect(table).toMatch(new RegExp(`^- ‡ ${method}: \\d+ calls? that failed for good stopped 1 of 2 problems \\(p2 at iteration 0, first error: .*\\): each is missing from the figures of the iteration it stopped at and every later one, and the final figures are over the problems that got there\\. Give the same tmas table1 command again to finish them`, 'm'));
      const lines: string[] = [];
      await runReportCommand([out], { format: 'md' }, { stdout: (line) => lines.push(line) });
      expect(lines.join('\n')).toMatch(/^\| tmas \(simulated\) ‡ \|/m);
      expect(lines.join('\n')).toMatch(/^> ‡ tmas: \d+ calls? that failed for good stopped 1 of 2 problems \(p2 at iteration 0/m);
      expect(await readFile(path.join(out, 'report.html'), 'utf8')).toMatch(/‡ \d+ calls? that failed for good stopped 1 of 2 problems \(p2 at iteration 0/);
      // The difference from TMAS carries its ‡ in the report as in table1.md; the runs table counts the problems given beside those with figures.
      expect(lines.join('\n')).toMatch(/^\| iteration \| Pass@1 \| Pass@1 − tmas ‡ \|/m);
      expect(await readFile(path.join(out, 'report.html'), 'utf8')).toContain('<td>1 of 2 × 1</td>');
      // The same command again, the cause gone: every method is finished and the table carries no mark.
      refusing.current = false;
      const finished = await runCliInProcess(args);
      expect(finished.code, finished.stderr).toBe(0);
      const again = await readFile(path.join(out, 'table1.md'), 'utf8');
      expect(again).not.toContain('‡');
      expect(again).toMatch(/^\| problems \| 2 \|$/m);
    } finally {
      proxy.server.closeAllConnections();
      proxy.server.close();
      await server.close();
    }
  });

  test('an unknown strategy is a usage error naming it', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(1));
    const result = await runCliInProcess(['table1', '--input-file', input, '--output-file', path.join(dir, 'x'), '--strategies', 'tmas,best-of-n']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/unknown strategy "best-of-n"/);
  });

  test('a strategy named twice, or none, or --strategy beside --strategies, is a usage error, and nothing is created', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(1));
    const out = path.join(dir, 'x');
    const twice = await runCliInProcess(['table1', '--input-file', input, '--output-file', out, '--strategies', 'tmas,majority,tmas']);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/"tmas" is named twice/);
    const none = await runCliInProcess(['table1', '--input-file', input, '--output-file', out, '--strategies', ' , ']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no strategy named/);
    // --strategy, one run's method, was ignored beside --strategies.
    const one = await runCliInProcess(['table1', '--input-file', input, '--output-file', out, '--strategy', 'rse', '--strategies', 'tmas']);
    expect(one.code).toBe(2);
    expect(one.stderr).toContain('Give --strategies rse for that method alone');
    expect(existsSync(out)).toBe(false);
  });

  test('a folder holding what no table wrote is refused, and left as it was', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(1));
    const out = path.join(dir, 'mine');
    await mkdir(out);
    await writeFile(path.join(out, 'notes.txt'), 'mine');
    const refused = await runCliInProcess(['table1', '--input-file', input, '--output-file', out, '--strategies', 'tmas', '--no-proof']);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain(`${out} holds files that no tmas table1 wrote (notes.txt)`);
    expect(refused.stderr).toMatch(/\[TMAS_OUTPUT\]/);
    expect(await readdir(out)).toEqual(['notes.txt']);
  });
});
