/**
 * The build (src/build.mjs) and the bin's choice between it and the sources:
 * on a copy of the checkout, so that the repository's own dist/ is untouched.
 */
import { execFile } from 'node:child_process';
import { cp, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect } from 'vitest';
import { buildFingerprint, buildRuns } from '../../src/kernel/build-fingerprint.mjs';
import { BROWSER_ENTRIES } from '../../src/report/browser-bundle.mjs';
import { browserScript } from '../../src/report/browser-script.ts';
import { REPO, runInProcess, smallProblems, test, writeProblems } from '../fixtures.ts';

const run = promisify(execFile);

/** A copy of what the bin needs: sources, package.json, problems, and the repository's node_modules. */
async function copyCheckout(dir: string): Promise<string> {
  const copy = path.join(dir, 'tmas');
  for (const entry of ['src', 'machines', 'workers', 'problems', 'package.json', 'tsconfig.json']) {
    await cp(path.join(REPO, entry), path.join(copy, entry), { recursive: true });
  }
  await symlink(path.join(REPO, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
  return copy;
}

async function version(copy: string): Promise<string> {
  const { stdout } = await run(process.execPath, [path.join(copy, 'src', 'bin.mjs'), '--version'], { cwd: copy });
  return stdout.trim();
}

describe('the build', () => {
  // One test, so that the checkout is copied and built once.
  test('the bin runs the build while it is current, with the results of the sources, and the sources once one of them is newer', async ({ dir }) => {
    const copy = await copyCheckout(dir);
    await run(process.execPath, [path.join(copy, 'src', 'build.mjs')], { cwd: copy });
    // The rule the bin, and a pool started from the sources, go by.
    expect(buildRuns(copy)).toBe(true);
    // The pages' scripts are built where their entries lie, as the server bundles them when it runs from the sources.
    for (const entry of BROWSER_ENTRIES) {
      const built = await readFile(path.join(copy, 'dist', entry.replace(/\.ts$/, '.js')), 'utf8');
      expect(built, entry).toContain('(() => {');
      expect(built, entry).toBe(await browserScript(entry));
    }

    // A run from the build gives the results of a run from the sources: the same run in this process, which
    // runs the sources the copy was built from. (A child from the sources, tsx compiling every module in its
    // main thread and each pool thread, cost 6 s of CPU more; that the bin runs the sources is shown below.)
    // Two problems and two iterations: every role of TMAS runs, the bank carried into the second.
    const problems = await writeProblems(dir, smallProblems(2));
    const flags = ['--input-file', problems, '--no-proof', '--max-iterations', '2', '--n-candidates', '2', '--n-verifications', '1', '--judge-passes', '0'];
    await run(process.execPath, [path.join(copy, 'src', 'bin.mjs'), 'run', ...flags, '--output-file', path.join(dir, 'built')], { cwd: copy });
    await runInProcess([...flags, '--output-file', path.join(dir, 'sources')]);
    const [built, sources] = await Promise.all(['built', 'sources'].map((name) => readFile(path.join(dir, name, 'results.jsonl'), 'utf8')));
    expect(built).not.toBe('');
    expect(built).toBe(sources);

    // The build reads the version from its own copy of package.json: marking it shows which tree ran.
    const builtPackage = path.join(copy, 'dist', 'package.json');
    const manifest = JSON.parse(await readFile(builtPackage, 'utf8')) as { version: string };
    await writeFile(builtPackage, JSON.stringify({ ...manifest, version: '0.0.0-built' }));
    expect(await version(copy)).toBe('0.0.0-built');

    // An edited source, even one file deep in a folder: the build is stale, the sources run.
    const edited = path.join(copy, 'machines', 'roles', 'verification.role.ts');
    const later = new Date(Date.now() + 5_000);
    await utimes(edited, later, later);
    expect(await version(copy)).toBe(manifest.version);
    expect(buildRuns(copy)).toBe(false);
    // A whole build, a run from it, one in this process and a start from the sources.
  }, 300_000);

  test('the build counts as stale after an edit dated earlier, a deleted or added file, or a changed asset', async ({ dir }) => {
    const copy = await copyCheckout(dir);
    const restore: Array<() => Promise<void>> = [];
    const edits: Array<[string, () => Promise<void>]> = [
      [
        'a source put back with an older time (cp -p, rsync -a)',
        async () => {
          const file = path.join(copy, 'src', 'kernel', 'version.ts');
          await writeFile(file, (await readFile(file, 'utf8')).replace('version', 'VERSION'));
          await utimes(file, new Date(2001, 0, 1), new Date(2001, 0, 1));
        },
      ],
      [
        'a deleted source',
        async () => {
          const file = path.join(copy, 'machines', 'roles', 'judge.role.ts');
          const text = await readFile(file, 'utf8');
          await rm(file);
          // Put back once the fingerprint is taken, so that the sources still run below.
          restore.push(() => writeFile(file, text));
        },
      ],
      ["an editor's lock file, a dangling link", () => symlink('user@host.123', path.join(copy, 'src', 'cli', '.#main.ts'))],
      ['a changed problem file', () => writeFile(path.join(copy, 'problems', 'demo.jsonl'), '{"problem_id":"1","question":"1+1?","answer":"2"}\n')],
    ];
    for (const [what, edit] of edits) {
      const before = buildFingerprint(copy);
      await edit();
      expect(buildFingerprint(copy), what).not.toBe(before);
    }
    for (const undo of restore) await undo();
    // And the bin still starts with the dangling link there.
    expect(await version(copy)).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
