import { execFileSync, spawn } from 'node:child_process';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parquetReadObjects } from 'hyparquet';
import { describe, expect } from 'vitest';
import { iterationKey, Store } from '../../../src/store/store.ts';
import { readRunManifest } from '../../../src/host/run/run-manifest.ts';
import { loadProblems } from '../../../src/input/problems.ts';
import { startSimServer } from '../../../src/sim/server.ts';
import { SIM_ROLES } from '../../../machines/strategies/sim-roles.ts';
import { BIN, REPO, runCli, runCliInProcess, runInProcess, smallProblems, test, writeProblems } from '../../fixtures.ts';
import { mountSmallDisk, NO_TMPFS } from './tmpfs.ts';
import { requestLogReader } from './request-log.ts';

interface LoggedRequest {
  at: number;
  role: string | null;
  seed: number | null;
  status: number | null;
}

/** Runs `tmas` and SIGKILLs it once `when` holds for the request log; resolves when it is dead. */
async function runUntilKilled(args: string[], requests: () => Promise<readonly LoggedRequest[]>, when: (log: readonly LoggedRequest[]) => boolean): Promise<void> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO, stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (;;) {
    if (child.exitCode !== null) throw new Error('the run finished before the kill point');
    if (when(await requests())) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  child.kill('SIGKILL');
  await exited;
}

/** The journal's call seeds (each names one call) and every stored bank, read back from a run's store. */
async function storeContents(runDir: string) {
  const store = await Store.open(runDir);
  try {
    const seeds: number[] = [];
    for await (const call of store.callRecords()) seeds.push(call.request.seed);
    const banks: Array<[string, unknown]> = [];
    for await (const record of store.iterationRecords()) {
      const key = iterationKey(record.ordinal, record.iteration);
      banks.push([key, await store.getBanks(record.ordinal, record.iteration)]);
    }
    return { seeds, banks };
  } finally {
    await store.close();
  }
}

const count = (role: string) => (log: readonly LoggedRequest[]) => log.filter((r) => r.role === role).length;

describe('durable runs', () => {
  test('SIGKILL during solutions, verifications and a bank update, resumed each time, gives the results and banks of an uninterrupted run and re-issues no completed call', async ({ dir }) => {
    // 4 problems: 16 solutions and 32 verifications an iteration, past each kill point below.
    const problems = await writeProblems(dir, smallProblems(4));
    const requestLog = path.join(dir, 'requests.jsonl');
    // The simulator in this process, as tmas sim-server starts one: what is killed is the run.
    const sim = await startSimServer({ problems: await loadProblems(problems), roles: SIM_ROLES, latency: { medianMs: 40, p99Ms: 200 }, requestLog });
    try {
      const common = ['--input-file', problems, '--base-url', sim.url, '--no-proof', '--n-candidates', '4', '--n-verifications', '2', '--max-iterations', '2', '--concurrency', '6', '--seed', '3'];
      // The reference, uninterrupted: in this process (the kills below are what needs a process of its own).
      await runInProcess([...common, '--output-file', path.join(dir, 'clean')]);
      const requests = requestLogReader<LoggedRequest>(requestLog);
      const cleanRequests = (await requests()).length;

      const run = path.join(dir, 'killed');
      const resume = ['run', '--resume', run];
      const afterClean = (log: readonly LoggedRequest[]) => log.slice(cleanRequests);
      // 1: while the first solutions are being written.
      await runUntilKilled(['run', ...common, '--output-file', run], requests, (log) => count('solution')(afterClean(log)) >= 10);
      // 2: while verifications run.
      let mark = (await requests()).length;
      await runUntilKilled(resume, requests, (log) => count('verification')(log.slice(mark)) >= 20);
      // 3: while the experience and guideline agents evolve the banks.
      mark = (await requests()).length;
      await runUntilKilled(resume, requests, (log) => count('experience')(log.slice(mark)) >= 3);
      const journaledBeforeLastResume = new Set((await storeContents(run)).seeds);
      mark = (await requests()).length;
      const finished = await runCliInProcess(resume);
      expect(finished.code, finished.stderr).toBe(0);
      expect(finished.stdout).toMatch(/answered from the journal/);

      expect(await readFile(path.join(run, 'results.jsonl'), 'utf8')).toBe(await readFile(path.join(dir, 'clean', 'results.jsonl'), 'utf8'));
      // The resumed runs logged the replies of each cut iteration again: the metrics count each once.
      const counted = async (runDir: string) => {
        const metrics = JSON.parse(await readFile(path.join(runDir, 'metrics.json'), 'utf8')) as { iterations: Array<Record<string, unknown>> };
        return metrics.iterations.map(({ iteration, calls, tokens, outputsByRole, pass1 }) => ({ iteration, calls, tokens, outputsByRole, pass1 }));
      };
      expect(await counted(run)).toEqual(await counted(path.join(dir, 'clean')));
      const [cleanStore, killedStore] = [await storeContents(path.join(dir, 'clean')), await storeContents(run)];
      expect(killedStore.banks).toEqual(cleanStore.banks);
      expect(killedStore.seeds.sort()).toEqual(cleanStore.seeds.sort());
      // No call that was journaled before the last resume went to the server again.
      const reissued = (await requests()).slice(mark).filter((r) => r.seed !== null && journaledBeforeLastResume.has(r.seed));
      expect(reissued).toEqual([]);
    } finally {
      await sim.close();
    }
  });

  test('SIGINT stops cleanly with a resume hint, and the resumed run completes', async ({ dir }) => {
    // Two problems whose calls take 200 ms: over 3 s of calls at --concurrency 4, still running at the first progress line (2 s).
    const problems = await writeProblems(dir, smallProblems(2));
    const run = path.join(dir, 'run');
    const child = spawn(process.execPath, [BIN, 'run', '--input-file', problems, '--output-file', run, '--no-proof', '--n-candidates', '4', '--n-verifications', '2', '--max-iterations', '2', '--concurrency', '4', '--sim-latency-ms', '200'], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    while (!stderr.includes('problem-iterations') && child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 50));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toContain(`tmas run --resume ${run}`);
    // A replay of the stopped run says so: what lies past the stop is not in its log, and its calls were never made.
    const replayed = await runCliInProcess(['replay', run]);
    expect(replayed.stdout).toMatch(/^the run stopped before its end \(\d problems? not completed in its log\)/);
    if (/calls had no answer/.test(replayed.stdout)) expect(replayed.stdout).toMatch(/\(they changed, or the run stopped before it made them; use --live/);
    // The resume needs no latency (only the stop does): at 200 ms a call it was most of the test.
    const resumed = await runCliInProcess(['run', '--resume', run, '--sim-latency-ms', '0']);
    expect(resumed.code, resumed.stderr).toBe(0);
    const lines = (await readFile(path.join(run, 'results.jsonl'), 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(2 * 2);
  });

  test('a resume that changes what the calls would be is refused with the differences, and accepted with --force', async ({ dir }) => {
    const problems = await writeProblems(dir, smallProblems(2));
    const run = path.join(dir, 'run');
    await runInProcess(['--input-file', problems, '--output-file', run, '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1']);
    const refused = await runCliInProcess(['run', '--resume', run, '--max-iterations', '2', '--seed', '9', '--n-candidates', '3']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--n-candidates: the run has 2, this command gives 3/);
    expect(refused.stderr).toMatch(/--seed: the run has 0, this command gives 9/);
    const extended = await runCliInProcess(['run', '--resume', run, '--max-iterations', '2']);
    expect(extended.code, extended.stderr).toBe(0);
    expect((await readFile(path.join(run, 'results.jsonl'), 'utf8')).trim().split('\n')).toHaveLength(2 * 2);
    const forced = await runCliInProcess(['run', '--resume', run, '--max-iterations', '3', '--seed', '9', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    const lines = (await readFile(path.join(run, 'results.jsonl'), 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(2 * 3);
  });

  test('every endpoint slot is checked on resume: a changed --judge-model-name is refused, and applied with --force', async ({ dir }) => {
    const problems = await writeProblems(dir, smallProblems(1));
    const run = path.join(dir, 'run');
    const first = ['--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1', '--judge-passes', '1'];
    await runInProcess(['--input-file', problems, '--output-file', run, ...first]);
    const refused = await runCliInProcess(['run', '--resume', run, '--max-iterations', '2', '--judge-model-name', 'strict-judge']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--judge-model-name: the run has "tmas-sim", this command gives "strict-judge"/);
    const forced = await runCliInProcess(['run', '--resume', run, '--max-iterations', '2', '--judge-model-name', 'strict-judge', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    const store = await Store.open(run);
    try {
      const manifest = await readRunManifest(store);
      expect(manifest?.config.roles.endpoints.judge.model).toBe('strict-judge');
      expect(manifest?.config.roles.endpoints.solution.model).toBe('tmas-sim');
      const models = new Map<string, Set<string>>();
      for await (const call of store.callRecords()) {
        const key = `${call.role} ${call.iteration}`;
        models.set(key, new Set([...(models.get(key) ?? []), call.request.model]));
      }
      expect(models.get('judge 0')).toEqual(new Set(['tmas-sim']));
      expect(models.get('judge 1')).toEqual(new Set(['strict-judge']));
      expect(models.get('solution 1')).toEqual(new Set(['tmas-sim']));
    } finally {
      await store.close();
    }
  });

  test("a strategy's own flag is kept by the run and checked on resume; another strategy's flag is refused", async ({ dir }) => {
    const problems = await writeProblems(dir, smallProblems(1));
    const run = path.join(dir, 'run');
    const wrong = await runCliInProcess(['run', '--input-file', problems, '--output-file', run, '--samples', '4']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/--samples belongs to the majority strategy; this run uses --strategy tmas/);
    expect((await runCliInProcess(['run', '--input-file', problems, '--output-file', run, '--no-proof', '--strategy', 'majority', '--samples', '4', '--max-iterations', '2'])).code).toBe(0);
    const refused = await runCliInProcess(['run', '--resume', run, '--max-iterations', '3', '--samples', '6']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--samples: the run has 4, this command gives 6/);
    const extended = await runCliInProcess(['run', '--resume', run, '--max-iterations', '3', '--samples', '4']);
    expect(extended.code, extended.stderr).toBe(0);
    const lines = (await readFile(path.join(run, 'results.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { iteration: number; candidates: unknown[] });
    // Iteration t of MV@k holds the first max(1, floor(k(t+1)/T)) of the k = 4 samples: 1, 2 and 4 for T = 3.
    expect(lines.map((line) => line.candidates.length)).toEqual([1, 2, 4]);
  });

  test('a second process on the same run directory gets a clear lock error', async ({ dir }) => {
    const problems = await writeProblems(dir, smallProblems(1));
    const run = path.join(dir, 'run');
    await runInProcess(['--input-file', problems, '--output-file', run, '--no-proof', '--n-candidates', '1', '--n-verifications', '1', '--max-iterations', '1']);
    const holder = await Store.open(run);
    try {
      const second = await runCli(['run', '--resume', run]);
      expect(second.code).toBe(2);
      expect(second.stderr).toMatch(/in use by another tmas process/);
      expect(second.stderr).not.toMatch(/\n\s+at /);
    } finally {
      await holder.close();
    }
  });

  test('a run written by another journal version is refused on resume and replay, since its journal keys would not match', async ({ dir }) => {
    const problems = await writeProblems(dir, smallProblems(1));
    const run = path.join(dir, 'run');
    await runInProcess(['--input-file', problems, '--output-file', run, '--no-proof', '--n-candidates', '1', '--n-verifications', '1', '--max-iterations', '1']);
    const store = await Store.open(run);
    // As a tmas of journal version 1 wrote it: the version stored under its former name.
    const manifest: Record<string, unknown> = { ...(await store.getManifest()) };
    delete manifest.journalVersion;
    await store.manifest().put('manifest', { ...manifest, protocolVersion: 1, tmasVersion: '0.0.1' });
    await store.close();
    for (const args of [['run', '--resume', run, '--max-iterations', '2'], ['replay', run]]) {
      const refused = await runCliInProcess(args);
      expect(refused.code, args.join(' ')).toBe(2);
      expect(refused.stderr).toMatch(/written by tmas 0\.0\.1 \(journal version 1\).*cannot reuse its journal/);
      // How to get the tmas that wrote it: the package version is not bumped with the journal version, which was PROTOCOL_VERSION up to 6.
      expect(refused.stderr).toContain(`with a tmas of journal version 1: in a git clone of tmas, the commit before journal version 2, git checkout "$(git log --format=%h -S 'PROTOCOL_VERSION = 2'`);
      expect(refused.stderr).toContain(run);
    }
    expect((await readFile(path.join(run, 'results.jsonl'), 'utf8')).trim().split('\n')).toHaveLength(1);
  });

  test('log filters, show, and an RL export whose records carry the banks of the iteration before', async ({ dir }) => {
    const problems = await writeProblems(dir, smallProblems(2));
    const run = path.join(dir, 'run');
    await runInProcess(['--input-file', problems, '--output-file', run, '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '2']);

    const log = await runCliInProcess(['log', run, '--problem', 'p2', '--iteration', '1', '--type', 'bank.']);
    const envelopes = log.stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(envelopes).toHaveLength(1);
    expect(envelopes[0].message).toMatchObject({ type: 'bank.updated', problem: 'p2', iteration: 1 });
    const roles = (await runCliInProcess(['log', run, '--role', 'verification'])).stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(roles.length).toBe(2 * 2 * 2 * 2); // requests and replies: 2 problems × 2 iterations × N=2 × M=1
    expect(new Set(roles.map((e) => e.message.type))).toEqual(new Set(['verification.requested', 'verification.completed']));

    const show = await runCliInProcess(['show', run, '--problem', 'p1', '--iteration', '0']);
    expect(show.code).toBe(0);
    expect(show.stdout).toMatch(/problem p1, iteration 0/);
    expect(show.stdout).toMatch(/experience bank \(\d+ records\)/);

    const out = path.join(dir, 'rl');
    const exported = await runCliInProcess(['export', run, '--format', 'rl', '--out', out]);
    expect(exported.code, exported.stderr).toBe(0);
    const records = (await readFile(`${out}.jsonl`, 'utf8')).trim().split('\n').map((line) => JSON.parse(line));
    // One record per generation; the solutions are 2 problems × 2 iterations × N=2.
    const solutions = records.filter((r) => r.extra_info.role === 'solution');
    expect(solutions).toHaveLength(2 * 2 * 2);
    const store = await Store.open(run);
    try {
      let journaled = 0;
      for await (const _ of store.calls().keys()) journaled++;
      expect(records).toHaveLength(journaled);
      for (const record of solutions) {
        const { problem_id, iteration } = record.extra_info;
        const ordinal = problem_id === 'p1' ? 0 : 1;
        const before = iteration > 0 ? await store.getBanks(ordinal, iteration - 1) : undefined;
        // The exploit prompt draws on E(t-1), the explore prompt on G(t-1), the first iteration's on neither.
        expect(record.extra_info.experience_bank).toEqual(record._source === 'solution:experience' ? (before?.experience ?? []).map((r) => ({ kind: r.kind, text: r.text })) : []);
        expect(record.extra_info.guideline_bank).toEqual(record._source === 'solution:guideline' ? (before?.guidelines ?? []).map((r) => ({ strategy: r.strategy, outcome: r.outcome })) : []);
        expect(record.reward_model.ground_truth).toBe(problem_id === 'p1' ? '6' : '12');
        expect(record.data_source).toBe('math');
        expect(['solution:normal', 'solution:experience', 'solution:guideline']).toContain(record._source);
        expect(record.prompt[0].role).toBe('system');
      }
      expect(solutions.some((r) => r.extra_info.iteration === 1 && r.extra_info.experience_bank.length > 0)).toBe(true);
    } finally {
      await store.close();
    }
    const buffer = await readFile(`${out}.parquet`);
    const rows = await parquetReadObjects({ file: buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength) });
    expect(rows).toHaveLength(records.length);
    expect(rows[0]?.extra_info).toEqual(records[0].extra_info);
  });

  test('replay reports "identical" for an unchanged run and points at the first changed message after a Jaccard threshold change (0: every new record that has a kept one to compare with is dropped)', async ({ dir }) => {
    const problems = await writeProblems(dir, smallProblems(2));
    const run = path.join(dir, 'run');
    await runInProcess(['--input-file', problems, '--output-file', run, '--no-proof', '--n-candidates', '3', '--n-verifications', '2', '--max-iterations', '2', '--concurrency', '16']);
    const same = await runCliInProcess(['replay', run]);
    expect(same.code, same.stderr).toBe(0);
    expect(same.stdout).toMatch(/^identical: \d+ messages/);

    const changed = await runCliInProcess(['replay', run, '--jaccard-threshold', '0']);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toMatch(/^diverges at bank\.updated p\d\/0\/bank\/0/);
    expect(changed.stdout).toMatch(/logged: +\{"type":"bank\.updated"/);
    expect(changed.stdout).toMatch(/replayed: \{"type":"bank\.updated"/);
    expect(changed.stdout).toMatch(/\d+ calls had no answer in the journal \(they changed; use --live to send them\)/);
    expect(changed.stdout).not.toMatch(/the run stopped/);
  });
});

/** Runs tmas under a file size limit of `kilobytes` (bash's ulimit -f), as a job scheduler may set one. */
function runCliLimited(args: string[], kilobytes: number): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `ulimit -f ${kilobytes} && exec "$0" "$@"`, process.execPath, BIN, ...args], { cwd: REPO, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('a disk that fills during the run', () => {
  // Before: "free some space (or fix the mount)", on a disk with room to spare: the limit was the process's.
  test('a file size limit that stops the run: the error says it is the limit, not the disk, and the resume without it completes from the journal', async ({ dir }) => {
    const problems = await writeProblems(dir, smallProblems(4));
    const run = path.join(dir, 'run');
    const stopped = await runCliLimited(['run', '--input-file', problems, '--output-file', run, '--no-proof', '--n-candidates', '3', '--n-verifications', '2', '--max-iterations', '2'], 200);
    expect(stopped.code, stopped.stderr).toBe(2);
    expect(stopped.stderr).toMatch(/Cannot write to the run's store in .*File too large/);
    expect(stopped.stderr).toContain(`the file size limit of this process stopped it (ulimit -f: raise it, or run where no such limit applies), then continue with: tmas run --resume ${run} [TMAS_STORE_WRITE]`);
    expect(stopped.stderr).not.toMatch(/free some space|\n\s+at /);
    const resumed = await runCliInProcess(['run', '--resume', run]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/[1-9]\d* answered from the journal/);
    // A command that reads the run copies its write-ahead log to a private view under TMPDIR: past the limit, it says so.
    const refused = await runCliLimited(['log', run], 4);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toMatch(/Cannot read the store of .*: EFBIG.* tmas reads a run through a private copy of its small files in .*: the file size limit of this process stopped it .*; or set TMPDIR/);
  });

  // Before: "EFBIG: file too large, write; give --out a path in a folder that exists and is writable", and a run's
  // metrics.json was told to "free some space": the limit was the process's, and the folder was fine.
  test('a file size limit met writing report.html: the error names the limit, not the disk or the folder, and no part of the file is left', async ({ dir }) => {
    const run = path.join(dir, 'run');
    // Two problems, one call of each role: a store of some 50 kB, a report of some 600 kB (its charts' script).
    await runInProcess(['--input-file', await writeProblems(dir, smallProblems(2)), '--output-file', run, '--no-proof', '--n-candidates', '1', '--n-verifications', '1', '--max-iterations', '1']);
    const out = path.join(dir, 'report.html');
    const refused = await runCliLimited(['report', run, '--out', out], 300);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain(`Cannot write ${out}: the file size limit of this process stopped it (EFBIG, ulimit -f), not the disk: raise the limit, or run where no such limit applies, then give the command again. [TMAS_OUTPUT]`);
    expect(refused.stderr).not.toMatch(/free some space|writable|\n\s+at /);
    expect(await readdir(dir)).not.toContainEqual(expect.stringMatching(/^report\.html/));
  });

  test('stops cleanly with a message, and the run resumes to the same results once space is freed', async ({ dir, skip }) => {
    const disk = path.join(dir, 'disk');
    await mkdir(disk);
    if (!mountSmallDisk(disk, '1200k')) skip(NO_TMPFS);
    try {
      // 6 problems: a store of about 1.9 MB, so the 1200k disk fills some way into the run.
      const problems = await writeProblems(dir, smallProblems(6));
      const args = ['--input-file', problems, '--no-proof', '--n-candidates', '4', '--n-verifications', '2', '--max-iterations', '3'];
      const run = path.join(disk, 'run');
      const full = await runCli(['run', ...args, '--output-file', run]);
      expect(full.code).toBe(2);
      expect(full.stderr).toMatch(/Cannot write to the run's store in .*No space left on device/);
      expect(full.stderr).toContain(`tmas run --resume ${run}`);
      expect(full.stderr).not.toMatch(/\n\s+at /);

      // A resume before space is freed: the store cannot even be opened (LevelDB writes its log into a table), which is no damage to repair.
      const early = await runCliInProcess(['run', '--resume', run]);
      expect(early.code).toBe(2);
      expect(early.stderr).toContain('[TMAS_STORE_WRITE]');
      expect(early.stderr).toContain(`no space is left on the disk of ${path.join(run, 'store')}`);
      expect(early.stderr).toContain(`then continue with: tmas run --resume ${run}`);
      expect(early.stderr).not.toContain('tmas repair');

      execFileSync('mount', ['-o', 'remount,size=256m', disk]);
      const resumed = await runCliInProcess(['run', '--resume', run]);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stdout).toMatch(/[1-9]\d* answered from the journal/);
      await runInProcess([...args, '--output-file', path.join(dir, 'clean')]);
      expect(await readFile(path.join(run, 'results.jsonl'), 'utf8')).toBe(await readFile(path.join(dir, 'clean', 'results.jsonl'), 'utf8'));
    } finally {
      try {
        execFileSync('umount', [disk], { stdio: 'ignore' });
      } catch {
        // not mounted: the test was skipped
      }
    }
  });
});
