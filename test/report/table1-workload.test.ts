/**
 * `tmas table1` runs its methods together through one gateway: the six methods' calls reach the
 * server interleaved, within one --concurrency; each method's results are those it has run alone;
 * a table killed midway resumes each method.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Command } from 'commander';
import { describe, expect } from 'vitest';
import { BIN, expectOutputsOfStore, REPO, readRequestLog, runCliInProcess, smallProblems, test, writeProblems } from '../fixtures.ts';

const METHODS = ['majority', 'self-refine', 'verify-refine', 'pacore', 'rse', 'tmas'];
/** Tiny sizes: 2 problems, 2 candidates, 1 verification, 2 iterations, 4 samples, the rule grade. */
const SMALL = ['--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '2', '--samples', '4', '--judge-passes', '0'];

/** The method of a role name the simulator logs, for roles that only one of the six has. */
const OWN_ROLES: Record<string, string> = { prover: 'verify-refine', rater: 'verify-refine', rollout: 'rse', distill: 'rse', verification: 'tmas', summary: 'tmas', critique: 'self-refine' };

/** Runs the table in this process, its methods one after another (each with its own gateway, as before): the reference. */
async function sequentialTable(out: string, input: string): Promise<void> {
  const [{ parseRunFlags }, { runTable1Command }] = await Promise.all([import('../../src/cli/run/run.command.ts'), import('../../src/cli/run/table1.command.ts')]);
  const flags = { ...parseRunFlags(['--input-file', input, '--output-file', out, ...SMALL]), strategies: METHODS.join(','), budgets: 'shared' as const };
  const quiet = { stdout: () => {}, stderr: () => {} };
  await runTable1Command(flags, new Command(), quiet, new AbortController().signal, { together: false });
}

/**
 * Each method's results when the six run one after another on 2 problems: the reference of both
 * tests, made once for the file. A run's results do not depend on when its replies come (a resumed
 * run's are an uninterrupted one's), so the slow simulator of the second test changes none of them.
 */
let sequential: Promise<Record<string, string>> | undefined;
function sequentialResults(): Promise<Record<string, string>> {
  sequential ??= (async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'tmas-table1-'));
    try {
      const out = path.join(dir, 'sequential');
      await sequentialTable(out, await writeProblems(dir, smallProblems(2)));
      return await resultsOf(out);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  })();
  return sequential;
}

/** Each method's results.jsonl. */
async function resultsOf(out: string): Promise<Record<string, string>> {
  return Object.fromEntries(await Promise.all(METHODS.map(async (method) => [method, await readFile(path.join(out, method, 'results.jsonl'), 'utf8')] as const)));
}

/**
 * A proxy of the test's own in front of the simulator: passes every request on, and notes, as each
 * chat request starts, the keys (sha256 of the body, as the simulator's request log has them) of
 * the chat requests in flight then.
 */
async function countingProxy(target: string) {
  const inFlight = new Set<string>();
  const seen: string[][] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const key = createHash('sha256').update(body).digest('hex');
      const chat = req.url?.endsWith('/chat/completions') === true;
      if (chat) {
        inFlight.add(key);
        seen.push([...inFlight]);
      }
      const upstream = new URL(target);
      const forward = request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: { 'content-type': 'application/json' } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on('end', () => inFlight.delete(key));
      });
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return { url, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Runs `tmas` with `args` and sends it `signal` once `ready` (given its stderr so far) holds; resolves its exit code and stderr. */
function stopWhen(args: string[], signal: NodeJS.Signals, ready: (stderr: string) => boolean): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const watch = setInterval(() => {
    if (!ready(stderr)) return;
    clearInterval(watch);
    child.kill(signal);
  }, 10);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearInterval(watch);
      resolve({ code, stderr });
    });
  });
}

/** Whether every method's run has made its store (`out`/<method>/store). */
const everyStore = (out: string) => () => METHODS.every((method) => existsSync(path.join(out, method, 'store')));

/** Whether a progress line of the table was printed. */
/** Whether a method's progress line counts a call answered (`| solution 2, ...` at its end): one the stop's drain journals. */
const answeredOne = (stderr: string) => /\] \[\d+\.\ds\] problem-iterations[^\n]*Pass@1[^|\n]*\| [a-z][\w-]* [1-9]/.test(stderr);

/**
 * Whether every method's run has had its store open: `out`/<method>/tmas.lock names the process while it writes
 * the run (a method already finished holds it briefly), read once whole (a lock killed half-written stands 10 s).
 */
function everyLock(out: string): () => boolean {
  const seen = new Set<string>();
  const holds = (method: string) => {
    try {
      return typeof (JSON.parse(readFileSync(path.join(out, method, 'tmas.lock'), 'utf8')) as { pid?: unknown }).pid === 'number';
    } catch {
      return false;
    }
  };
  return () => {
    for (const method of METHODS) if (holds(method)) seen.add(method);
    return seen.size === METHODS.length;
  };
}

/** What a method's metrics.json says of its calls and the gateway. */
interface MethodMetrics {
  calls: { issued: number };
  gateway: { retriesByCause: Record<string, number>; endpoints: Array<{ calls: number; errors: number }>; processes?: { counted: number; uncounted: number }; shared?: { with: string[]; figures: string[] } };
  results: { lines: number; sha256: string };
}

/** Each method's metrics.json. */
async function metricsOf(out: string): Promise<Record<string, MethodMetrics>> {
  return Object.fromEntries(await Promise.all(METHODS.map(async (method) => [method, JSON.parse(await readFile(path.join(out, method, 'metrics.json'), 'utf8')) as MethodMetrics] as const)));
}

/** The attempts a method's metrics.json says its endpoints answered. */
const answered = (metrics: MethodMetrics) => metrics.gateway.endpoints.reduce((sum, endpoint) => sum + endpoint.calls, 0);

/**
 * Each method's gateway block counts its own calls, not the six methods' on the gateway they
 * shared: its endpoints answered the calls it issued, the 429s the server sent are each one
 * method's retry, and the block names the methods it shared the gateway with.
 */
async function expectOwnCounts(out: string, injected: number): Promise<void> {
  const metrics = await metricsOf(out);
  for (const method of METHODS) {
    const own = metrics[method] as MethodMetrics;
    expect(answered(own), method).toBe(own.calls.issued);
    expect(own.gateway.shared).toEqual({ with: METHODS.filter((other) => other !== method), figures: expect.arrayContaining(['endpoints[].limit', 'endpoints[].knee']) });
    expect(own.gateway.processes).toBeUndefined();
  }
  expect(injected).toBeGreaterThan(0);
  expect(METHODS.reduce((sum, method) => sum + ((metrics[method] as MethodMetrics).gateway.retriesByCause['429'] ?? 0), 0)).toBe(injected);
}

describe('tmas table1: the methods as one workload', () => {
  test("the six methods run at once through one gateway: their calls interleave at the server, never more in flight than --concurrency, each method gets the results it gets alone, and each method's metrics.json counts its own calls and retries", async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(2));
    const { startSimServer } = await import('../../src/sim/server.ts');
    const { SIM_ROLES } = await import('../../machines/strategies/sim-roles.ts');
    const { loadProblems } = await import('../../src/input/problems.ts');
    const requestLog = path.join(dir, 'requests.jsonl');
    // Some latency, so that calls overlap as they do on a real server; some 429s, which the gateway retries.
    const sim = await startSimServer({ problems: await loadProblems(input), roles: SIM_ROLES, latency: { medianMs: 20, p99Ms: 60 }, requestLog, faults: { '429': 0.05 } });
    const proxy = await countingProxy(sim.url);
    try {
      const out = path.join(dir, 'together');
      const result = await runCliInProcess(['table1', '--input-file', input, '--output-file', out, '--base-url', proxy.url, '--model-name', 'tmas-sim', '--concurrency', '4', '--retry-base-ms', '5', ...SMALL]);
      expect(result.code, result.stderr).toBe(0);
      const injected = sim.stats().faults['429'] ?? 0;
      // Every progress line says which method it is about.
      for (const method of METHODS) expect(result.stderr).toMatch(new RegExp(`^\\[${method}\\] \\[\\d+\\.\\ds\\] problem-iterations`, 'm'));
      await sim.close();
      const methodOf = new Map((await readRequestLog(requestLog)).map((entry) => [entry.key, OWN_ROLES[entry.role ?? ''] ?? null]));
      // One --concurrency for the six methods, not one each.
      expect(Math.max(...proxy.seen.map((keys) => keys.length))).toBeLessThanOrEqual(4);
      // Calls of different methods were at the server at the same time.
      const mixed = proxy.seen.filter((keys) => new Set(keys.map((key) => methodOf.get(key)).filter((method) => method != null)).size >= 2);
      expect(mixed.length).toBeGreaterThan(0);
      expect(await resultsOf(out)).toEqual(await sequentialResults());
      await expectOwnCounts(out, injected);
    } finally {
      await proxy.close();
      await sim.close();
    }
  });

  test("Ctrl-C stops every method, each writing outputs that agree with its store; a table then killed midway resumes each method where it was, ends with the results of one never stopped, and each method's gateway block sums its calls over the processes that kept theirs", async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(2));
    // Slow enough that some methods are still running at the first progress line (2 s), on a fast machine too.
    const slow = ['--sim-latency-ms', '400'];

    const out = path.join(dir, 'stopped');
    const args = ['table1', '--input-file', input, '--output-file', out, ...SMALL, ...slow];
    // Ctrl-C once a call is answered and every method has started (its store made): all stop, and each writes what it finished.
    // Not at the first progress line alone: on a loaded machine no call may have been sent by then, and the resume would reuse none.
    const started = everyStore(out);
    const interrupted = await stopWhen(args, 'SIGINT', (stderr) => answeredOne(stderr) && started());
    expect(interrupted.code, interrupted.stderr).toBe(130);
    expect(interrupted.stderr).toMatch(/give the same tmas table1 command again to resume them all/);
    // No method was cut off by the stop's deadline: the stop ended itself.
    expect(interrupted.stderr).not.toMatch(/took over|internal error/);
    for (const method of METHODS) await expectOutputsOfStore(path.join(out, method));
    const first = await metricsOf(out);
    expect(existsSync(path.join(out, 'table1.md'))).toBe(false);

    // Killed outright once every method has opened its store again, long before one still running could end: it writes nothing, and keeps no count.
    const killed = await stopWhen(args, 'SIGKILL', everyLock(out));
    for (const method of METHODS) expect(killed.stderr).toContain(`resuming ${method}`);
    expect(existsSync(path.join(out, 'table1.md'))).toBe(false);

    const resumed = await runCliInProcess(args);
    expect(resumed.code, resumed.stderr).toBe(0);
    for (const method of METHODS) expect(resumed.stderr).toContain(`resuming ${method}`);
    const last = await metricsOf(out);
    const reused = METHODS.map((method) => (last[method] as MethodMetrics & { calls: { reused: number } }).calls.reused);
    expect(reused.reduce((sum, n) => sum + n, 0)).toBeGreaterThan(0);
    // Each method's calls answered over the run: those of the process stopped by Ctrl-C and of the last (the one killed kept no count).
    for (const method of METHODS) expect(answered(last[method] as MethodMetrics), method).toBe(answered(first[method] as MethodMetrics) + (last[method] as MethodMetrics).calls.issued);
    expect(await resultsOf(out)).toEqual(await sequentialResults());
    expect(existsSync(path.join(out, 'table1.md'))).toBe(true);
  });
});
