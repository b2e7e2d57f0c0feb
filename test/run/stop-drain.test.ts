/**
 * The first Ctrl-C drains a run: no new call is sent, and the calls in flight
 * finish and are journaled (a hosted API bills the tokens of a call aborted
 * midway, and the resume would send it again). Real processes, real signals,
 * the simulator over real sockets: each test counts the requests the server
 * answered against the calls the journals hold.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { loadProblems } from '../../src/input/problems.ts';
import { startSimServer, type SimServer } from '../../src/sim/server.ts';
import { SIM_ROLES } from '../../machines/strategies/sim-roles.ts';
import { expectOutputsOfStore, readJournal, readRequestLog, runCliInProcess, smallProblems, startCli, startProxy, test, until, writeProblems } from '../fixtures.ts';

/** Requests the simulators answered (HTTP 200), over their request logs. */
async function answered(logs: string[]): Promise<number> {
  let count = 0;
  for (const log of logs) if (existsSync(log)) count += (await readRequestLog(log)).filter((entry) => entry.status === 200).length;
  return count;
}

/** Calls journaled in the stores of `runs`. */
async function journaled(runs: string[]): Promise<number> {
  let count = 0;
  for (const run of runs) count += (await readJournal(run)).length;
  return count;
}

/**
 * A simulator in this process whose every call takes `latencyMs`, logging its requests to `log`; `answerAtOnce`
 * drops the latency for the calls after the stop (the resume and the clean run), which only the drain needs.
 */
async function slowSim(problems: string, latencyMs: number, log: string): Promise<SimServer & { answerAtOnce(): void }> {
  const latency = { medianMs: latencyMs, p99Ms: latencyMs };
  const sim = await startSimServer({ problems: await loadProblems(problems), roles: SIM_ROLES, latency, requestLog: log });
  return Object.assign(sim, { answerAtOnce: () => void Object.assign(latency, { medianMs: 0, p99Ms: 0 }) });
}

/** The drain's line: how many calls it lets finish. */
const DRAINING = /SIGINT: stopping: no new calls; the (\d+) calls? in flight (?:finishes and is|finish and are) journaled.*Ctrl-C again to abort (?:it: it is|them: they are) sent again on resume \(and billed again on a hosted API\)/;

describe('the first Ctrl-C', () => {
  test('lets the calls in flight finish: every call the server answered is journaled, the resume sends none of them again, and its results are a clean run\'s', async ({ dir }) => {
    const problems = await writeProblems(dir, smallProblems(2));
    const log = path.join(dir, 'requests.jsonl');
    // Every call takes 0.8 s: when the first four are answered, the next four are in flight.
    const sim = await slowSim(problems, 800, log);
    try {
      const common = ['--input-file', problems, '--base-url', sim.url, '--no-proof', '--n-candidates', '3', '--n-verifications', '1', '--max-iterations', '2', '--concurrency', '4'];
      const run = path.join(dir, 'run');
      const live = startCli(['run', ...common, '--output-file', run]);
      await until(async () => (await answered([log])) >= 4, live.child);
      live.child.kill('SIGINT');
      expect(await live.exited).toBe(130);
      const draining = DRAINING.exec(live.stderr());
      expect(draining, live.stderr()).not.toBeNull();
      expect(Number(draining?.[1])).toBeGreaterThan(0);
      expect(live.stderr()).not.toMatch(/took over|internal error|aborting/);
      // The calls in flight at the Ctrl-C were answered and journaled: nothing was paid for and lost.
      const paid = await answered([log]);
      expect(paid).toBeGreaterThan(4);
      expect(await journaled([run])).toBe(paid);
      await expectOutputsOfStore(run);

      sim.answerAtOnce();
      const resumed = await runCliInProcess(['run', '--resume', run]);
      expect(resumed.code, resumed.stderr).toBe(0);
      // Each call paid once over both processes: the server answered as many requests as the journal holds calls.
      expect(await answered([log])).toBe(await journaled([run]));
      const clean = await runCliInProcess(['run', ...common, '--output-file', path.join(dir, 'clean')]);
      expect(clean.code, clean.stderr).toBe(0);
      expect(await readFile(path.join(run, 'results.jsonl'), 'utf8')).toBe(await readFile(path.join(dir, 'clean', 'results.jsonl'), 'utf8'));
    } finally {
      await sim.close();
    }
  });

  test('a server that stops answering holds the stop no longer than --timeout: its calls are given up, not retried, and sent on resume', async ({ dir }) => {
    const problems = await writeProblems(dir, smallProblems(2));
    const log = path.join(dir, 'requests.jsonl');
    const sim = await slowSim(problems, 200, log);
    // The first four chat requests go on to the simulator; every later one is held open, never answered.
    let chats = 0;
    const hanging = { on: true };
    const proxy = await startProxy(sim.url, (url) => url.endsWith('/chat/completions') && hanging.on && ++chats > 4);
    try {
      const run = path.join(dir, 'run');
      const args = ['--input-file', problems, '--base-url', proxy.url, '--no-proof', '--n-candidates', '3', '--n-verifications', '1', '--max-iterations', '1', '--concurrency', '4', '--timeout', '1'];
      const live = startCli(['run', ...args, '--output-file', run]);
      await until(() => chats >= 6, live.child);
      const stoppedAt = performance.now();
      live.child.kill('SIGINT');
      expect(await live.exited).toBe(130);
      // The calls held open were given up after --timeout (1 s), with no retry: the stop took seconds, not the deadline's minutes.
      expect(performance.now() - stoppedAt).toBeLessThan(15_000);
      expect(live.stderr()).toMatch(DRAINING);
      expect(live.stderr()).not.toMatch(/took over|internal error/);
      expect(await journaled([run])).toBe(await answered([log]));
      await expectOutputsOfStore(run);
      hanging.on = false;
      sim.answerAtOnce();
      // The resume need not give calls up quickly: at --timeout 1 a loaded machine gives up calls the server goes on to answer, and asks them again.
      const resumed = await runCliInProcess(['run', '--resume', run, '--timeout', '60']);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(await answered([log])).toBe(await journaled([run]));
    } finally {
      proxy.server.closeAllConnections();
      proxy.server.close();
      await sim.close();
    }
  });

  test('of tmas table1 on a pool of two replicas: every method drains, each call answered is journaled by its method, and the table resumes paying for none twice', async ({ dir }) => {
    const problems = await writeProblems(dir, smallProblems(2));
    const logs = [path.join(dir, 'a.jsonl'), path.join(dir, 'b.jsonl')];
    const [a, b] = [await slowSim(problems, 1_000, logs[0] as string), await slowSim(problems, 1_000, logs[1] as string)];
    try {
      const out = path.join(dir, 'table');
      const args = ['table1', '--strategies', 'majority,tmas', '--input-file', problems, '--output-file', out, '--base-url', `${a.url},${b.url}`, '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '2', '--samples', '4', '--judge-passes', '0', '--concurrency', '6'];
      const methods = ['majority', 'tmas'].map((method) => path.join(out, method));
      const live = startCli(args);
      await until(async () => (await answered(logs)) >= 6, live.child);
      live.child.kill('SIGINT');
      expect(await live.exited).toBe(130);
      expect(live.stderr()).toMatch(DRAINING);
      expect(live.stderr()).toMatch(/give the same tmas table1 command again to resume them all/);
      expect(live.stderr()).not.toMatch(/took over|internal error|aborting/);
      expect(await journaled(methods)).toBe(await answered(logs));
      for (const method of methods) await expectOutputsOfStore(method);

      a.answerAtOnce();
      b.answerAtOnce();
      const resumed = await runCliInProcess(args);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(await answered(logs)).toBe(await journaled(methods));
      expect((await readdir(out)).sort()).toEqual(['majority', 'report.html', 'table1.md', 'tmas']);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
