import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { startSimServer } from '../../src/sim/server.ts';
import { judgePrompt, parseVerdict } from '../../machines/roles/judge.role.ts';
import { judgeRequests } from '../../machines/judging.ts';
import { parseRunFlags, toRunConfig } from '../../src/cli/run/run.command.ts';
import type { CandidateResult, MessageOf } from '../../src/kernel/protocol.ts';
import type { CallRecord } from '../../src/store/store.ts';
import { readJournal, readLog, runCliInProcess, runInProcess, runStrategy, serveModel, smallProblems, test, writeProblems } from '../fixtures.ts';
import { readResults } from '../../src/store/results-line.ts';

const N = 3;
const PASSES = 2;
const T = 2;

async function results(output: string): Promise<Array<{ problem: string; iteration: number; candidates: CandidateResult[] }>> {
  return readResults(path.join(output, 'results.jsonl'));
}

async function judgeCalls(output: string): Promise<CallRecord[]> {
  return (await readJournal(output)).filter((call) => call.role === 'judge');
}

describe('the LLM judge against the simulated model', () => {
  test('--judge-passes 2 makes exactly N×2 judge calls per problem-iteration, each seeded apart, and results carry both grades', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(2));
    const output = path.join(dir, 'run');
    const outcome = await runInProcess(['--input-file', input, '--output-file', output, '--no-proof', '--n-candidates', `${N}`, '--n-verifications', '1', '--max-iterations', `${T}`, '--judge-passes', `${PASSES}`, '--temperature', '0.7']);
    const log = await readLog(output);
    for (const problem of ['p1', 'p2']) {
      for (let t = 0; t < T; t++) {
        const judged = log.filter((e) => e.message.type === 'judge.completed' && e.message.problem === problem && e.message.iteration === t);
        expect(judged, `${problem} iteration ${t}`).toHaveLength(N * PASSES);
        // Every judge verdict of the iteration is in before it completes.
        const done = log.find((e) => e.message.type === 'iteration.completed' && e.message.problem === problem && e.message.iteration === t);
        expect(Math.max(...judged.map((e) => e.seq))).toBeLessThan(done?.seq ?? -1);
      }
    }

    const calls = await judgeCalls(output);
    expect(calls).toHaveLength(2 * T * N * PASSES);
    // The judge samples at its own temperature, not the run's --temperature 0.7.
    expect(new Set(calls.map((c) => c.request.temperature))).toEqual(new Set([0.6]));
    expect(calls.every((c) => c.request.sampling?.topP === 0.95)).toBe(true);
    // One seed per (problem, iteration, candidate, pass).
    expect(new Set(calls.map((c) => c.request.seed)).size).toBe(calls.length);
    expect(new Set(calls.map((c) => c.index))).toEqual(new Set([0, 1, 100, 101, 200, 201]));

    const lines = await results(output);
    expect(lines).toHaveLength(2 * T);
    for (const line of lines) {
      for (const candidate of line.candidates) {
        expect(typeof candidate.correct).toBe('boolean');
        expect(candidate.judge?.verdicts).toHaveLength(PASSES);
        expect(candidate.correctJudge).not.toBeNull();
      }
    }
    const figures = outcome.iterations[0];
    expect(figures?.pass1Judge).not.toBeNull();
    expect(figures?.pass1Rule).not.toBeNull();
    expect(figures?.judged).toBe(2 * N);
    const metrics = JSON.parse(await readFile(path.join(output, 'metrics.json'), 'utf8'));
    expect(metrics.iterations).toHaveLength(T);
    expect(metrics.totals.tokensByRole.judge.prompt).toBeGreaterThan(0);
  });

  test("TMAS's loop does not wait for the judge: the next iteration runs while the passes are out, and only the results wait for them", async ({ dir }) => {
    const problems = smallProblems(1);
    const sim = await startSimServer({ problems: problems.map((p) => ({ id: p.problem_id, question: p.question, answer: p.answer })) });
    // A proxy that holds every judge call until the loop has asked for its second iteration's
    // experience update (or 20 s, so that a loop that waits for the judge fails on its order
    // instead of hanging).
    let experienceAsked = 0;
    let secondIteration: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      secondIteration = resolve;
      setTimeout(resolve, 20_000).unref();
    });
    const target = new URL(sim.url);
    const proxy: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', async () => {
        const body = Buffer.concat(chunks);
        const text = body.toString('utf8');
        if (text.includes('You are the Experience agent') && ++experienceAsked === 2) secondIteration();
        if (text.includes('You are the Judge agent')) await released;
        const upstream = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (reply) => {
          res.writeHead(reply.statusCode ?? 502, reply.headers);
          reply.pipe(res);
        });
        upstream.on('error', () => res.destroy());
        upstream.end(body);
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const input = await writeProblems(dir, problems);
      const output = path.join(dir, 'run');
      const base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/v1`;
      await runInProcess(['--input-file', input, '--output-file', output, '--base-url', base, '--model-name', 'tmas-sim', '--no-proof', '--n-candidates', `${N}`, '--n-verifications', '1', '--max-iterations', '2', '--judge-passes', `${PASSES}`]);
      const log = await readLog(output);
      const seqOf = (type: string, iteration: number) => log.filter((e) => e.message.type === type && e.message.iteration === iteration).map((e) => e.seq);
      // Iteration 1's whole loop, up to its experience update, ran while iteration 0's passes were held.
      expect(Math.min(...seqOf('experience.requested', 1))).toBeLessThan(Math.min(...seqOf('judge.completed', 0)));
      for (const iteration of [0, 1]) {
        expect(seqOf('judge.completed', iteration)).toHaveLength(N * PASSES);
        // Each iteration's results came after its passes, and in order.
        expect(Math.max(...seqOf('judge.completed', iteration))).toBeLessThan(Math.min(...seqOf('iteration.completed', iteration)));
      }
      expect(Math.min(...seqOf('iteration.completed', 0))).toBeLessThan(Math.min(...seqOf('iteration.completed', 1)));
      const lines = await results(output);
      expect(lines.map((line) => line.iteration)).toEqual([0, 1]);
      expect(lines.every((line) => line.candidates.every((c) => c.judge?.verdicts.length === PASSES && c.correctJudge !== null))).toBe(true);
    } finally {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
      await sim.close();
    }
  });

  // Deterministic without a proxy: the next iteration's requests go out in the same step as the
  // judge requests of the one before, so before any verdict can come back.
  test.for(['self-refine', 'verify-refine-chains', 'rse', 'pacore'])("%s's next iteration does not wait for the judge either, and its results are saved in order once their passes are in", async (strategy, { dir }) => {
    const messages = await runStrategy(dir, strategy, ['--max-iterations', '3', '--n-candidates', '2', '--n-verifications', '1', '--judge-passes', `${PASSES}`], 1);
    const at = (iteration: number, match: (type: string) => boolean) => messages.flatMap((m, i) => (m.iteration === iteration && match(m.type) ? [i] : []));
    const loopRequest = (type: string) => type.endsWith('.requested') && type !== 'judge.requested';
    expect(Math.min(...at(1, loopRequest))).toBeLessThan(Math.min(...at(0, (type) => type === 'judge.completed')));
    for (const iteration of [0, 1, 2]) {
      const [completed] = at(iteration, (type) => type === 'iteration.completed');
      expect(Math.max(...at(iteration, (type) => type === 'judge.completed'))).toBeLessThan(completed as number);
    }
    const lines = await results(path.join(dir, 'out'));
    expect(lines.map((line) => line.iteration)).toEqual([0, 1, 2]);
    expect(lines.every((line) => line.candidates.every((c) => c.judge?.verdicts.length === PASSES))).toBe(true);
  });

  test('--judge-passes 0 makes no judge call and leaves the judge grade empty', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(1));
    const output = path.join(dir, 'run');
    await runInProcess(['--input-file', input, '--output-file', output, '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1', '--judge-passes', '0']);
    expect((await readLog(output)).filter((e) => e.message.type === 'judge.requested')).toHaveLength(0);
    const [line] = await results(output);
    expect(line?.candidates.every((c) => c.judge === null && c.correctJudge === null && typeof c.correct === 'boolean')).toBe(true);
  });

  test('judge flags where the judge makes no call (--judge-passes 0, given or kept by a fork) are refused naming them, before anything is written', async ({ dir }) => {
    // Before: a new run waited --wait-for-server (600 s) for the unused judge endpoint; a fork of a run graded by rule
    // recorded --judge-model-name as its change and stayed graded by rule.
    const input = await writeProblems(dir, smallProblems(1));
    const output = path.join(dir, 'run');
    const small = ['--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1'];
    const unused = await runCliInProcess(['run', '--input-file', input, '--output-file', output, ...small, '--judge-passes', '0', '--judge-base-url', 'http://127.0.0.1:9/v1', '--judge-when', 'unsure']);
    expect(unused.code, unused.stderr).toBe(2);
    expect(unused.stderr).toContain('--judge-base-url, --judge-when set the LLM judge, which makes no call in this run (--judge-passes 0: graded by rule alone).');
    expect(existsSync(output)).toBe(false);
    await runInProcess(['--input-file', input, '--output-file', output, ...small]);
    const fork = path.join(dir, 'fork');
    const forked = await runCliInProcess(['fork', output, '--output-file', fork, '--judge-model-name', 'tmas-sim']);
    expect(forked.code, forked.stderr).toBe(2);
    expect(forked.stderr).toContain('--judge-model-name sets the LLM judge, which makes no call in this run');
    expect(existsSync(fork)).toBe(false);
  });

  test('proof mode: judged against the reference solution when there is one, otherwise verification scores only', async ({ dir }) => {
    const problems = [
      { problem_id: 'with', question: 'Prove that 2 + 2 = 4.', answer: '4', solution: 'Counting: two and two make \\boxed{4}.' },
      { problem_id: 'without', question: 'Prove that 3 + 3 = 6.', answer: '6' },
    ];
    const input = await writeProblems(dir, problems);
    const output = path.join(dir, 'run');
    await runInProcess(['--input-file', input, '--output-file', output, '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1', '--judge-passes', '2']);
    const requests = (await readLog(output)).flatMap((e) => (e.message.type === 'judge.requested' ? [e.message] : []));
    expect(requests).toHaveLength(2 * 2);
    expect(new Set(requests.map((r) => r.problem))).toEqual(new Set(['with']));
    expect(requests.every((r) => r.reference === problems[0]?.solution)).toBe(true);
    const lines = await results(output);
    const judged = lines.find((l) => l.problem === 'with');
    const unjudged = lines.find((l) => l.problem === 'without');
    expect(judged?.candidates.every((c) => c.correct === null && c.correctJudge !== null)).toBe(true);
    expect(unjudged?.candidates.every((c) => c.correct === null && c.judge === null && c.summaryScore !== null)).toBe(true);
  });

  test('the judge is off unless one is named, then 4 passes; the demo uses fewer; --judge-* endpoints default to the solution agent', () => {
    const plain = toRunConfig(parseRunFlags(['--input-file', 'x.jsonl', '--base-url', 'http://localhost:8000/v1', '--model-name', 'm']), {});
    expect(plain.config.judge.passes).toBe(0);
    expect(plain.config.roles.endpoints.judge).toEqual({ baseUrl: ['http://localhost:8000/v1'], model: 'm', sampling: { temperature: 0.6, topP: 0.95, topK: null, minP: null, extraBody: null } });
    const own = toRunConfig(parseRunFlags(['--input-file', 'x.jsonl', '--judge-base-url', 'http://judge:9000/v1', '--judge-model-name', 'j', '--judge-api-key', 'k']), {});
    expect(own.config.judge.passes).toBe(4);
    expect(own.config.judge.maxTokens).toBe(4096);
    expect(own.config.roles.endpoints.judge).toEqual({ baseUrl: ['http://judge:9000/v1'], model: 'j', sampling: { temperature: 0.6, topP: 0.95, topK: null, minP: null, extraBody: null } });
    expect(own.secrets.judge).toBe('k');
    // Only a model named: the judge is that model at the solution agent's endpoint.
    expect(toRunConfig(parseRunFlags(['--input-file', 'x.jsonl', '--judge-model-name', 'j']), {}).config.judge.passes).toBe(4);
    // Passes asked for with no judge named: the model under test judges itself (the run warns).
    expect(toRunConfig(parseRunFlags(['--input-file', 'x.jsonl', '--judge-passes', '2']), {}).config.judge.passes).toBe(2);
    expect(toRunConfig(parseRunFlags(['--demo']), {}).config.judge.passes).toBe(2);
  });

  test('verdicts are parsed from the last VERDICT line; none gives null', () => {
    expect(parseVerdict('They match.\nVERDICT: equivalent')).toBe(true);
    expect(parseVerdict('VERDICT: equivalent\nOn reflection no.\n**Verdict:** not equivalent')).toBe(false);
    expect(parseVerdict('I cannot tell.')).toBeNull();
  });

  /** One majority sample answering 42 (the reference), judged once by a model of the test's own that replies `verdict`; the pass's verdict and the judge's unusable count. */
  async function judgedBy(dir: string, verdict: string) {
    const model = await serveModel((body) => (body.includes('You are the Judge agent') ? verdict : 'Six sevens are 42, so the answer is \\boxed{42}.'));
    try {
      await mkdir(dir, { recursive: true });
      const output = path.join(dir, 'run');
      const input = await writeProblems(dir, [{ problem_id: 'p', question: 'What is 6 times 7?', answer: '42' }]);
      await runInProcess(['--input-file', input, '--output-file', output, '--strategy', 'majority', '--samples', '1', '--no-proof', '--max-iterations', '1', '--no-stream', '--base-url', model.url, '--model-name', 'm', '--judge-passes', '1', '--parse-retries', '0']);
      const [line] = await readResults(path.join(output, 'results.jsonl'));
      const metrics = JSON.parse(await readFile(path.join(output, 'metrics.json'), 'utf8')) as { iterations: Array<{ outputsByRole: Record<string, { unusable: number }> }> };
      return { verdicts: line?.candidates[0]?.judge?.verdicts, unusable: metrics.iterations[0]?.outputsByRole.judge?.unusable };
    } finally {
      await model.close();
    }
  }

  test('a judge that quotes the two verdicts after its own gives its own; one that quotes them and gives none gives no verdict, never "not equivalent"', async ({ dir }) => {
    const quoted = 'I was asked to end with "VERDICT: equivalent" or "VERDICT: not equivalent".';
    expect(await judgedBy(path.join(dir, 'after'), `Both are 42.\nVERDICT: equivalent\n${quoted}`)).toEqual({ verdicts: [true], unusable: 0 });
    expect(await judgedBy(path.join(dir, 'none'), `Both are 42, I think. ${quoted}`)).toEqual({ verdicts: [null], unusable: 1 });
  });
});

test("a candidate's judge passes hold one copy of its response between them, not one each: majority's hundreds of samples a problem, each judged four times, filled the heap", () => {
  // 8 MB of response; each pass's block, read as the pool's key reads it, would be a copy of its own.
  const response = `We are asked for the sum. ${'The argument goes on. '.repeat(400_000)}So the answer is \\boxed{12}.`;
  const setup = { problem: { id: 'p', question: 'What is the sum?', answer: '12' }, settings: { judgePasses: 4 }, base: { run: 'r', problem: 'p', iteration: 0 } };
  const requests = judgeRequests(setup, { candidate: 0, text: response, answer: '12', cut: false, filtered: false }) as Array<MessageOf<'judge.requested'>>;
  expect(requests).toHaveLength(4);
  const before = process.memoryUsage().heapUsed;
  const blocks = requests.map((request) => {
    const block = judgePrompt(request, { proof: false }).parts.find((part) => part.id === 'candidate') as { text: string };
    // Reading a character makes V8 lay the block out as one string: where each pass built its own, a copy each.
    expect(block.text.charCodeAt(block.text.length - 20)).toBeGreaterThan(0);
    return block;
  });
  const grown = process.memoryUsage().heapUsed - before;
  expect(blocks.every((block) => block.text.endsWith(`${response.slice(-30)}\n</solution>`))).toBe(true);
  // One block of the response's size, not four (a collection meanwhile only lowers the figure).
  expect(grown).toBeLessThan(2 * response.length);
});
