/**
 * `tmas fork DIR --output-file NEW`: an ablation of a finished run. A small
 * run on the simulated model (2 problems, 2 iterations, N=4, M=2) is forked
 * with a stricter Summary prompt from an agents module outside the
 * repository: the calls of iteration 0 that the prompt does not reach are
 * answered from DIR's journal, the summaries are paid for, and the fork is a
 * run like any other (resume, replay, report). DIR is read-only and never
 * changes.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFile, chmod, cp, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect } from 'vitest';
import { fileHashes, runCli, runCliInProcess, runInProcess, smallProblems, startCli, test, until, writeProblems } from '../fixtures.ts';
import { hasStore } from '../../src/store/repair/check.ts';
import { openRun } from '../../src/analysis/open-run.ts';
import type { CallRecord } from '../../src/store/store.ts';

const SIZES = ['--no-proof', '--n-candidates', '4', '--n-verifications', '2', '--max-iterations', '2', '--judge-passes', '0', '--sim-output-tokens', '60', '--concurrency', '32'];

/** A Summary agent told to be stricter: only its system prompt changes; it imports tmas as a user's module does. */
const STRICTER_SUMMARY = `
import { defineAgents, summaryRole } from 'tmas';
export default defineAgents({
  summary: {
    prompt: (request, options) => {
      const spec = summaryRole.prompt(request, options);
      return { ...spec, system: spec.system + ' Be strict: a step given without justification is a flaw.' };
    },
  },
});
`;

/**
 * A model's tokenizer as --tokenizer-path reads it, written for this file: one token a word. What is kept by digest is
 * the same for any tokenizer, and a real one (Qwen3's 11 MB) costs its load in every run's pool (tokenizer-path.test.ts counts with those).
 */
const WORD_TOKENIZER = {
  'tokenizer.json': JSON.stringify({ version: '1.0', added_tokens: [], normalizer: null, pre_tokenizer: { type: 'WhitespaceSplit' }, post_processor: null, decoder: null, model: { type: 'WordLevel', vocab: { '[UNK]': 0, the: 1, answer: 2 }, unk_token: '[UNK]' } }),
  'tokenizer_config.json': '{}',
};

/** The user a read-only directory stops when we are root (as root a mode bit stops nothing). */
const NOBODY = { uid: 65534, gid: 65534 };

/** Makes every file and folder under `dir` read-only (or writable again). */
async function setReadOnly(dir: string, readOnly: boolean): Promise<void> {
  for (const entry of [dir, ...(await readdir(dir, { recursive: true })).map((name) => path.join(dir, name))]) {
    const folder = (await stat(entry)).isDirectory();
    await chmod(entry, readOnly ? (folder ? 0o555 : 0o444) : folder ? 0o755 : 0o644);
  }
}

/** The numbers of the fork's last line: "N calls answered from the journal of DIR, M issued." */
function forkCounts(stdout: string, from: string): { answered: number; issued: number } {
  const match = new RegExp(`^(\\d+) calls answered from the journal of ${from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, (\\d+) issued\\.$`, 'm').exec(stdout);
  if (!match) throw new Error(`no fork counts in:\n${stdout}`);
  return { answered: Number(match[1]), issued: Number(match[2]) };
}

/** A run's manifest and journal, read through a private view (opening the store itself would write to it). */
async function readRun(run: string): Promise<{ forkedFrom: unknown; calls: CallRecord[] }> {
  const { store, manifest } = await openRun(run);
  try {
    const calls: CallRecord[] = [];
    for await (const call of store.callRecords()) calls.push(call);
    return { forkedFrom: manifest.forkedFrom, calls };
  } finally {
    await store.close();
  }
}

/** Problems of the run forked: each one's calls are its own, so two show what any number would. */
const PROBLEMS = 2;
/** The calls of one problem's iteration: N=4 solutions, 4 x M=2 verifications, 4 summaries, the experience and guideline agents. */
const CALLS_PER_ITERATION = 18;

/** One finished run for the file, made once: each test forks it (and copies it where it changes it). */
let source = '';
let sourceDir = '';

beforeAll(async () => {
  const { mkdtemp } = await import('node:fs/promises');
  const os = await import('node:os');
  sourceDir = await mkdtemp(path.join(os.tmpdir(), 'tmas-fork-'));
  await chmod(sourceDir, 0o755);
  const problems = await writeProblems(sourceDir, smallProblems(PROBLEMS));
  source = path.join(sourceDir, 'run');
  await runInProcess(['--input-file', problems, '--output-file', source, ...SIZES]);
  return async () => {
    await setReadOnly(source, false);
    await rm(sourceDir, { recursive: true, force: true });
  };
});

describe('tmas fork', () => {
  test('a stricter Summary agent from a module outside the repository: iteration 0 solutions and verifications come from DIR, summaries are paid; the fork resumes, replays and reports; DIR never changes', async ({ dir }) => {
    // Writable by nobody, who makes the fork in it when we are root.
    await chmod(dir, 0o777);
    const module = path.join(dir, 'stricter-summary.ts');
    await writeFile(module, STRICTER_SUMMARY, { mode: 0o644 });
    const fork = path.join(dir, 'fork');
    await setReadOnly(source, true);
    // As root the fork runs as nobody, whom the read-only modes stop, when nobody can run this checkout.
    const asUser = process.getuid?.() === 0 && (await runCli(['--version'], { ...NOBODY, cwd: dir })).code === 0 ? NOBODY : {};
    const before = await fileHashes(source);
    const forked = await runCli(['fork', source, '--output-file', fork, '--agents', module], { ...asUser, cwd: dir });
    expect(forked.code, forked.stderr).toBe(0);
    expect(await fileHashes(source)).toEqual(before);

    // Every reused call is DIR's record, whole; every other one is new.
    const original = new Map((await readRun(source)).calls.map((call) => [call.key, call]));
    const { calls, forkedFrom } = await readRun(fork);
    const reused = calls.filter((call) => original.has(call.key));
    for (const call of reused) expect(call).toEqual(original.get(call.key));
    const ofIteration0 = (role: string, among: CallRecord[]) => among.filter((call) => call.iteration === 0 && call.role === role).length;
    expect(ofIteration0('solution', reused)).toBe(PROBLEMS * 4);
    expect(ofIteration0('verification', reused)).toBe(PROBLEMS * 4 * 2);
    expect(ofIteration0('summary', calls)).toBe(PROBLEMS * 4);
    expect(ofIteration0('summary', reused)).toBe(0);
    // The new summaries were sent with the stricter prompt.
    expect(calls.find((call) => call.role === 'summary' && !original.has(call.key))?.request.messages[0]?.content).toMatch(/Be strict/);

    // What it said before and after: an estimate it kept, then the counts its journal shows.
    const expected = Number(/expects to answer about (\d+) calls from the journal of/.exec(forked.stdout)?.[1]);
    const counts = forkCounts(forked.stdout, source);
    expect(counts).toEqual({ answered: reused.length, issued: calls.length - reused.length });
    expect(expected).toBeGreaterThanOrEqual(PROBLEMS * 4);
    expect(expected).toBeLessThanOrEqual(counts.answered);
    const metrics = JSON.parse(await readFile(path.join(fork, 'metrics.json'), 'utf8')) as { calls: { issued: number; reused: number; failed: number } };
    expect(metrics.calls).toEqual({ issued: counts.issued, reused: counts.answered, failed: 0 });
    expect(forkedFrom).toEqual({ run: expect.any(String), dir: source, changed: ['--agents'] });
    expect((await readFile(path.join(fork, 'results.jsonl'), 'utf8')).trim().split('\n')).toHaveLength(PROBLEMS * 2);

    // A run like any other: a resume sends nothing, a replay matches its log, a report reads both runs.
    const resumed = await runCli(['run', '--resume', fork], asUser);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/^0 calls issued/m);
    const replayed = await runCli(['replay', fork], asUser);
    expect(replayed.code, replayed.stderr + replayed.stdout).toBe(0);
    expect(replayed.stdout).toMatch(/^identical/m);
    const report = path.join(dir, 'report.html');
    const reported = await runCli(['report', source, fork, '--out', report], asUser);
    expect(reported.code, reported.stderr).toBe(0);
    // The two sides read apart: the fork's settings name its module and what it came from, and so does its metrics.json.
    // The same report as a table, in this process: the one above showed it read as the fork's user.
    const table = await runCliInProcess(['report', source, fork, '--format', 'md']);
    const forkRow = table.stdout.split('\n').find((line) => line.includes(`fork of ${path.basename(source)}: --agents`)) ?? '';
    // By its digest too: two forks of one module edited between them read apart (by name alone they read the same).
    const digest = createHash('sha256').update(await readFile(module)).digest('hex');
    expect(forkRow).toContain(`agents=${path.basename(module)} (sha256:${digest.slice(0, 12)})`);
    expect(table.stdout.split('\n').filter((line) => line.includes('agents='))).toHaveLength(1);
    // The fork is read as its difference from DIR, paired by problem: two tmas runs had no difference column at all.
    const versus = `Pass@1 − ${path.basename(source)}`;
    expect(table.stdout).toContain(`${versus}: each run's difference in points from ${path.basename(source)} at the same iteration, over the problems both graded`);
    const forkSection = table.stdout.slice(table.stdout.indexOf(`## ${path.basename(fork)}`));
    expect(forkSection.split('\n').find((line) => line.startsWith('| iteration |'))).toContain(versus);
    const forkMetrics = JSON.parse(await readFile(path.join(fork, 'metrics.json'), 'utf8')) as { forkedFrom?: unknown; evaluation: { agents: unknown } };
    expect(forkMetrics.forkedFrom).toEqual({ run: expect.any(String), dir: source, changed: ['--agents'] });
    expect(forkMetrics.evaluation.agents).toEqual({ file: path.basename(module), sha256: expect.stringMatching(/^sha256:/) });
    expect(await readFile(report, 'utf8')).toContain('fork');
    expect(await fileHashes(source)).toEqual(before);
    await setReadOnly(source, false);
  });

  test("a fork's resume still reads through to DIR's journal; with DIR gone it says so and sends those calls", async ({ dir }) => {
    // One iteration of the same settings: every call is DIR's; the second iteration comes on the resume.
    const first = path.join(dir, 'first');
    const forked = await runCliInProcess(['fork', source, '--output-file', first, '--max-iterations', '1']);
    expect(forked.code, forked.stderr).toBe(0);
    expect(forkCounts(forked.stdout, source)).toEqual({ answered: PROBLEMS * CALLS_PER_ITERATION, issued: 0 });
    expect((await readRun(first)).forkedFrom).toEqual({ run: expect.any(String), dir: source, changed: ['--max-iterations'] });
    const extended = await runCliInProcess(['run', '--resume', first, '--max-iterations', '2']);
    expect(extended.code, extended.stderr).toBe(0);
    const iteration0 = PROBLEMS * CALLS_PER_ITERATION;
    expect(extended.stdout).toMatch(new RegExp(`^0 calls issued, ${iteration0} answered from the journal`, 'm'));
    expect(extended.stdout).toContain(`${iteration0} of them answered from the journal of ${source}, the run this one was forked from.`);

    // The source moved away: the resume warns and pays for the second iteration.
    const second = path.join(dir, 'second');
    expect((await runCliInProcess(['fork', source, '--output-file', second, '--max-iterations', '1'])).code).toBe(0);
    const moved = path.join(dir, 'moved');
    await mkdir(moved);
    await rename(source, path.join(moved, 'run'));
    try {
      const alone = await runCliInProcess(['run', '--resume', second, '--max-iterations', '2']);
      expect(alone.code, alone.stderr).toBe(0);
      expect(alone.stderr).toContain(`this run was forked from ${source}, which holds no run now`);
      expect(alone.stderr).toContain(`put that run back at ${source}, or beside this one as it was when forked`);
      expect(alone.stdout).toMatch(new RegExp(`^${iteration0} calls issued, 0 answered from the journal`, 'm'));
    } finally {
      await rename(path.join(moved, 'run'), source);
    }

    // A fork moved together with its source (a folder of runs moved elsewhere) reads through to it where it lies now.
    const tree = path.join(dir, 'tree');
    await cp(source, path.join(tree, 'source'), { recursive: true });
    const third = path.join(tree, 'fork');
    expect((await runCliInProcess(['fork', path.join(tree, 'source'), '--output-file', third, '--max-iterations', '1'])).code).toBe(0);
    await rename(tree, path.join(dir, 'elsewhere'));
    const together = await runCliInProcess(['run', '--resume', path.join(dir, 'elsewhere', 'fork'), '--max-iterations', '2']);
    expect(together.code, together.stderr).toBe(0);
    expect(together.stderr).not.toContain('which holds no run now');
    expect(together.stdout).toContain(`${iteration0} of them answered from the journal of ${path.join(dir, 'elsewhere', 'source')}, the run this one was forked from.`);
  });

  test('a fork of a run still being written warns that what the run journals from then on is sent again, and forks what is journaled', async ({ dir }) => {
    // A live process holds DIR's lock, as a run writing it does.
    const writer = spawn('sleep', ['60'], { stdio: 'ignore' });
    const lock = path.join(source, 'tmas.lock');
    await writeFile(lock, JSON.stringify({ pid: writer.pid, host: hostname(), since: new Date().toISOString() }));
    try {
      const forked = await runCliInProcess(['fork', source, '--output-file', path.join(dir, 'fork'), '--max-iterations', '1']);
      expect(forked.code, forked.stderr).toBe(0);
      expect(forked.stderr).toContain(`tmas fork: warning: ${source} is still being written (pid ${writer.pid}). The fork reads its journal as it is now (${PROBLEMS * 2 * CALLS_PER_ITERATION} calls)`);
      expect(forkCounts(forked.stdout, source)).toEqual({ answered: PROBLEMS * CALLS_PER_ITERATION, issued: 0 });
    } finally {
      await rm(lock, { force: true });
      writer.kill();
    }
  });

  // A fork of a live run said "reads its journal as it is now (79 calls)", estimated on a later snapshot and read
  // through a third, taken after the estimate: "162 calls answered from the journal", more than DIR held when it began.
  test('a fork of a live run reads one snapshot of its journal: the calls it says DIR holds bound the estimate and what it answers', async ({ dir }) => {
    const problems = await writeProblems(dir, smallProblems(PROBLEMS));
    const live = path.join(dir, 'live');
    const sizes = SIZES.map((value, at) => (SIZES[at - 1] === '--max-iterations' ? '3' : SIZES[at - 1] === '--concurrency' ? '2' : value));
    const writer = startCli(['run', '--input-file', problems, '--output-file', live, ...sizes, '--sim-latency-ms', '300']);
    try {
      await until(async () => hasStore(live) && (await readRun(live).catch(() => ({ calls: [] }))).calls.length >= CALLS_PER_ITERATION, writer.child);
      const forked = await runCliInProcess(['fork', live, '--output-file', path.join(dir, 'fork'), '--sim-latency-ms', '0']);
      expect(forked.code, forked.stderr).toBe(0);
      const held = Number(/reads its journal as it is now \((\d+) calls\)/.exec(forked.stderr)?.[1]);
      const expected = Number(/expects to answer about (\d+) calls/.exec(forked.stdout)?.[1]);
      const { answered, issued } = forkCounts(forked.stdout, live);
      // DIR went on journaling while the fork ran: a later snapshot would have answered more than it held.
      expect(writer.child.exitCode).toBeNull();
      expect(held).toBeGreaterThanOrEqual(CALLS_PER_ITERATION);
      expect(expected).toBeLessThanOrEqual(held);
      expect(answered).toBeLessThanOrEqual(held);
      expect(answered + issued).toBe(PROBLEMS * 3 * CALLS_PER_ITERATION);
    } finally {
      writer.child.kill('SIGINT');
      await writer.exited;
    }
  });

  test('a module and a tokenizer a fork adds are kept by digest: edited in place, the fork\'s resume refuses them; moved, they are given again at their new place', async ({ dir }) => {
    const module = path.join(dir, 'stricter-summary.ts');
    await writeFile(module, STRICTER_SUMMARY);
    const tokenizer = path.join(dir, 'tokenizer');
    await mkdir(tokenizer);
    for (const [name, text] of Object.entries(WORD_TOKENIZER)) await writeFile(path.join(tokenizer, name), text);
    const fork = path.join(dir, 'fork');
    const forked = await runCliInProcess(['fork', source, '--output-file', fork, '--max-iterations', '1', '--agents', module, '--tokenizer-path', tokenizer]);
    expect(forked.code, forked.stderr).toBe(0);

    // Moved: named at the new place, the same files are no change.
    const moved = path.join(dir, 'moved');
    await mkdir(moved);
    await rename(module, path.join(moved, 'stricter-summary.ts'));
    await rename(tokenizer, path.join(moved, 'tokenizer'));
    const atNewPlace = ['run', '--resume', fork, '--agents', path.join(moved, 'stricter-summary.ts'), '--tokenizer-path', path.join(moved, 'tokenizer')];
    const resumed = await runCliInProcess(atNewPlace);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/^0 calls issued/m);

    // Edited in place: refused before anything is written.
    const before = await fileHashes(fork);
    await appendFile(path.join(moved, 'stricter-summary.ts'), '\n// a later edit\n');
    const edited = await runCliInProcess(['run', '--resume', fork, '--max-iterations', '2']);
    expect(edited.code, edited.stderr).toBe(2);
    expect(edited.stderr).toMatch(/The agents module .* has changed since the run .*\[TMAS_AGENTS\]/);
    await writeFile(path.join(moved, 'stricter-summary.ts'), STRICTER_SUMMARY);
    await appendFile(path.join(moved, 'tokenizer', 'tokenizer_config.json'), ' ');
    const retokenized = await runCliInProcess(['run', '--resume', fork, '--max-iterations', '2']);
    expect(retokenized.code, retokenized.stderr).toBe(2);
    expect(retokenized.stderr).toMatch(/The tokenizer .* is not the one the run .* started with.*\[TMAS_TOKENIZER\]/);
    expect(await fileHashes(fork)).toEqual(before);
  });

  test('its help offers what a fork takes, as a fork takes it: no --resume or --demo, --output-file required, a setting left out keeping DIR\'s value rather than a default', async () => {
    const help = (await runCliInProcess(['fork', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain("A setting left out keeps DIR's value");
    expect(help).toContain("--output-file <dir> the new run's directory (required)");
    expect(help).toContain("--force accept an --agents module or a tokenizer of DIR's that changed in place");
    for (const offered of ['--resume', '--demo', 'runs/<input>-<time>', '(default: 20', '(default: 8', '(default: "tmas")', '(default 2)', 'default: proof problems']) expect(help).not.toContain(offered);
    expect(help).toMatch(/--n-candidates <n> candidates per iteration, N --n-verifications/);
  });

  test('refused before anything is written: DIR not a run, no --output-file, NEW inside DIR, NEW holding a run or files, NEW a file, other problems, a flag its strategy does not read', async ({ dir }) => {
    const before = await fileHashes(source);
    const empty = path.join(dir, 'empty');
    await mkdir(empty);
    const other = await writeProblems(dir, smallProblems(5));
    const held = path.join(dir, 'held');
    await mkdir(path.join(held, 'store'), { recursive: true });
    const busy = path.join(dir, 'busy');
    await mkdir(busy);
    await writeFile(path.join(busy, 'notes.txt'), 'mine\n');
    const file = path.join(dir, 'file');
    await writeFile(file, 'not a directory\n');
    const cases: Array<{ args: string[]; code: RegExp; says: RegExp }> = [
      { args: ['fork', empty, '--output-file', path.join(dir, 'a')], code: /TMAS_RESUME\]/, says: /holds no tmas run to fork/ },
      { args: ['fork', source], code: /TMAS_USAGE\]/, says: /needs --output-file NEW/ },
      { args: ['fork', source, '--output-file', path.join(source, 'inner')], code: /TMAS_OUTPUT\]/, says: /inside the run being forked/ },
      { args: ['fork', source, '--output-file', source], code: /TMAS_OUTPUT\]/, says: /is the run being forked/ },
      { args: ['fork', source, '--output-file', held], code: /TMAS_OUTPUT\]/, says: /already holds a tmas run/ },
      { args: ['fork', source, '--output-file', busy], code: /TMAS_OUTPUT\]/, says: /is not empty/ },
      { args: ['fork', source, '--output-file', file], code: /TMAS_OUTPUT\]/, says: /it is a file, not a directory\. Choose another --output-file/ },
      { args: ['fork', source, '--output-file', path.join(dir, 'b'), '--input-file', other], code: /TMAS_RESUME_CONFLICT\]/, says: /not the input of the run.*A fork runs the problems/ },
      { args: ['fork', source, '--output-file', path.join(dir, 'c'), '--resume', source], code: /TMAS_USAGE\]/, says: /takes no --resume/ },
      // Majority's samples are --samples: an M given to it would be recorded as the fork's change and change nothing.
      { args: ['fork', source, '--output-file', path.join(dir, 'd'), '--strategy', 'majority', '--n-verifications', '4'], code: /TMAS_USAGE\]/, says: /--n-verifications: the majority strategy does not read it/ },
    ];
    for (const { args, code, says } of cases) {
      const refused = await runCliInProcess(args);
      expect(refused.code, `${args.join(' ')}: ${refused.stderr}`).toBe(2);
      expect(refused.stderr).toMatch(code);
      expect(refused.stderr).toMatch(says);
    }
    expect((await readdir(dir)).sort()).toEqual(['busy', 'empty', 'file', 'held', 'problems.jsonl']);
    expect(await readdir(empty)).toEqual([]);
    expect(await fileHashes(source)).toEqual(before);
  });
});
