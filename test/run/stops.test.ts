/**
 * How commands end when they are stopped: one Ctrl-C of a run writes outputs
 * that agree with the store and exits, however early, and a stop is ended only
 * once it has gone the deadline without progress; a second writer is
 * refused even when LevelDB's LOCK file was deleted; and no private copy of a
 * store outlives the command that made it, or, after a kill -9, the next one.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { loadProblems } from '../../src/input/problems.ts';
import { startSimServer } from '../../src/sim/server.ts';
import { SIM_ROLES } from '../../machines/strategies/sim-roles.ts';
import { requestLogReader } from '../store/crashes/request-log.ts';
import { expectOutputsOfStore, runCli, runCliInProcess, runInProcess, smallProblems, startCli, startSwitchableProxy, test, until, writeProblems } from '../fixtures.ts';

/** What a run's metrics.json says of the gateway, the attempts its endpoints answered, and the calls its last process issued. */
async function gatewayOf(run: string) {
  const metrics = JSON.parse(await readFile(path.join(run, 'metrics.json'), 'utf8')) as {
    calls: { issued: number };
    gateway: { endpoints: Array<{ calls: number }>; latency: { firstTokenMs: { count: number } }; processes?: { counted: number; uncounted: number } };
  };
  return { gateway: metrics.gateway, answered: metrics.gateway.endpoints.reduce((sum, endpoint) => sum + endpoint.calls, 0), issued: metrics.calls.issued };
}

describe('one Ctrl-C', () => {
  test("after some iterations, with calls in flight: outputs agree with the store; --resume (after one killed outright) gives the results of a clean run, and metrics.json's gateway block the calls of every process that kept its count", async ({ dir }) => {
    const problems = await writeProblems(dir, smallProblems(3));
    const requestLog = path.join(dir, 'requests.jsonl');
    // The simulator in this process, as tmas sim-server starts one: what is stopped is the run.
    const sim = await startSimServer({ problems: await loadProblems(problems), roles: SIM_ROLES, latency: { medianMs: 50, p99Ms: 50 }, requestLog });
    try {
      const common = ['--input-file', problems, '--base-url', sim.url, '--no-proof', '--n-candidates', '3', '--n-verifications', '2', '--max-iterations', '2', '--concurrency', '8'];
      const run = path.join(dir, 'run');
      // The roles of the requests the simulator logged so far (whole lines only).
      const requests = requestLogReader<{ role: string }>(requestLog);
      const loggedRoles = async () => (await requests()).map(({ role }) => role);
      const live = startCli(['run', ...common, '--output-file', run]);
      // Iteration 1's solutions are asked for once a problem finished iteration 0.
      await until(async () => (await loggedRoles()).filter((role) => role === 'solution').length > 3 * 3 + 1, live.child);
      live.child.kill('SIGINT');
      expect(await live.exited).toBe(130);
      expect(live.stderr()).not.toMatch(/took over|internal error/);
      expect(await expectOutputsOfStore(run)).toBeGreaterThan(0);
      const first = await gatewayOf(run);

      // A resume killed outright once it has sent a few calls: it writes nothing, its count included.
      const sentBefore = (await loggedRoles()).length;
      const killed = startCli(['run', '--resume', run]);
      await until(async () => (await loggedRoles()).length > sentBefore + 5, killed.child);
      killed.child.kill('SIGKILL');
      await killed.exited;

      const resumed = await runCliInProcess(['run', '--resume', run]);
      expect(resumed.code, resumed.stderr).toBe(0);
      // The calls answered over the run: the first process's and the last's, each answered once; the killed one's stretch of the log is named.
      const last = await gatewayOf(run);
      expect(last.answered).toBe(first.answered + last.issued);
      expect(last.gateway.latency.firstTokenMs.count).toBe(first.gateway.latency.firstTokenMs.count + last.issued);
      expect(last.gateway.processes).toEqual({ counted: 2, uncounted: 1 });
      expect(first.gateway.processes).toBeUndefined();
      // The clean reference, in this process: what needs a process is the run that is stopped.
      await runInProcess([...common, '--output-file', path.join(dir, 'clean')]);
      expect(await readFile(path.join(run, 'results.jsonl'), 'utf8')).toBe(await readFile(path.join(dir, 'clean', 'results.jsonl'), 'utf8'));
    } finally {
      await sim.close();
    }
  });

  // Written for a stop the start-up did not see (2c63fb2): the run waited on its endpoints' check, and a Ctrl-C then went
  // unseen until the 5 s deadline ended the process with nothing written. The check is held here until the stop, so the
  // Ctrl-C lands in it every time: a SIGINT sent on a line of stderr most often came after it, where the drain saw it anyway.
  test('while the run starts: a Ctrl-C during the endpoint check stops it at once, nothing written, and it runs again to the end', async ({ dir }) => {
    const problems = await writeProblems(dir, smallProblems(2));
    const sim = await startSimServer({ problems: await loadProblems(problems), roles: SIM_ROLES, latency: { medianMs: 5, p99Ms: 5 } });
    let checking = false;
    // Holds the start-up's GET /v1/models unanswered (its switch is never set): the run is in its endpoint check; close drops it.
    const proxy = await startSwitchableProxy(sim.url, (url) => url.endsWith('/models') && (checking = true));
    try {
      const run = path.join(dir, 'run');
      const args = ['run', '--input-file', problems, '--output-file', run, '--base-url', proxy.url, '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '2'];
      const live = startCli(args);
      await until(() => checking, live.child);
      const stoppedAt = performance.now();
      live.child.kill('SIGINT');
      expect(await live.exited).toBe(130);
      // At once, not after the deadline (5 s without progress), which ends the process with "took over".
      expect(performance.now() - stoppedAt).toBeLessThan(4_000);
      expect(live.stderr()).not.toMatch(/took over|internal error/);
      expect(live.stderr()).toMatch(/nothing was written.*\[TMAS_INTERRUPTED\]/);
      expect(existsSync(path.join(run, 'store'))).toBe(false);
      // The same command again, straight at the model: the proxy only held the check.
      const again = await runCliInProcess(args.map((arg) => (arg === proxy.url ? sim.url : arg)));
      expect(again.code, again.stderr).toBe(0);
      expect((await readFile(path.join(run, 'results.jsonl'), 'utf8')).trim().split('\n')).toHaveLength(2 * 2);
    } finally {
      await proxy.close();
      await sim.close();
    }
  });
});

describe("a stop's deadline", () => {
  test('a stop that goes on making progress (a long log read back, outputs written) runs past the deadline; one that makes none is ended', async () => {
    const { createStopDeadline } = await import('../../src/cli/common/signals.ts');
    const deadlineMs = 1_000;
    let ended = 0;
    const deadline = createStopDeadline(deadlineMs, () => ended++);
    deadline.start();
    // Progress every 20 ms for two and a half deadlines: a deadline counted from the start would end it.
    for (const stopAt = performance.now() + 2.5 * deadlineMs; performance.now() < stopAt; ) {
      deadline.progressed();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(ended).toBe(0);
    // Then no progress: it is ended, once.
    for (let waited = 0; ended === 0 && waited < 20; waited++) await new Promise((resolve) => setTimeout(resolve, deadlineMs / 2));
    expect(ended).toBe(1);
    // A stop that is over (its run disposed of it) is never ended, however long nothing happens after.
    let cancelledEnded = 0;
    const over = createStopDeadline(deadlineMs / 5, () => cancelledEnded++);
    over.start();
    over.cancel();
    await new Promise((resolve) => setTimeout(resolve, deadlineMs / 2));
    expect(cancelledEnded).toBe(0);
  });
});

describe("a drain's deadline", () => {
  test('a drain in which no call in flight finishes for the idle limit and the deadline aborts them, as a second Ctrl-C would, rather than wait on a stuck server', async () => {
    const { interruptOnSignals, STOP_DEADLINE_MS } = await import('../../src/cli/common/signals.ts');
    const before = new Set(process.listeners('SIGINT'));
    const said: string[] = [];
    const stop = interruptOnSignals({ stderr: (line) => said.push(line) });
    // One run with a call in flight that never ends, whose gateway would give it up only after a day.
    stop.drain.watch({ inFlight: () => 1, idleLimitMs: 0 });
    const handler = process.listeners('SIGINT').find((listener) => !before.has(listener)) as (signal: NodeJS.Signals) => void;
    try {
      handler('SIGINT');
      await new Promise((resolve) => setImmediate(resolve));
      expect(said.join('\n')).toMatch(/the 1 call in flight finishes and is journaled.*Press Ctrl-C again to abort it: it is sent again on resume/);
      expect(stop.signal.aborted).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, STOP_DEADLINE_MS + 500));
      expect(stop.signal.aborted).toBe(true);
      expect(said.at(-1)).toMatch(/no call in flight finished or streamed for a while: aborting the 1 call still in flight \(sent again on resume\)/);
    } finally {
      // Disposed before the deadline, started again by the abort, could end this process.
      stop.dispose();
    }
  });
});

describe('two runs in one process (a script that runs both)', () => {
  test("a signal stops only the run going on: the first run's stop came off the process when it ended, and its deadline cannot end the process", async () => {
    const { interruptOnSignals } = await import('../../src/cli/common/signals.ts');
    const before = new Set(process.listeners('SIGINT'));
    const said: string[] = [];
    const io = { stderr: (line: string) => said.push(line) };
    const first = interruptOnSignals(io);
    first.dispose();
    const second = interruptOnSignals(io);
    const handlers = process.listeners('SIGINT').filter((listener) => !before.has(listener));
    try {
      // Only the second run's handler is on the process; it is what Ctrl-C reaches.
      expect(handlers).toHaveLength(1);
      (handlers[0] as (signal: NodeJS.Signals) => void)('SIGINT');
      // The first Ctrl-C drains the run; what it says comes once the calls the gateway held have left.
      expect([first.drain.signal.aborted, second.drain.signal.aborted]).toEqual([false, true]);
      await new Promise((resolve) => setImmediate(resolve));
      expect(said.filter((line) => line.includes('stopping'))).toHaveLength(1);
      (handlers[0] as (signal: NodeJS.Signals) => void)('SIGTERM');
      expect([first.signal.aborted, second.signal.aborted]).toEqual([false, true]);
    } finally {
      // The second stop ends here; its deadline, started by the signal, is cancelled with it (were it not, it would exit this process).
      second.dispose();
    }
    expect(process.listeners('SIGINT').filter((listener) => !before.has(listener))).toHaveLength(0);
    expect(process.listeners('SIGTERM').filter((listener) => listener === handlers[0])).toHaveLength(0);
  });
});

describe('one writer per run directory', () => {
  test('with store/LOCK deleted under a live run, a second --resume is refused naming the live pid; the lock goes when the run ends', async ({ dir }) => {
    const problems = await writeProblems(dir, smallProblems(4));
    const run = path.join(dir, 'run');
    // 20 iterations of 200 ms calls: the live run outlasts the second command's start on a loaded machine (at 3 iterations it had ended first).
    const live = startCli(['run', '--input-file', problems, '--output-file', run, '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '20', '--sim-latency-ms', '200']);
    try {
      await until(() => existsSync(path.join(run, 'store', 'LOCK')), live.child);
      await rm(path.join(run, 'store', 'LOCK'));
      const second = await runCli(['run', '--resume', run]);
      expect(second.code, second.stderr).toBe(2);
      expect(second.stderr).toContain('[TMAS_LOCKED]');
      expect(second.stderr).toContain(`pid ${live.child.pid}`);
      expect(second.stderr).not.toMatch(/\n\s+at /);
    } finally {
      live.child.kill('SIGINT');
      await live.exited;
    }
    expect(existsSync(path.join(run, 'tmas.lock'))).toBe(false);
  });
});

describe('private copies of a store', () => {
  test('tmas replay stopped by SIGINT removes its copy; killed with SIGKILL, the next command removes it', async ({ dir }) => {
    const problems = await writeProblems(dir, smallProblems(2));
    const run = path.join(dir, 'run');
    await runInProcess(['--input-file', problems, '--output-file', run, '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '2']);
    // A temporary folder of this test's own: copies of every tmas run on the machine go to the system's.
    const tmp = path.join(dir, 'tmp');
    await mkdir(tmp);
    const copies = async () => (await readdir(tmp, { recursive: true })).filter((name) => path.basename(name) === 'CURRENT');
    for (const signal of ['SIGINT', 'SIGKILL'] as const) {
      const replay = startCli(['replay', run], { TMPDIR: tmp });
      await until(async () => (await copies()).length > 0, replay.child);
      replay.child.kill(signal);
      await replay.exited;
      if (signal === 'SIGINT') expect(await copies()).toEqual([]);
    }
    expect(await copies()).toHaveLength(1);
    const log = await runCli(['log', run], { env: { TMPDIR: tmp } });
    expect(log.code, log.stderr).toBe(0);
    expect(await copies()).toEqual([]);
  });
});
