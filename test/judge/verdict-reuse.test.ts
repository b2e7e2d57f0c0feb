/**
 * One verdict-reuse rule for every strategy: a judge verdict is reused only
 * when the judge request would be identical (same candidate, pass, prompt and
 * response text). Against a server of our own that writes Self-Refine's
 * attempts: on one problem every rewrite changes the text but keeps the
 * answer (judged afresh), on the other the rewrite gives back the same text
 * (judged once, its verdict kept).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createActor, fromPromise, waitFor } from 'xstate';
import { afterEach, describe, expect } from 'vitest';
import type { DedupBanksInput, DedupBanksOutput, ProblemInput, SaveIterationInput, SaveIterationOutput } from '../../machines/contract.ts';
import { createProgramMachine } from '../../machines/program.machine.ts';
import { tmasProgram } from '../../machines/strategies/tmas/tmas.program.ts';
import type { Message, MessageOf } from '../../src/kernel/protocol.ts';
import { serveModel, readLog, runInProcess, test, writeProblems, runCliInProcess } from '../fixtures.ts';
import { readResults } from '../../src/store/results-line.ts';

const PROBLEMS = [
  { problem_id: 'changing', question: 'What is 1 + 1?', answer: '2' },
  { problem_id: 'repeating', question: 'What is 2 + 2?', answer: '4' },
];

/** What the server writes for a role on a problem: `changing`'s rewrites count up, `repeating`'s give its first attempt back. */
function reply(role: string, question: string, rewrites: Map<string, number>): string {
  const changing = question.includes('1 + 1');
  if (role === 'Judge') return 'The answers agree.\nVERDICT: equivalent';
  if (role === 'Critique') return 'The steps are thin.\nSCORE: 0.5';
  if (role === 'Rewrite' && changing) {
    const count = (rewrites.get(question) ?? 0) + 1;
    rewrites.set(question, count);
    return `Attempt ${count + 1}, each step written out again.\nSo the answer is \\boxed{2}.`;
  }
  return changing ? 'Attempt 1.\nSo the answer is \\boxed{2}.' : 'Adding two and two.\nSo the answer is \\boxed{4}.';
}

/** A chat server that answers Self-Refine's roles and the judge (whole replies: the run uses --no-stream), counting judge calls by problem. */
async function startServer(): Promise<{ url: string; judgeCalls: Map<string, number>; close: () => Promise<void> }> {
  const judgeCalls = new Map<string, number>();
  const rewrites = new Map<string, number>();
  const server = await serveModel((body) => {
    const { messages } = JSON.parse(body) as { messages: Array<{ content: string }> };
    const text = messages.map((message) => message.content).join('\n');
    const role = /You are the (\w+) agent/.exec(text)?.[1] ?? 'Solution';
    const question = PROBLEMS.find((problem) => text.includes(problem.question))?.question ?? '';
    if (role === 'Judge') judgeCalls.set(question, (judgeCalls.get(question) ?? 0) + 1);
    return reply(role, question, rewrites);
  });
  return { ...server, judgeCalls };
}

describe('verdict reuse', () => {
  let server: { close: () => Promise<void> } | null = null;
  /** The server, the problems, the run's folder and the flags a run and its resume both give. */
  const resumable = async (dir: string) => {
    const endpoint = await startServer();
    server = endpoint;
    const model = ['--base-url', endpoint.url, '--model-name', 'm', '--judge-model-name', 'm', '--judge-passes', '1', '--no-stream'];
    return { endpoint, input: await writeProblems(dir, PROBLEMS), output: path.join(dir, 'run'), model };
  };
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  test('self-refine: a rewrite with the same answer is judged afresh; a response given back word for word keeps its verdict', async ({ dir }) => {
    const endpoint = await startServer();
    server = endpoint;
    const input = await writeProblems(dir, PROBLEMS);
    const output = path.join(dir, 'run');
    await runInProcess([
      '--input-file', input, '--output-file', output, '--strategy', 'self-refine', '--no-proof', '--n-candidates', '1', '--max-iterations', '3',
      '--base-url', endpoint.url, '--model-name', 'm', '--judge-model-name', 'm', '--judge-passes', '1', '--no-stream',
    ]);

    const log = await readLog(output);
    const asked = (problem: string) =>
      log.flatMap(({ message }) => (message.type === 'judge.requested' && message.problem === problem ? [message.iteration] : []));
    // `changing`: iterations 1 and 2 rewrite the text around the same \boxed{2}; each new text is judged.
    expect(asked('changing')).toEqual([0, 1, 2]);
    // `repeating`: every rewrite gives back the first attempt: one request, its verdict kept.
    expect(asked('repeating')).toEqual([0]);
    expect(endpoint.judgeCalls.get(PROBLEMS[0]?.question ?? '')).toBe(3);
    expect(endpoint.judgeCalls.get(PROBLEMS[1]?.question ?? '')).toBe(1);

    // Every iteration of both problems carries its verdict, reused or not.
    const lines = await readResults(path.join(output, 'results.jsonl'));
    expect(lines).toHaveLength(6);
    expect(lines.every((line) => line.candidates.every((c) => c.judge?.verdicts.length === 1 && c.correctJudge === 1))).toBe(true);
    const metrics = JSON.parse(await readFile(path.join(output, 'metrics.json'), 'utf8')) as { evaluation: { judge: { verdictReuse: string } } };
    expect(metrics.evaluation.judge.verdictReuse).toBe('identical-request-or-no-verdict');
  });

  test('a run stopped after iteration 0 and resumed reuses the verdicts it had, as the run without a stop does', async ({ dir }) => {
    const { endpoint, input, output, model } = await resumable(dir);
    await runInProcess(['--input-file', input, '--output-file', output, '--strategy', 'self-refine', '--no-proof', '--n-candidates', '1', '--max-iterations', '1', ...model]);
    const resumed = await runCliInProcess(['run', '--resume', output, '--max-iterations', '3', ...model]);
    expect(resumed.code, resumed.stderr).toBe(0);

    const log = await readLog(output);
    const asked = (problem: string) =>
      log.flatMap(({ message }) => (message.type === 'judge.requested' && message.problem === problem ? [message.iteration] : []));
    // The first attempt given back word for word at iterations 1 and 2: its iteration-0 verdict, not a new call.
    expect(asked('repeating')).toEqual([0]);
    expect(endpoint.judgeCalls.get(PROBLEMS[1]?.question ?? '')).toBe(1);
    expect(asked('changing')).toEqual([0, 1, 2]);
  });

  test('majority extended to more iterations keeps its samples\' verdicts: no judge pass is paid twice', async ({ dir }) => {
    const { endpoint, input, output, model } = await resumable(dir);
    const judgeCalls = () => [...endpoint.judgeCalls.values()].reduce((sum, calls) => sum + calls, 0);
    await runInProcess(['--input-file', input, '--output-file', output, '--strategy', 'majority', '--samples', '4', '--no-proof', '--max-iterations', '2', ...model]);
    expect(judgeCalls()).toBe(8);
    // T = 3 cuts the 4 samples as 1, 2, 4: samples 2 and 3, judged in iteration 1 before, come in iteration 2 now.
    const extended = await runCliInProcess(['run', '--resume', output, '--max-iterations', '3', ...model]);
    expect(extended.code, extended.stderr).toBe(0);
    expect(judgeCalls()).toBe(8);
    // Resumed again as it is: sample 1, first shown at iteration 1 now, has no journal entry there either.
    const again = await runCliInProcess(['run', '--resume', output, ...model]);
    expect(again.code, again.stderr).toBe(0);
    expect(judgeCalls()).toBe(8);
    const last = (await readResults(path.join(output, 'results.jsonl'))).filter((line) => line.iteration === 2);
    expect(last.map((line) => line.candidates.map((c) => c.judge?.verdicts))).toEqual([Array(4).fill([true]), Array(4).fill([true])]);
  });
});

// TMAS sends a candidate's passes as its solution arrives, while the iteration before may still
// have its own out. A candidate that repeats the text of that iteration waits for its verdict
// instead of racing it, so the calls do not depend on which reply comes first.
describe('verdict reuse while the identical request is still out', () => {
  test.each([
    { earlier: 'a verdict', verdict: true, asked: 0 },
    { earlier: 'a failed call', verdict: null, asked: 1 },
  ])('tmas: a solution repeated word for word while the identical request is still out is settled by $earlier', async ({ verdict, asked }) => {
    const input: ProblemInput = {
      run: 'r',
      ordinal: 0,
      problem: { id: 'p', question: 'What is 1 + 1?', answer: '2' },
      settings: { nCandidates: 1, nVerifications: 1, maxIterations: 2, epsilon: 0, seed: 0, jaccardThreshold: 0.7, judgePasses: 1, proof: false },
      start: { iteration: 0, experience: [], guidelines: [], rollouts: [] },
    };
    const posted: Message[] = [];
    const machine = createProgramMachine(tmasProgram).provide({
      actions: { post: (_, params) => void posted.push(params.message) },
      actors: {
        dedupBanks: fromPromise<DedupBanksOutput, DedupBanksInput>(async ({ input: banks }) => ({ experience: banks.experience, guidelines: banks.guidelines })),
        saveIteration: fromPromise<SaveIterationOutput, SaveIterationInput>(async () => ({ saved: true })),
      },
    });
    const actor = createActor(machine, { input });
    actor.start();
    const call = { key: 'k', usage: { promptTokens: 1, completionTokens: 1 }, finishReason: 'stop' as const };
    const base = (iteration: number, role: string) => ({ run: 'r', problem: 'p', iteration, correlation: `p/${iteration}/${role}/0` });
    const judgeRequests = (iteration: number) => posted.filter((m): m is MessageOf<'judge.requested'> => m.type === 'judge.requested' && m.iteration === iteration);
    /** One TMAS iteration whose only candidate writes the same text, up to the deduplication. */
    const loop = (iteration: number) => {
      actor.send({ type: 'solution.completed', ...base(iteration, 'solution'), candidate: 0, source: 'normal', text: 'Two.\nSo \\boxed{2}.', answer: '2', call });
      actor.send({ type: 'verification.completed', ...base(iteration, 'verification'), candidate: 0, index: 0, score: 1, analysis: '', call });
      actor.send({ type: 'summary.completed', ...base(iteration, 'summary'), candidate: 0, summary: '', score: 1, call });
      actor.send({ type: 'experience.completed', ...base(iteration, 'experience'), records: [], parseError: null, call });
      actor.send({ type: 'guideline.completed', ...base(iteration, 'guideline'), records: [], parseError: null, call });
    };

    loop(0);
    // Iteration 0's pass is out, so iteration 1 starts ahead of it.
    await waitFor(actor, () => posted.some((m) => m.type === 'solution.requested' && m.iteration === 1));
    loop(1);
    // The same candidate, the same text: no request yet, while the identical one of iteration 0 is out.
    expect(judgeRequests(1)).toHaveLength(0);
    if (verdict === null) actor.send({ type: 'llm.failed', ...base(0, 'judge'), role: 'judge', index: 0, code: 'TMAS_CALL_FAILED', error: 'HTTP 400' });
    else actor.send({ type: 'judge.completed', ...base(0, 'judge'), candidate: 0, pass: 0, verdict, call });
    await waitFor(actor, () => judgeRequests(1).length === asked && (asked === 0 ? actor.getSnapshot().status === 'done' : true));
    // A verdict is reused; a pass that gave none is asked again.
    expect(judgeRequests(0)).toHaveLength(1);
    expect(judgeRequests(1)).toHaveLength(asked);
    if (asked === 0) {
      const done = posted.find((m): m is MessageOf<'iteration.completed'> => m.type === 'iteration.completed' && m.iteration === 1);
      expect(done?.candidates[0]?.judge?.verdicts).toEqual([true]);
    }
    actor.stop();
  });
});
