/**
 * One judge grading for every strategy (docs/concepts/shared-grading.md),
 * checked on what reaches the servers: the judge samples at its own
 * temperature and top_p whatever the method's are; it reads one view of a
 * response (the final text after the reasoning, bounded in tokens, in both
 * modes); and `--judge-when unsure` sends it only the candidates the
 * rule-based grader is unsure of.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { RuleJudgeAgreement } from '../../src/observers/agreement.ts';
import { afterEach, describe, expect } from 'vitest';
import { getEncoding } from 'js-tiktoken';
import { SIM_ROLES } from '../../machines/strategies/sim-roles.ts';
import { JUDGE_VIEW_TOKENS } from '../../machines/roles/judge.role.ts';
import { startSimServer, type SimServer } from '../../src/sim/server.ts';
import type { RequestLogEntry } from '../../src/sim/http/request-log.ts';
import type { IterationMetrics } from '../../src/observers/metrics.ts';
import { formatIterationTable } from '../../src/observers/table.ts';
import { formatTable1 } from '../../src/cli/run/table1-markdown.ts';
import { loadRun } from '../../src/report/load.ts';
import type { CandidateResult, MessageOf } from '../../src/kernel/protocol.ts';
import type { JudgeGrading } from '../../src/host/outputs/evaluation-record.ts';
import { readRequestLog, serveModel, readJournal, readLog, runInProcess, smallProblems, test, writeProblems } from '../fixtures.ts';
import { readResults } from '../../src/store/results-line.ts';

interface Outputs {
  metrics: {
    evaluation: { judge: JudgeGrading | null; sampling: Record<string, { temperature: number; topP?: number }> };
    iterations: IterationMetrics[];
    totals: { ruleJudgeAgreement: RuleJudgeAgreement | null };
  };
  results: Array<{ problem: string; iteration: number; candidates: CandidateResult[] }>;
}

async function outputs(dir: string): Promise<Outputs> {
  const metrics = JSON.parse(await readFile(path.join(dir, 'metrics.json'), 'utf8')) as Outputs['metrics'];
  const results = await readResults(path.join(dir, 'results.jsonl'));
  return { metrics, results };
}

let servers: Array<{ close: () => Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function sim(problems: Array<{ problem_id: string; question: string; answer?: string }>, log: string): Promise<SimServer> {
  const server = await startSimServer({ problems: problems.map((p) => ({ id: p.problem_id, question: p.question, answer: p.answer })), roles: SIM_ROLES, requestLog: log });
  servers.push(server);
  return server;
}

describe('the judge samples as its grading says, never as the method does', () => {
  test('tmas (0.6), pacore (1.0) and mas-ceo (0.7): every judge request carries temperature 0.6 and top_p 0.95, and metrics.json says so', async ({ dir }) => {
    const problems = smallProblems(1);
    const input = await writeProblems(dir, problems);
    const log = path.join(dir, 'requests.jsonl');
    const server = await sim(problems, log);
    const upstream = { tmas: 0.6, pacore: 1.0, 'mas-ceo': 0.7 };
    const seen: Record<string, RequestLogEntry[]> = {};
    for (const strategy of Object.keys(upstream)) {
      const before = (await readRequestLog(log)).length;
      const output = path.join(dir, strategy);
      await runInProcess([
        ...['--input-file', input, '--output-file', output, '--strategy', strategy, '--base-url', server.url, '--model-name', 'tmas-sim', '--judge-model-name', 'tmas-sim'],
        ...['--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1', '--judge-passes', '2'],
        // The method's own top_p does not reach the judge either.
        ...(strategy === 'tmas' ? ['--top-p', '0.9'] : []),
      ]);
      seen[strategy] = (await readRequestLog(log)).slice(before);
      const { metrics } = await outputs(output);
      expect(metrics.evaluation.judge).toMatchObject({ temperature: 0.6, topP: 0.95, when: 'always', view: { reads: 'final-text', maxTokens: JUDGE_VIEW_TOKENS, cut: 'no-answer' } });
      expect(metrics.evaluation.sampling.judge).toEqual({ temperature: 0.6, topP: 0.95 });
    }
    for (const [strategy, temperature] of Object.entries(upstream)) {
      const judge = seen[strategy]?.filter((entry) => entry.role === 'judge') ?? [];
      const method = seen[strategy]?.filter((entry) => entry.role !== 'judge') ?? [];
      expect(judge.length, strategy).toBeGreaterThan(0);
      expect(method.length, strategy).toBeGreaterThan(0);
      for (const entry of judge) expect(entry.params, strategy).toMatchObject({ temperature: 0.6, top_p: 0.95 });
      // The methods do sample differently: only the judge is the same for all.
      for (const entry of method) expect(entry.params?.temperature, strategy).toBe(temperature);
    }
    expect(seen.tmas?.find((entry) => entry.role === 'solution')?.params?.top_p).toBe(0.9);
  });

  test('--judge-temperature and --judge-top-p set the judge alone', async ({ dir }) => {
    const problems = smallProblems(1);
    const input = await writeProblems(dir, problems);
    const log = path.join(dir, 'requests.jsonl');
    const server = await sim(problems, log);
    const output = path.join(dir, 'run');
    await runInProcess([
      ...['--input-file', input, '--output-file', output, '--strategy', 'pacore', '--base-url', server.url, '--model-name', 'tmas-sim', '--judge-model-name', 'tmas-sim'],
      ...['--no-proof', '--n-candidates', '2', '--max-iterations', '1', '--judge-passes', '1', '--judge-temperature', '0', '--judge-top-p', '0.5'],
    ]);
    const entries = await readRequestLog(log);
    expect(entries.filter((entry) => entry.role === 'judge').every((entry) => entry.params?.temperature === 0 && entry.params?.top_p === 0.5)).toBe(true);
    expect(entries.filter((entry) => entry.role !== 'judge').every((entry) => entry.params?.temperature === 1 && entry.params?.top_p === 1)).toBe(true);
    expect((await outputs(output)).metrics.evaluation.judge).toMatchObject({ temperature: 0, topP: 0.5 });
  });
});

/**
 * A server of our own for `majority`'s solutions and the judge: each solution
 * is `solution(question)`, each judge pass says "equivalent"; the judge's
 * user messages are kept.
 */
async function startServer(solution: (question: string) => string): Promise<{ url: string; judged: string[] }> {
  const judged: string[] = [];
  const server = await serveModel((body) => {
    const { messages } = JSON.parse(body) as { messages: Array<{ role: string; content: string }> };
    const user = messages.find((m) => m.role === 'user')?.content ?? '';
    if (!messages.some((m) => m.content.includes('You are the Judge agent'))) return solution(user);
    judged.push(user);
    return 'Same value.\nVERDICT: equivalent';
  });
  servers.push(server);
  return { url: server.url, judged };
}

describe('the judge reads one view of every response', () => {
  const flags = (url: string) => ['--strategy', 'majority', '--samples', '1', '--base-url', url, '--model-name', 'm', '--judge-passes', '1', '--no-stream', '--max-iterations', '1'];

  test('--no-proof: the final text after the reasoning, whether or not an answer was extracted from it, and the reference answer', async ({ dir }) => {
    const problems = [
      { problem_id: 'boxed', question: 'Compute 6 times 7.', answer: '42' },
      { problem_id: 'unboxed', question: 'Compute 5 times 8.', answer: '40' },
    ];
    const input = await writeProblems(dir, problems);
    // Reasoning that the server left inline, after an opening remark: the gateway keeps it in the content.
    const server = await startServer((question) =>
      question.includes('6 times 7') ? 'We multiply.\n\\boxed{42}' : 'Let me see. <think>maybe 41, check again</think>\nThe product is forty.',
    );
    const output = path.join(dir, 'run');
    await runInProcess(['--input-file', input, '--output-file', output, '--no-proof', ...flags(server.url)]);
    const requests = (await readLog(output)).flatMap((e) => (e.message.type === 'judge.requested' ? [e.message as MessageOf<'judge.requested'>] : []));
    expect(requests.find((r) => r.problem === 'boxed')).toMatchObject({ response: 'We multiply.\n\\boxed{42}', cut: false });
    expect(requests.find((r) => r.problem === 'unboxed')).toMatchObject({ response: 'The product is forty.', cut: false });
    const boxed = server.judged.find((user) => user.includes('6 times 7'));
    const unboxed = server.judged.find((user) => user.includes('5 times 8'));
    // Before, this judge read only `<candidate-answer>42</candidate-answer>`.
    expect(boxed).toContain('<solution>\nWe multiply.\n\\boxed{42}\n</solution>');
    expect(boxed).toContain('<reference-answer>\n42\n</reference-answer>');
    expect(unboxed).toContain('<solution>\nThe product is forty.\n</solution>');
    expect(unboxed).not.toContain('maybe 41');
    for (const user of [boxed, unboxed]) {
      expect(user).not.toContain('<candidate-answer>');
      expect(user).toContain(`at most ${JUDGE_VIEW_TOKENS} tokens`);
      expect(user).toContain('Find the final answer the response gives');
    }
  });

  test(`proof mode: a final text over ${JUDGE_VIEW_TOKENS} tokens is cut to its first and last halves, the same way every time`, async ({ dir }) => {
    const problems = [{ problem_id: 'long', question: 'Prove that the sum is even.', answer: 'even', solution: 'Pair the terms: \\boxed{even}.' }];
    const input = await writeProblems(dir, problems);
    const body = Array.from({ length: 6000 }, (_, i) => `Step ${i}: the partial sum is even.`).join('\n');
    const server = await startServer(() => `FIRST LINE of the proof.\n${body}\nLAST LINE: so the sum is \\boxed{even}.`);
    for (const run of ['a', 'b']) await runInProcess(['--input-file', input, '--output-file', path.join(dir, run), ...flags(server.url)]);
    const [first, second] = server.judged;
    expect(first).toBe(second);
    const candidate = /<solution>\n[\s\S]*\n<\/solution>/.exec(first ?? '')?.[0] ?? '';
    expect(candidate).toMatch(/^<solution>\nFIRST LINE of the proof\./);
    expect(candidate).toMatch(/LAST LINE: so the sum is \\boxed\{even\}\.\n<\/solution>$/);
    expect(candidate).toMatch(/\[… \d+ tokens left out here: the judge reads at most 16384 tokens of a response …\]/);
    const tokens = getEncoding('o200k_base').encode(candidate, [], []).length;
    expect(tokens).toBeLessThanOrEqual(JUDGE_VIEW_TOKENS);
    expect(tokens).toBeGreaterThan(JUDGE_VIEW_TOKENS - 200);
    // The journal keeps what the judge was sent.
    const judge = (await readJournal(path.join(dir, 'a'))).find((call) => call.role === 'judge');
    expect(judge?.request.messages.at(-1)?.content).toBe(first);
  });
});

describe('hybrid grading: --judge-when unsure', () => {
  // Numbers the rule grades with confidence; the text answer's wrong variants it cannot.
  const problems = [...smallProblems(2), { problem_id: 'p3', question: 'What is f(n) for the sequence?', answer: '1 \\text{ if } n \\text{ is even, otherwise } 0' }];
  const PASSES = 2;

  test.for(['tmas', 'self-refine'])('%s: the judge is asked about exactly the unsure candidates, × passes; the rule grades the rest, and the share is reported', async (strategy, { dir }) => {
    const input = await writeProblems(dir, problems);
    const output = path.join(dir, 'run');
    await runInProcess([
      // One iteration of the baseline: its judge stage keeps a verdict for a candidate whose answer did not change, which is another rule's business.
      ...['--input-file', input, '--output-file', output, '--strategy', strategy, '--no-proof', '--n-candidates', '6', '--n-verifications', '1', '--max-iterations', strategy === 'tmas' ? '2' : '1'],
      ...['--judge-model-name', 'tmas-sim', '--judge-passes', `${PASSES}`, '--judge-when', 'unsure', '--judge-audit', '0'],
    ]);
    const { metrics, results } = await outputs(output);
    expect(formatTable1([{ strategy, run: await loadRun(output), options: {} }])).toMatch(/The judge graded the share of candidates the column 'judged' below gives[\s\S]*^\| [\w-]+ \|[^\n]*\| \d+\.\d% \| [^|\n]+ \|$/m);
    const candidates = results.flatMap((line) => line.candidates);
    const toJudge = candidates.filter((c) => c.unsure === true || c.answer === null);
    expect(toJudge.length).toBeGreaterThan(0);
    expect(toJudge.length).toBeLessThan(candidates.length);
    const calls = (await readJournal(output)).filter((call) => call.role === 'judge');
    expect(calls).toHaveLength(toJudge.length * PASSES);
    for (const c of candidates) {
      if (toJudge.includes(c)) {
        expect(c.ruled).toBeUndefined();
        expect(c.judge?.verdicts).toHaveLength(PASSES);
      } else {
        expect(c).toMatchObject({ ruled: true, judge: { verdicts: [] }, correctJudge: c.correct ? 1 : 0 });
      }
    }
    for (const it of metrics.iterations) {
      const lines = results.filter((line) => line.iteration === it.iteration).flatMap((line) => line.candidates);
      expect(it.judgeAsked).toBeCloseTo(lines.filter((c) => c.ruled !== true).length / lines.length);
      expect(it.judgeCoverage).toBe(1);
      expect(it.grade).toBe('judge');
    }
    expect(metrics.evaluation.judge?.when).toBe('unsure');
    expect(formatIterationTable(metrics.iterations, { simulated: true })).toMatch(/% \(\d+\.\d% to judge\)[\s\S]*The judge graded the share of candidates in parentheses/);
  });

  test('--judge-audit: a seeded share of the candidates the rule is sure of goes to the judge too, and the agreement is reported with its interval', async ({ dir }) => {
    const input = await writeProblems(dir, problems);
    const run = async (name: string, audit: string) => {
      const output = path.join(dir, name);
      await runInProcess([
        ...['--input-file', input, '--output-file', output, '--strategy', 'majority', '--samples', '8', '--no-proof', '--max-iterations', '1'],
        ...['--judge-model-name', 'tmas-sim', '--judge-passes', '1', '--judge-when', 'unsure', '--judge-audit', audit],
      ]);
      return { output, ...(await outputs(output)) };
    };
    const all = await run('all', '1');
    const candidates = all.results.flatMap((line) => line.candidates);
    const sure = candidates.filter((c) => c.answer !== null && c.unsure !== true);
    expect(sure.length).toBeGreaterThan(0);
    // Audited, every candidate is judged: none is left to the rule.
    expect(candidates.every((c) => c.ruled === undefined)).toBe(true);
    expect((await readJournal(all.output)).filter((call) => call.role === 'judge')).toHaveLength(candidates.filter((c) => c.answer !== null || c.unsure === true).length);
    const agreement = all.metrics.totals.ruleJudgeAgreement;
    expect(agreement?.judged).toBe(sure.length);
    expect(agreement?.interval[0]).toBeLessThanOrEqual(agreement?.share ?? -1);
    expect(agreement?.interval[1]).toBeGreaterThanOrEqual(agreement?.share ?? 2);
    expect(formatTable1([{ strategy: 'majority', run: await loadRun(all.output), options: { samples: 8 } }])).toMatch(new RegExp(`\\| \\d+\\.\\d% \\[\\d+\\.\\d, \\d+\\.\\d\\] of ${sure.length} \\|$`, 'm'));
    // A share audits a seeded subset: the same candidates every time, fewer than all.
    const some = await run('some', '0.3');
    const audited = some.results.flatMap((line) => line.candidates).filter((c) => c.answer !== null && c.unsure !== true && c.ruled === undefined);
    expect(audited.length).toBeLessThan(sure.length);
    expect((await run('again', '0.3')).results.flatMap((line) => line.candidates).filter((c) => c.answer !== null && c.unsure !== true && c.ruled === undefined).map((c) => c.candidate)).toEqual(audited.map((c) => c.candidate));
  });
});
