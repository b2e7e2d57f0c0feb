/**
 * The judge grades the response, not an extracted answer
 * (docs/concepts/shared-grading.md, "What the judge reads"): every strategy
 * hands the judge the final text of its candidate's response, with
 * `--no-proof` as in proof mode, cut replies included, and the judge's prompt
 * states the bound and the cut. Checked on what reaches the simulator (its
 * request log) and what the journal kept as sent.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { STRATEGIES } from '../../machines/strategies/index.ts';
import { SIM_ROLES } from '../../machines/strategies/sim-roles.ts';
import { finalText } from '../../machines/judging.ts';
import { JUDGE_VIEW_TOKENS } from '../../machines/roles/judge.role.ts';
import { startSimServer } from '../../src/sim/server.ts';
import type { MessageOf } from '../../src/kernel/protocol.ts';
import type { CallRecord } from '../../src/store/store.ts';
import { readResults } from '../../src/store/results-line.ts';
import { readJournal, readLog, readRequestLog, runInProcess, serveModel, smallProblems, startProxy, test, writeProblems } from '../fixtures.ts';

/** The roles whose replies are a strategy's candidates. */
const WRITERS = new Set(['solution', 'rollout', 'rewrite', 'solver', 'prover', 'refine', 'synthesis']);

let servers: Array<{ close: () => Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

/** A simulator for `problems` logging its requests to `log`. */
async function sim(problems: Array<{ problem_id: string; question: string; answer?: string }>, log: string): Promise<string> {
  const server = await startSimServer({ problems: problems.map((p) => ({ id: p.problem_id, question: p.question, answer: p.answer })), roles: SIM_ROLES, requestLog: log });
  servers.push(server);
  return server.url;
}

/** One small iteration of `strategy`, judged once per candidate, against `url`. */
function smallRun(strategy: string, input: string, output: string, url: string, ...flags: string[]): string[] {
  return [
    ...flags,
    ...['--input-file', input, '--output-file', output, '--strategy', strategy, '--base-url', url, '--model-name', 'tmas-sim', '--judge-model-name', 'tmas-sim'],
    ...['--no-proof', '--n-verifications', '1', '--max-iterations', '1', '--judge-passes', '1', '--no-stream'],
    ...(strategy === 'majority' ? ['--samples', '2'] : ['--n-candidates', '2']),
  ];
}

/**
 * One majority sample of `problem` from a model of the test's own that always
 * replies `reply`, judged `passes` times by the simulator; resolves the run's
 * directory.
 */
async function oneSampleJudged(dir: string, problem: { problem_id: string; question: string; answer: string }, reply: string, passes: number): Promise<string> {
  const input = await writeProblems(dir, [problem]);
  const solver = await serveModel(() => reply);
  servers.push(solver);
  const output = path.join(dir, 'run');
  await runInProcess([
    ...['--input-file', input, '--output-file', output, '--strategy', 'majority', '--samples', '1', '--no-proof', '--max-iterations', '1', '--no-stream'],
    ...['--base-url', solver.url, '--model-name', 'm', '--judge-base-url', await sim([problem], path.join(dir, 'requests.jsonl')), '--judge-model-name', 'tmas-sim', '--judge-passes', String(passes)],
  ]);
  return output;
}

/** The `<solution>` block of a judge prompt: the response as the judge reads it. */
function judgedText(call: CallRecord): string {
  const user = call.request.messages.at(-1)?.content ?? '';
  return /^<solution>\n([\s\S]*)\n<\/solution>$/m.exec(user)?.[1] ?? '';
}

/**
 * For each judge call, the candidate's call whose response it reads: the
 * writer call whose final text holds what the judge was shown (all of it;
 * verify-refine's candidate is its reply's Solution section, without the
 * self-evaluation after it).
 */
function sources(calls: CallRecord[]): Array<{ judge: CallRecord; source: CallRecord | undefined }> {
  const writers = calls.filter((call) => WRITERS.has(call.role));
  // A reply budget forcing continued (mas-ceo: `solver#forced`) is judged whole: its last call wrote how it ends.
  const continued = calls.filter((call) => call.role.endsWith('#forced') && WRITERS.has(call.role.replace(/#forced$/, '')));
  return calls
    .filter((call) => call.role === 'judge')
    .map((judge) => ({
      judge,
      source:
        writers.find((w) => w.problem === judge.problem && finalText(w.response.content).includes(judgedText(judge))) ??
        continued.find((w) => w.problem === judge.problem && judgedText(judge).endsWith(finalText(w.response.content))),
    }));
}

describe('every strategy hands the judge the response text', () => {
  test.for(Object.keys(STRATEGIES))('%s: each judge request carries a candidate response\'s whole final text and the reference answer, never the extracted answer alone', async (strategy, { dir }) => {
    const problems = smallProblems(1);
    const input = await writeProblems(dir, problems);
    const log = path.join(dir, 'requests.jsonl');
    const output = path.join(dir, 'run');
    await runInProcess(smallRun(strategy, input, output, await sim(problems, log)));

    const calls = await readJournal(output);
    const judged = sources(calls);
    expect(judged.length).toBeGreaterThan(0);
    // What reached the simulator: a judge request for every journaled judge call.
    expect((await readRequestLog(log)).filter((entry) => entry.role === 'judge')).toHaveLength(judged.length);
    for (const { judge, source } of judged) {
      const user = judge.request.messages.at(-1)?.content ?? '';
      // The text of one of the strategy's own responses, not its \boxed{} content.
      expect(source, user).toBeDefined();
      expect(judgedText(judge).length).toBeGreaterThan(100);
      expect(user).toContain(`<reference-answer>\n${problems[0]?.answer}\n</reference-answer>`);
      expect(user).not.toContain('<candidate-answer>');
      expect(user).toContain(`at most ${JUDGE_VIEW_TOKENS} tokens`);
    }
    const requests = (await readLog(output)).flatMap((e) => (e.message.type === 'judge.requested' ? [e.message as MessageOf<'judge.requested'>] : []));
    expect(requests.every((r) => r.cut === false && judged.some(({ judge }) => judgedText(judge) === r.response))).toBe(true);
  });
});

/**
 * A proxy in front of the simulator that cuts every candidate's reply short,
 * as a server at its length limit does: the reply stops after a provisional
 * `\boxed{99}`, with finish_reason `length`. Whole replies only (the runs use
 * --no-stream).
 */
async function cuttingProxy(target: string): Promise<string> {
  const proxy = await startProxy(target, (url, body, res) => {
    if (!url.endsWith('/chat/completions')) return false;
    const { messages } = JSON.parse(body) as { messages: Array<{ role: string; content: string }> };
    const system = messages.find((m) => m.role === 'system')?.content ?? '';
    const named = /You are the (\w+) agent/.exec(system)?.[1]?.toLowerCase();
    // PaCoRe's prompts have no system message.
    if (named !== undefined && !WRITERS.has(named)) return false;
    void fetch(`${target}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(async (answer) => {
      const reply = (await answer.json()) as { choices: Array<{ message: { content: string }; finish_reason: string }> };
      const choice = reply.choices[0];
      if (choice !== undefined) {
        const content = choice.message.content;
        choice.message.content = `${content.slice(0, Math.floor(content.length / 2))}\nA first guess is \\boxed{99}; checking it case by case, the`;
        choice.finish_reason = 'length';
      }
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply));
    });
    return true;
  });
  servers.push({
    close: () =>
      new Promise((resolve) => {
        proxy.server.closeAllConnections();
        proxy.server.close(() => resolve());
      }),
  });
  return proxy.url;
}

describe('a reply cut at its length limit', () => {
  test.for(Object.keys(STRATEGIES))('%s: is not sent to the judge, and its candidate is graded 0, the rule standing', async (strategy, { dir }) => {
    const problems = smallProblems(1);
    const input = await writeProblems(dir, problems);
    const target = (await sim(problems, path.join(dir, 'requests.jsonl'))).replace(/\/$/, '');
    const output = path.join(dir, 'run');
    await runInProcess(smallRun(strategy, input, output, await cuttingProxy(target)));
    // Before, the judge read each cut text, told it was cut, and credited the \boxed{99} it wrote on its way.
    expect(sources(await readJournal(output)).map(({ source }) => source?.response.finishReason)).toEqual([]);
    const candidates = (await readResults(path.join(output, 'results.jsonl'))).flatMap((line) => line.candidates);
    expect(candidates.length).toBeGreaterThan(0);
    for (const candidate of candidates) expect(candidate).toMatchObject({ answer: null, correctJudge: 0, ruled: true, judge: { verdicts: [] } });
  });
});

describe('hybrid grading of a cut reply', () => {
  test('rse, --judge-when unsure: a cut reply has no answer (the \\boxed{99} written before the cut is not taken, as in every method), the rule grades it wrong, and the judge is not asked', async ({ dir }) => {
    const problems = smallProblems(1);
    const input = await writeProblems(dir, problems);
    const target = (await sim(problems, path.join(dir, 'requests.jsonl'))).replace(/\/$/, '');
    const output = path.join(dir, 'run');
    await runInProcess(smallRun('rse', input, output, await cuttingProxy(target), '--judge-when', 'unsure'));
    const candidates = (await readResults(path.join(output, 'results.jsonl'))).flatMap((line) => line.candidates);
    expect(candidates).toHaveLength(2);
    for (const candidate of candidates) {
      // No method takes an answer from a cut reply; the rule is sure a candidate without one is wrong.
      expect(candidate).toMatchObject({ answer: null, correct: false, correctJudge: 0, ruled: true });
      expect(candidate.unsure).toBeUndefined();
    }
    expect((await readJournal(output)).filter((call) => call.role === 'judge')).toHaveLength(0);
  });
});

describe('an answer extraction would misread', () => {
  test('"the number of solutions is $12$, and the largest is $n = 5$": extraction takes n = 5, the judge reads the whole final text and finds 12', async ({ dir }) => {
    // A second statement after the answer, which the rule's extraction cannot tell from it ("attained exactly when $n = 5$", a remark, it now can).
    const final = 'Counting case by case, the number of solutions is $12$, and the largest is $n = 5$.';
    const problem = { problem_id: 'count', question: 'How many solutions does the equation have, over all n?', answer: '5' };
    const output = await oneSampleJudged(dir, problem, `<think>try n = 4 first, then n = 5</think>\n${final}`, 2);
    // The extraction reads the trailing `n = 5`; the rule, given the question ("How many solutions"), grades the clause
    // that names the number of solutions (labelled-clauses.ts), 12, as the judge does: neither takes the extraction.
    const [line] = await readResults(path.join(output, 'results.jsonl'));
    // The line shows the answer the rule graded, not the extraction's `n = 5`.
    expect(line?.candidates[0]).toMatchObject({ answer: '12', correct: false });
    const judges = (await readJournal(output)).filter((call) => call.role === 'judge');
    expect(judges).toHaveLength(2);
    for (const judge of judges) {
      const user = judge.request.messages.at(-1)?.content ?? '';
      expect(judgedText(judge)).toBe(final);
      expect(user).toContain('<reference-answer>\n5\n</reference-answer>');
      expect(user).not.toContain('try n = 4');
      // The simulated judge found the final answer in what it was sent.
      expect(judge.response.content).toContain("The candidate's final answer is 12; the reference is 5.");
    }
  });

  test('a vote counts the answer graded: four samples ending "The roots are …; the sum is …" vote on the sum the question asks for, not on the roots extracted', async ({ dir }) => {
    const problem = { problem_id: 'sum', question: 'Find the sum of the roots of the polynomial.', answer: '3' };
    const input = await writeProblems(dir, [problem]);
    // Two samples give the roots 1 and 2 with a wrong sum; two give other roots with the right sum 3.
    const endings = ['The roots are $1$ and $2$; the sum is $4$.', 'The roots are $1$ and $2$; the sum is $5$.', 'The roots are $0$ and $3$; the sum is $3$.', 'The roots are $-1$ and $4$; the sum is $3$.'];
    let served = 0;
    const solver = await serveModel(() => `Adding the roots as Vieta's formulas give them. ${endings[served++ % endings.length]}`);
    servers.push(solver);
    const output = path.join(dir, 'run');
    await runInProcess([...['--input-file', input, '--output-file', output, '--strategy', 'majority', '--samples', '4', '--no-proof', '--max-iterations', '1'], ...['--no-stream', '--base-url', solver.url, '--model-name', 'm']]);
    const [line] = await readResults(path.join(output, 'results.jsonl'));
    // Shown as graded: each line's answer is the sum, and its grade is that sum's.
    expect(line?.candidates.map((c) => [c.answer, c.correct]).sort()).toEqual([['3', true], ['3', true], ['4', false], ['5', false]]);
    // Voted as graded: 3 has two votes; by the extraction, "1, 2" had two and the vote was wrong.
    const metrics = JSON.parse(await readFile(path.join(output, 'metrics.json'), 'utf8')) as { iterations: Array<{ majority: number }>; problems: Array<{ iterations: Array<{ answer: string }> }> };
    expect(metrics.iterations[0]?.majority).toBe(1);
    expect(metrics.problems[0]?.iterations[0]?.answer).toBe('3');
  });
});

describe('a reply cut while it thought', () => {
  test('an opened <think> never closed is reasoning only: no answer is taken from it, the judge is not shown it, and the candidate counts as unusable', async ({ dir }) => {
    const problem = { problem_id: 'cut', question: 'What is 6 times 7?', answer: '3' };
    const output = await oneSampleJudged(dir, problem, '<think>Perhaps the answer is \\boxed{3}? Let me check by multiplying again, six sevens are', 1);
    const [line] = await readResults(path.join(output, 'results.jsonl'));
    // The tentative box inside the reasoning was read as the answer, and graded right.
    expect(line?.candidates[0]?.answer ?? null).toBeNull();
    expect(line?.candidates[0]?.correct).not.toBe(true);
    for (const judge of (await readJournal(output)).filter((call) => call.role === 'judge')) expect(judgedText(judge)).not.toContain('Perhaps');
    const metrics = JSON.parse(await readFile(path.join(output, 'metrics.json'), 'utf8')) as { iterations: Array<{ outputsByRole: Record<string, { unusable: number }> }> };
    expect(metrics.iterations[0]?.outputsByRole.solution?.unusable).toBe(1);
  });
});
