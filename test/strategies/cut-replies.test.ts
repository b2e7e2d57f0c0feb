/**
 * A reply cut at its completion limit has no final answer, in every method
 * alike: a server of our own answers every call with a text that boxes a
 * guess and is then cut (finish_reason "length"), and no method may count
 * the guess as its candidate's answer. Before, TMAS's solutions and PaCoRe's
 * syntheses had none while RSE's rollouts and Self-Refine's rewrites graded
 * the guess, so a model that fills its window moved the table by method.
 * A reply a hosted API's content filter stopped (finish_reason
 * "content_filter", OpenAI's and Azure's) is cut as well: before, its
 * partial text was graded as the candidate's answer, and nothing said so.
 * Nor does any role read what a cut reply stated on its way (a verdict, a
 * score, a decision, a plan): it had not finished.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { chatChunkEvent, chatCompletionBody, readJournal, runCliInProcess, runInProcess, serveFixedReply, serveHttp, smallProblems, smallWidthFlags, test, writeProblems } from '../fixtures.ts';
import { MAX_DISTILL_ATTEMPTS } from '../../machines/strategies/rse/rse.roles.ts';
import { VERIFICATION_INDEX_STRIDE } from '../../machines/roles/verification.role.ts';
import { SIM_ROLES } from '../../machines/strategies/sim-roles.ts';
import { STRATEGIES } from '../../machines/strategies/index.ts';
import { startSimServer } from '../../src/sim/server.ts';
import type { CallRecord } from '../../src/store/records.ts';

/** A reasoning model's text cut mid-check, after a boxed guess at the problem's answer. */
const CUT = 'A first guess is \\boxed{2}, which I should check before trusting it: the sum of';

/**
 * A reply that states, on its way, what every role reads (a verdict, a score,
 * a decision, a correctness, the no-error sentence, a summary, a plan and a
 * team), each a provisional line a reasoning model may go on to revise, and is
 * then cut at its length limit.
 */
const CUT_VERDICTS = [
  'SUMMARY: the steps check out so far.',
  'Experts: 3',
  'Direction: algebra',
  'Budget: 4000',
  'Expert 1: an algebraist.',
  'Expert 2: a number theorist.',
  'Expert 3: a combinatorialist.',
  'It is correct.',
  'Decision: agree',
  'Correctness: 1',
  'Advice: none.',
  'SCORE: 1',
  'VERDICT: equivalent',
  'On a second look the last step divides by',
].join('\n');

/** A server of model `m` that answers every call with CUT, ended by `finishReason`: a whole reply when cut at its length, a stream when filtered. */
function cuttingServer(finishReason: string) {
  return serveHttp((req, res) => {
    if (req.url?.endsWith('/models')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'm', object: 'model', created: 0, owned_by: 'test' }] }));
      return;
    }
    if (finishReason === 'content_filter') {
      res.writeHead(200, { 'content-type': 'text/event-stream' }).end(chatChunkEvent({ role: 'assistant', content: CUT }, null, 'm') + chatChunkEvent({}, finishReason, 'm') + 'data: [DONE]\n\n');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(chatCompletionBody(CUT, { model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: CUT }, finish_reason: finishReason }] }));
  });
}

describe('a reply cut at its length limit, or stopped by a content filter, has no final answer', () => {
  test.for([
    ['tmas', 'length'],
    ['rse', 'length'],
    ['self-refine', 'length'],
    ['pacore', 'length'],
    ['tmas', 'content_filter'],
    ['rse', 'content_filter'],
    ['self-refine', 'content_filter'],
    ['pacore', 'content_filter'],
  ] as const)('%s, finish_reason "%s": no candidate takes the boxed guess of a cut reply', async ([strategy, finishReason], { dir }) => {
    const server = await cuttingServer(finishReason);
    try {
      const problems = smallProblems(1);
      const run = path.join(dir, strategy);
      const args = ['--strategy', strategy, '--input-file', await writeProblems(dir, problems), '--output-file', run, '--base-url', server.url, '--model-name', 'm'];
      const outcome = await runInProcess([...args, '--no-proof', '--no-stream', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1', '--judge-passes', '0', '--parse-retries', '0']);
      expect(outcome.calls.failed).toBe(0);
      const lines = (await readFile(path.join(run, 'results.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { candidates: Array<{ answer: string | null }> });
      const answers = lines.flatMap((line) => line.candidates.map((candidate) => candidate.answer));
      expect(answers.length).toBeGreaterThan(0);
      expect(answers.every((answer) => answer === null)).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe('a reply stopped by a content filter is told', () => {
  test('once on stderr, naming the endpoint; counted as filtered in metrics.json and unusable', async ({ dir }) => {
    const server = await cuttingServer('content_filter');
    try {
      const run = path.join(dir, 'run');
      const args = ['run', '--input-file', await writeProblems(dir, smallProblems(1)), '--output-file', run, '--base-url', server.url, '--model-name', 'm'];
      const ended = await runCliInProcess([...args, '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1', '--parse-retries', '1']);
      // Every reply filtered: no role used an output, so the run is no result of its method, which ends it at 3.
      expect(ended.code, ended.stderr).toBe(3);
      expect(ended.stderr).toContain('[TMAS_RUN_UNGRADED]');
      const told = ended.stderr.split('\n').filter((line) => line.includes('finish_reason "content_filter"'));
      expect(told).toHaveLength(1);
      expect(told[0]).toContain(server.url);
      const metrics = JSON.parse(await readFile(path.join(run, 'metrics.json'), 'utf8')) as { iterations: Array<{ faults: { filtered: number; invalidOutputs: number } }> };
      // Two solutions, each asked again once: four filtered replies of the solver at least, none of them an answer.
      expect(metrics.iterations[0]?.faults.filtered).toBeGreaterThanOrEqual(4);
      expect(metrics.iterations[0]?.faults.invalidOutputs).toBeGreaterThanOrEqual(2);
    } finally {
      await server.close();
    }
  });
});

interface CutLine {
  candidates: Array<{ verification_scores?: Array<number | null>; summary_score?: number | null; judge?: { verdicts: Array<boolean | null> } }>;
}
interface CutMetrics {
  iterations: Array<{ outputsByRole: Record<string, { outputs: number; unusable: number }> }>;
}

describe('a reply cut at its length limit states no verdict, score or plan', () => {
  test.for(Object.keys(STRATEGIES).filter((name) => name !== 'verify-refine-chains'))(
    '%s: every cut reply is unusable, and none of what it stated is used',
    async (strategy, { dir }) => {
      const server = await serveFixedReply(CUT_VERDICTS, 'length');
      try {
        const run = path.join(dir, strategy);
        const args = ['--strategy', strategy, '--input-file', await writeProblems(dir, smallProblems(1)), '--output-file', run, '--base-url', server.url, '--model-name', 'm'];
        const outcome = await runInProcess([...args, ...smallWidthFlags(strategy), '--no-proof', '--no-stream', '--max-iterations', '2', '--judge-passes', '1', '--parse-retries', '0']);
        expect(outcome.calls.failed).toBe(0);
        const metrics = JSON.parse(await readFile(path.join(run, 'metrics.json'), 'utf8')) as CutMetrics;
        const usable = metrics.iterations.flatMap((iteration) => Object.entries(iteration.outputsByRole).filter(([, counts]) => counts.unusable < counts.outputs).map(([role]) => role));
        expect(usable).toEqual([]);
        const lines = (await readFile(path.join(run, 'results.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as CutLine);
        const stated = lines.flatMap((line) => line.candidates.flatMap((c) => [...(c.verification_scores ?? []), c.summary_score ?? null, ...(c.judge?.verdicts ?? [])]));
        expect(stated.length).toBeGreaterThan(0);
        expect(stated.filter((value) => value !== null)).toEqual([]);
      } finally {
        await server.close();
      }
    },
  );
});

/**
 * Runs `strategy` on 4 problems against a simulator that breaks half its
 * replies' formats, a share of them cut off at the whole completion limit
 * (a 4,096-token window), and returns its journal and every failure its
 * results record.
 */
async function runAtSmallWindow(dir: string, strategy: string, flags: string[]): Promise<{ journal: CallRecord[]; failures: string[] }> {
  const problems = smallProblems(4);
  const sim = await startSimServer({ problems: problems.map((p) => ({ id: p.problem_id, question: p.question, answer: p.answer })), seed: 5, roles: SIM_ROLES, breakFormats: 0.5 });
  try {
    const run = path.join(dir, strategy);
    const args = ['--strategy', strategy, '--input-file', await writeProblems(dir, problems), '--output-file', run, '--base-url', sim.url, '--model-name', 'tmas-sim'];
    const outcome = await runInProcess([...args, '--max-tokens', '4096', '--no-proof', '--no-stream', '--n-candidates', '4', '--judge-passes', '0', '--parse-retries', '0', ...flags]);
    expect(outcome.calls.failed).toBe(0);
    const lines = (await readFile(path.join(run, 'results.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { candidates: Array<{ failures: string[] }> });
    return { journal: await readJournal(run), failures: lines.flatMap((line) => line.candidates.flatMap((candidate) => candidate.failures)) };
  } finally {
    await sim.close();
  }
}

describe('TMAS verifies whole solutions only', () => {
  test('at a window-filling completion limit, a cut solution gets no verification or summary call, and no call fails for want of room', async ({ dir }) => {
    const { journal, failures } = await runAtSmallWindow(dir, 'tmas', ['--n-verifications', '2', '--max-iterations', '2']);
    const cut = journal.filter((record) => record.role === 'solution' && record.response.finishReason === 'length');
    expect(cut.length).toBeGreaterThan(0);
    const candidateOf = (record: CallRecord) => (record.role === 'verification' ? Math.floor(record.index / VERIFICATION_INDEX_STRIDE) : record.index);
    const asked = new Set(journal.filter((record) => record.role === 'verification' || record.role === 'summary').map((record) => `${record.problem}/${record.iteration}/${candidateOf(record)}`));
    for (const record of cut) expect(asked.has(`${record.problem}/${record.iteration}/${record.index}`)).toBe(false);
    expect(failures).toEqual([]);
  });
});

describe('Self-Refine critiques whole solutions only', () => {
  test('at a window-filling completion limit, a candidate whose solution or rewrite was cut is solved afresh, a cut critique leads to no rewrite, and no call fails for want of room', async ({ dir }) => {
    const { journal, failures } = await runAtSmallWindow(dir, 'self-refine', ['--max-iterations', '3']);
    const cut = journal.filter((record) => (record.role === 'solution' || record.role === 'rewrite') && record.response.finishReason === 'length' && record.iteration < 2);
    expect(cut.length).toBeGreaterThan(0);
    const calls = new Map(journal.map((record) => [`${record.role}/${record.problem}/${record.iteration}/${record.index}`, record]));
    for (const record of cut) expect(calls.has(`solution/${record.problem}/${record.iteration + 1}/${record.index}`)).toBe(true);
    const cutCritiques = journal.filter((record) => record.role === 'critique' && record.response.finishReason === 'length');
    expect(cutCritiques.length).toBeGreaterThan(0);
    for (const record of cutCritiques) expect(calls.has(`rewrite/${record.problem}/${record.iteration}/${record.index}`)).toBe(false);
    expect(failures).toEqual([]);
  });
});

describe('verify-refine-chains verifies and refines whole solutions only', () => {
  test('at a window-filling completion limit, a cut solution or refinement gets no verification, its candidate is solved afresh, and no call fails for want of room', async ({ dir }) => {
    const { journal, failures } = await runAtSmallWindow(dir, 'verify-refine-chains', ['--n-verifications', '2', '--max-iterations', '3']);
    const cut = journal.filter((record) => (record.role === 'solution' || record.role === 'refine') && record.response.finishReason === 'length' && record.iteration < 2);
    expect(cut.length).toBeGreaterThan(0);
    const verified = new Set(journal.filter((record) => record.role === 'verification').map((record) => `${record.problem}/${record.iteration}/${Math.floor(record.index / VERIFICATION_INDEX_STRIDE)}`));
    const solved = new Set(journal.filter((record) => record.role === 'solution').map((record) => `${record.problem}/${record.iteration}/${record.index}`));
    for (const record of cut) {
      expect(verified.has(`${record.problem}/${record.iteration}/${record.index}`)).toBe(false);
      expect(solved.has(`${record.problem}/${record.iteration + 1}/${record.index}`)).toBe(true);
    }
    expect(failures).toEqual([]);
  });
});

describe("RSE's distiller reads a cut rollout shortened to fit", () => {
  test('at a window-filling completion limit, a cut rollout is distilled with its middle left out and said so, and no call fails for want of room', async ({ dir }) => {
    // Before, each distillation of a cut rollout failed with TMAS_CONTEXT_LENGTH: its prompt quoted a window's worth of text.
    const { journal, failures } = await runAtSmallWindow(dir, 'rse', ['--max-iterations', '2']);
    const cut = new Set(journal.filter((record) => record.role === 'rollout' && record.response.finishReason === 'length').map((record) => `${record.problem}/${record.iteration}/${record.index}`));
    expect(cut.size).toBeGreaterThan(0);
    const shortened = journal.filter((record) => record.role === 'distill' && record.fit.dropped.includes('solution:middle'));
    expect(shortened.length).toBeGreaterThan(0);
    for (const record of shortened) {
      expect(cut.has(`${record.problem}/${record.iteration}/${Math.floor(record.index / MAX_DISTILL_ATTEMPTS)}`)).toBe(true);
      expect(record.request.messages.at(-1)?.content).toMatch(/\[… \d+ tokens left out here: the rest of this text did not fit the context window …\]/);
    }
    // What fails is what the format-breaking model broke (no lists in the JSON), never a prompt for want of room.
    expect(failures.filter((failure) => /not sent|context/i.test(failure))).toEqual([]);
  });
});

describe("MAS-TTS's roles read the solutions they quote shortened to fit", () => {
  test('at a window-filling completion limit, calls that quote a cut reply are sent with it shortened, and none fails for want of room', async ({ dir }) => {
    // Before, 37 of a 40-problem iteration's calls at an 8k window failed with TMAS_CONTEXT_LENGTH: critics, evaluator, solver and judge.
    const { journal, failures } = await runAtSmallWindow(dir, 'mas-ceo', ['--max-iterations', '1', '--judge-passes', '1']);
    const shortened = new Set(journal.flatMap((record) => (record.fit.dropped.some((id) => id.endsWith(':middle')) ? [record.role] : [])));
    expect(shortened.size).toBeGreaterThan(0);
    expect(failures.filter((failure) => /not sent|context/i.test(failure))).toEqual([]);
  });
});

describe('a solution that says nothing is not checked either', () => {
  // A reasoning model behind a server without its reasoning parser, or one whose parser took the whole reply:
  // the content is empty, or all thinking. Before, each was verified, critiqued or refined, and shown in R(t) with a score.
  test.for([
    ['tmas', ''],
    ['self-refine', ''],
    ['verify-refine-chains', ''],
    ['tmas', '<think>The sum is 2, so the answer is \\boxed{2}.</think>\n\n'],
  ] as const)('%s, content %j: only solutions are asked for, and each is unusable', async ([strategy, content], { dir }) => {
    const server = await serveFixedReply(content, 'stop');
    try {
      const run = path.join(dir, strategy);
      const args = ['--strategy', strategy, '--input-file', await writeProblems(dir, smallProblems(1)), '--output-file', run, '--base-url', server.url, '--model-name', 'm'];
      const outcome = await runInProcess([...args, '--no-proof', '--no-stream', '--n-candidates', '2', '--n-verifications', '2', '--max-iterations', '2', '--judge-passes', '0', '--parse-retries', '0']);
      expect(outcome.calls.failed).toBe(0);
      const checking = (await readJournal(run)).filter((record) => ['verification', 'summary', 'critique', 'rewrite', 'refine'].includes(record.role));
      expect(checking.map((record) => `${record.role} ${record.iteration}/${record.index}`)).toEqual([]);
      const metrics = JSON.parse(await readFile(path.join(run, 'metrics.json'), 'utf8')) as CutMetrics;
      for (const iteration of metrics.iterations) expect(iteration.outputsByRole.solution).toMatchObject({ outputs: 2, unusable: 2 });
    } finally {
      await server.close();
    }
  });
});
