import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { fileHashes, runCliInProcess, runInProcess, smallProblems, test, writeProblems } from '../fixtures.ts';

const SMALL = ['--no-proof', '--n-candidates', '2', '--n-verifications', '1'];

function issued(stdout: string): number {
  return Number(/(\d+) calls issued/.exec(stdout)?.[1]);
}

describe('run directories can be copied and moved', () => {
  test('resuming a copy changes only the copy; resuming a moved run answers every journaled call from its journal and never recreates the old path', async ({ dir }) => {
    const problems = await writeProblems(dir, smallProblems(2));
    const run = path.join(dir, 'run');
    await runInProcess(['--input-file', problems, '--output-file', run, ...SMALL, '--max-iterations', '1']);

    const copy = path.join(dir, 'copy');
    await cp(run, copy, { recursive: true });
    const original = await fileHashes(run);
    const extended = await runCliInProcess(['run', '--resume', copy, '--max-iterations', '2']);
    expect(extended.code, extended.stderr).toBe(0);
    expect(extended.stdout).toContain(`Outputs: ${copy}/results.jsonl`);
    expect(await fileHashes(run)).toEqual(original);
    const copyLines = (await readFile(path.join(copy, 'results.jsonl'), 'utf8')).trim().split('\n');
    expect(copyLines).toHaveLength(4);

    const moved = path.join(dir, 'elsewhere', 'moved');
    await mkdir(path.dirname(moved));
    await rename(run, moved);
    const again = await runCliInProcess(['run', '--resume', moved]);
    expect(again.code, again.stderr).toBe(0);
    expect(issued(again.stdout)).toBe(0);
    expect(existsSync(run)).toBe(false);
    const movedExtended = await runCliInProcess(['run', '--resume', moved, '--max-iterations', '2']);
    expect(movedExtended.code, movedExtended.stderr).toBe(0);
    // Only the second iteration's calls: the same as the copy paid for.
    expect(issued(movedExtended.stdout)).toBe(issued(extended.stdout));
    expect(existsSync(run)).toBe(false);
    expect(await readFile(path.join(moved, 'results.jsonl'), 'utf8')).toBe(await readFile(path.join(copy, 'results.jsonl'), 'utf8'));
  });
});

describe('start and stop edges', () => {
  test('--resume on a directory without a run creates nothing; flags that cannot apply to a resume are refused; a new run in a run directory points at --resume', async ({ dir }) => {
    const problems = await writeProblems(dir, smallProblems(1));
    const empty = path.join(dir, 'empty');
    await mkdir(empty);
    for (const target of [empty, path.join(dir, 'absent')]) {
      const refused = await runCliInProcess(['run', '--resume', target]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/TMAS_RESUME\]/);
      expect(refused.stderr).toMatch(/holds no tmas run/);
      // A mistyped path is told from a directory that is no run.
      expect(refused.stderr).toContain(target === empty ? '(it has no store/)' : '(it does not exist)');
    }
    expect(await readdir(empty)).toEqual([]);
    expect(existsSync(path.join(dir, 'absent'))).toBe(false);

    const run = path.join(dir, 'run');
    await runInProcess(['--input-file', problems, '--output-file', run, ...SMALL, '--max-iterations', '1']);
    const before = await fileHashes(run);

    const rerun = await runCliInProcess(['run', '--input-file', problems, '--output-file', run, ...SMALL]);
    expect(rerun.code).toBe(2);
    expect(rerun.stderr).toMatch(/TMAS_OUTPUT/);
    expect(rerun.stderr).toContain(`tmas run --resume ${run}`);

    const other = path.join(dir, 'other.jsonl');
    await writeFile(other, `${JSON.stringify({ problem_id: 'x', question: 'What is 1 + 1?', answer: '2' })}\n`);
    const cases: Array<{ flags: string[]; code: RegExp; says: RegExp }> = [
      { flags: ['--demo'], code: /TMAS_USAGE/, says: /--demo starts a new run/ },
      { flags: ['--output-file', path.join(dir, 'another')], code: /TMAS_USAGE/, says: /--output-file cannot apply to --resume/ },
      { flags: ['--input-file', other], code: /TMAS_RESUME_CONFLICT/, says: /is not the input of the run/ },
    ];
    for (const { flags, code, says } of cases) {
      const refused = await runCliInProcess(['run', '--resume', run, ...flags]);
      expect(refused.code, flags[0]).toBe(2);
      expect(refused.stderr, flags[0]).toMatch(code);
      expect(refused.stderr, flags[0]).toMatch(says);
    }
    expect(existsSync(path.join(dir, 'another'))).toBe(false);
    expect(await fileHashes(run)).toEqual(before);
    // The run's own input file is accepted.
    const same = await runCliInProcess(['run', '--resume', run, '--input-file', problems]);
    expect(same.code, same.stderr).toBe(0);
    expect(issued(same.stdout)).toBe(0);

    // Outputs are renamed into place, and metrics.json names the results.jsonl it goes with:
    // what a kill between the two renames leaves is refused by report, and a resume rewrites both.
    expect((await readdir(run)).filter((name) => name.endsWith('.partial'))).toEqual([]);
    const md = await runCliInProcess(['report', run, '--format', 'md']);
    expect(md.code, md.stderr).toBe(0);
    await writeFile(path.join(run, 'results.jsonl'), '');
    const stale = await runCliInProcess(['report', run, '--format', 'md']);
    expect(stale.code).toBe(2);
    expect(stale.stderr).toMatch(/\[TMAS_REPORT_INCONSISTENT\]/);
    expect(stale.stderr).toContain(`tmas run --resume ${run}`);
    expect((await runCliInProcess(['run', '--resume', run])).code).toBe(0);
    expect((await runCliInProcess(['report', run, '--format', 'md'])).code).toBe(0);
  });

  test('a directory stopped before its manifest was written is reused by the same command, and --resume says so', async ({ dir }) => {
    const problems = await writeProblems(dir, smallProblems(1));
    const run = path.join(dir, 'run');
    // What a kill in the first moment leaves: the store being built under its temporary name.
    await mkdir(path.join(run, '.store-new', 'store'), { recursive: true });
    await writeFile(path.join(run, '.store-new', 'store', 'LOCK'), '');
    const resumed = await runCliInProcess(['run', '--resume', run]);
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toMatch(/stopped before its run started.*Run the same command again/);
    const reused = await runCliInProcess(['run', '--input-file', problems, '--output-file', run, ...SMALL, '--max-iterations', '1']);
    expect(reused.code, reused.stderr).toBe(0);
    expect((await readdir(run)).sort()).toEqual(['metrics.json', 'results.jsonl', 'store']);
  });
});
