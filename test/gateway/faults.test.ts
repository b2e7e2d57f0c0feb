/**
 * Endpoint faults, end to end: runs against a real simulated model that
 * injects them (tmas sim-server --faults), through the real gateway, pool and
 * store. Transient faults must not change any result; answer-changing faults
 * must be survived and counted where the user sees them; an endpoint that
 * stays down must stop the run cleanly.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { parseRunFlags, toRunConfig } from '../../src/cli/run/run.command.ts';
import type { FaultCounts } from '../../src/observers/fault-counts.ts';
import { loadProblems } from '../../src/input/problems.ts';
import { runEvaluation } from '../../src/host/run/run-evaluation.ts';
import { startSimServer, type FaultRates } from '../../src/sim/server.ts';
import { readLog, runCliInProcess, smallProblems, test, writeProblems } from '../fixtures.ts';

const PROBLEMS = smallProblems(20);

/**
 * Runs tmas in-process against a sim-server with these faults; returns what the user gets. A hang costs
 * the client its --timeout, 2 s here; a run without hangs waits 30 s, so that an answer slowed by a loaded
 * machine is not given up (a reply the client gave up on is injected but never seen: 57 of 60 results at a load of 24).
 */
async function runAgainst(dir: string, name: string, count: number, faults: FaultRates, extra: string[] = []) {
  const timeout = faults.hang === undefined ? '30' : '2';
  const problems = PROBLEMS.slice(0, count);
  const sim = await startSimServer({ problems: problems.map((p) => ({ id: p.problem_id, question: p.question, answer: p.answer })), seed: 7, faults });
  try {
    // Each run its own problems file: a test's two runs go at once, and one writing the file while the other read it would cut it.
    const input = await writeProblems(await mkdtemp(path.join(dir, `${name}-problems-`)), problems);
    const outputDir = path.join(dir, name);
    const args = [
      '--input-file', input, '--output-file', outputDir, '--base-url', sim.url, '--no-proof',
      '--n-candidates', '2', '--n-verifications', '2', '--max-iterations', '3', '--seed', '11',
      '--timeout', timeout, '--retry-base-ms', '5', '--concurrency', '32', '--judge-passes', '0', ...extra,
    ];
    const { config, secrets } = toRunConfig(parseRunFlags(args), {});
    const stderr: string[] = [];
    await runEvaluation(config, secrets, await loadProblems(config.problems.inputFile), { stdout: () => {}, stderr: (line) => stderr.push(line) });
    const results = await readFile(path.join(outputDir, 'results.jsonl'), 'utf8');
    const metrics = JSON.parse(await readFile(path.join(outputDir, 'metrics.json'), 'utf8')) as {
      gateway: { retries: number; retriesByCause: Record<string, number>; failures: number };
      iterations: Array<{ faults: FaultCounts; failures: number }>;
    };
    return { results, metrics, stderr, simStats: sim.stats(), outputDir };
  } finally {
    await sim.close();
  }
}

function total(metrics: { iterations: Array<{ faults: FaultCounts }> }, field: keyof FaultCounts): number {
  return metrics.iterations.reduce((sum, it) => sum + it.faults[field], 0);
}

describe('endpoint faults', () => {
  test('transient faults (429, 503, reset, hang, malformed body) leave results.jsonl identical to a clean run, retries counted', async ({ dir }) => {
    // 8 problems × 3 iterations are 240 calls. At 0.035 a kind (0.175 in all, about 290 attempts), a kind is never
    // injected with a probability of 0.965^290 ≈ 3e-5, and a call meets a fault on all of its 9 attempts (--max-retries 8)
    // with 0.175^9 ≈ 2e-7 (4e-5 for any of 240). And the sim's faults are keyed by its seed and the request body, which
    // the run's --seed fixes: this run draws the same ones each time (12 429s, 18 503s, 9 resets, 9 hangs, 8 malformed).
    // The two runs share nothing (a simulator each): the clean one runs while the faulty one waits out its hangs.
    const [clean, faulty] = await Promise.all([runAgainst(dir, 'clean', 8, {}), runAgainst(dir, 'faulty', 8, { '429': 0.035, '503': 0.035, reset: 0.035, hang: 0.035, malformed: 0.035 })]);

    expect(clean.results.trim().split('\n')).toHaveLength(8 * 3);
    expect(faulty.results).toBe(clean.results);
    // Each kind was really injected, and each injection was retried by the gateway.
    for (const kind of ['429', '503', 'reset', 'hang', 'malformed']) expect(faulty.simStats.faults[kind] ?? 0).toBeGreaterThan(0);
    const injected = Object.values(faulty.simStats.faults).reduce((a, b) => a + b, 0);
    // At least: on a loaded machine a slow answer may also time out once and be retried.
    expect(faulty.metrics.gateway.retries).toBeGreaterThanOrEqual(injected);
    expect(faulty.metrics.gateway.failures).toBe(0);
    // Each 429 and 503 was retried as what it was, or, answered later than the client's 2 s on a loaded machine, as a timeout.
    const { retriesByCause } = faulty.metrics.gateway;
    const [tooMany, unavailable, timedOut] = [retriesByCause['429'] ?? 0, retriesByCause['503'] ?? 0, retriesByCause.timeout ?? 0];
    expect(tooMany).toBeLessThanOrEqual(faulty.simStats.faults['429'] ?? 0);
    expect(unavailable).toBeLessThanOrEqual(faulty.simStats.faults['503'] ?? 0);
    expect(tooMany + unavailable + timedOut).toBeGreaterThanOrEqual((faulty.simStats.faults['429'] ?? 0) + (faulty.simStats.faults['503'] ?? 0) + (faulty.simStats.faults.hang ?? 0));
    expect(tooMany).toBeGreaterThan(0);
    expect(Object.values(clean.simStats.faults).every((n) => n === 0)).toBe(true);
  });

  test('length, empty and context-length faults: the run completes and each case is counted in metrics.json and progress', async ({ dir }) => {
    // Two runs: a reply cut at its limit fills the window it was asked with (~130k tokens), and a context-length
    // fault then says the window is half of what was asked, where that reply's verifications no longer fit: a real
    // server, whose window stays what it is, never does both. The cut replies run to a 4096-token limit, not the window.
    // 10 problems × 3 iterations: about 300 calls, 60 of them solutions. A solution is cut (length 0.15) in none of them
    // with a probability of 0.85^60 ≈ 6e-5; no call is emptied (0.1) or refused (0.1) with one under 1e-13. Drawn as in
    // the test above, the same each time: 58 cut, 29 empty, 38 refused.
    const [cut, run] = await Promise.all([runAgainst(dir, 'damaged', 10, { length: 0.15, empty: 0.1 }, ['--completion-max-tokens', '4096']), runAgainst(dir, 'refused', 10, { context: 0.1 })]);
    for (const each of [cut, run]) {
      expect(each.results.trim().split('\n')).toHaveLength(10 * 3);
      // Nothing failed for good: a context-length error re-fits the prompt, a damaged answer is asked again or kept as no answer.
      expect(each.metrics.iterations.every((it) => it.failures === 0)).toBe(true);
    }
    expect(cut.simStats.faults.length ?? 0).toBeGreaterThan(0);
    expect(total(cut.metrics, 'truncated')).toBeGreaterThan(0);
    expect(total(cut.metrics, 'emptyAnswers')).toBeGreaterThan(0);
    expect(total(cut.metrics, 'parseRetries')).toBeGreaterThan(0);
    // At most: a reply the client gave up on (a timeout on a loaded machine) is injected but never seen.
    expect(total(run.metrics, 'contextErrors')).toBeGreaterThan(0);
    expect(total(run.metrics, 'contextErrors')).toBeLessThanOrEqual(run.simStats.faults.context ?? 0);
    expect(cut.stderr.at(-1) ?? '').toMatch(/answers: .*truncated \d+/);
    expect(cut.stderr.at(-1) ?? '').toMatch(/empty \d+/);
    expect(run.stderr.at(-1) ?? '').toMatch(/context-length \d+/);

    const cutLog = await readLog(cut.outputDir);
    expect(cutLog.filter((e) => e.message.type === 'output.invalid').length).toBeGreaterThan(0);
    // A truncated solution is a candidate without an answer, never a crash.
    const truncatedSolutions = cutLog.flatMap((e) => (e.message.type === 'solution.completed' && e.message.call.finishReason === 'length' ? [e.message] : []));
    expect(truncatedSolutions.length).toBeGreaterThan(0);
    expect(truncatedSolutions.every((m) => m.answer === null)).toBe(true);
    expect((await readLog(run.outputDir)).some((e) => e.message.type === 'context.trimmed' && (e.message.contextErrors ?? 0) > 0)).toBe(true);

    // A call answered in a smaller window is found by the key it was first asked under: the replay, which never meets the refusal, reads the run as it was.
    const replay = await runCliInProcess(['replay', run.outputDir]);
    expect(replay.code, replay.stdout + replay.stderr).toBe(0);
    expect(replay.stdout).toMatch(/^identical: /);
  }, 240_000);

  test('an endpoint that stays down stops the run with a message naming it and its last error, exit 2, store readable', async ({ dir }) => {
    const sim = await startSimServer({ problems: PROBLEMS.slice(0, 3).map((p) => ({ id: p.problem_id, question: p.question, answer: p.answer })), faults: { '503': 1 } });
    try {
      const input = await writeProblems(dir, PROBLEMS.slice(0, 3));
      const outputDir = path.join(dir, 'down');
      const { code, stderr } = await runCliInProcess([
        'run', '--input-file', input, '--output-file', outputDir, '--base-url', sim.url, '--no-proof',
        '--n-candidates', '2', '--n-verifications', '2', '--max-iterations', '2', '--max-retries', '2', '--retry-base-ms', '1',
      ]);
      expect(code).toBe(2);
      expect(stderr).toContain(`The model endpoint ${sim.url}`);
      expect(stderr).toContain('stays down');
      expect(stderr).toContain('HTTP 503');
      expect(stderr).not.toContain('internal error');
      // The store closed cleanly: it opens again and holds the log of what happened.
      const log = await readLog(outputDir);
      expect(log.some((e) => e.message.type === 'run.started')).toBe(true);
      // No new calls after the endpoint was declared down: 3 calls × 3 attempts at most per wave of in-flight calls.
      expect(sim.stats().byRole.solution ?? 0).toBeLessThanOrEqual(6 * 3);
    } finally {
      await sim.close();
    }
  });
});

describe('hostile input and paths at the command line', () => {
  const good = JSON.stringify({ problem_id: 'a', question: 'What is 1 + 1?', answer: '2' });
  const cases: Array<{ name: string; bytes: Buffer; says: RegExp }> = [
    { name: 'invalid UTF-8', bytes: Buffer.concat([Buffer.from(`${good}\n{"problem_id": "b", "question": "caf`), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n')]), says: /problems\.jsonl:2\b.*UTF-8/ },
    { name: 'a line that is JSON but not an object', bytes: Buffer.from(`${good}\n[1, 2]\n`), says: /problems\.jsonl:2\b.*object/ },
  ];
  for (const { name, bytes, says } of cases) {
    test(`${name}: error naming file and line, exit 2, nothing written`, async ({ dir }) => {
      const input = path.join(dir, 'problems.jsonl');
      await writeFile(input, bytes);
      const output = path.join(dir, 'out');
      const result = await runCliInProcess(['run', '--input-file', input, '--output-file', output, '--no-proof']);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(says);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(existsSync(output)).toBe(false);
    });
  }

  test('an output directory that cannot be created: error naming it and --output-file, exit 2', async ({ dir }) => {
    const input = await writeProblems(dir, PROBLEMS.slice(0, 1));
    // Below a regular file nothing can be created, whoever runs the test (root ignores permission bits).
    const blocker = path.join(dir, 'a-file');
    await writeFile(blocker, '');
    const output = path.join(blocker, 'out');
    const result = await runCliInProcess(['run', '--input-file', input, '--output-file', output, '--no-proof', '--max-iterations', '1']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(output);
    expect(result.stderr).toContain('--output-file');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
