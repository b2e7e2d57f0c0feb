/**
 * Everything in src/, machines/, workers/, bench/ and test/ is checked
 * TypeScript: the compiler, run as `npm run typecheck` runs it (tsconfig.json,
 * the plain-JavaScript launchers included through checkJs), reports nothing.
 * `npm test` is the one command CI runs, so a type error fails it here rather
 * than waiting for someone to run the checker by hand. The compiler runs in a
 * process of its own: a check of the whole project takes seconds of CPU, and
 * in the test's own process it would hold the test runner's messages up.
 *
 * The check is incremental: tsc keeps what it found of each file (its errors
 * included, reported again while the file is unchanged) in a build-info file
 * in the temporary directory, one per checkout, and checks again only the files
 * changed since and those that depend on them. On a 2-core machine TypeScript
 * 7's compiler checks the whole project in about 10 s of CPU (TypeScript 5's
 * took 24-34 s); with the cache, under 2 s after an edit of a test file. A
 * fresh clone (CI) has no cache and checks everything.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The compiler's launcher: TypeScript 7's package exports no path to it, so it is found beside the package.json it does export. */
const TSC = path.join(path.dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
/** Where tsc keeps this checkout's findings between runs: outside the checkout, named after it (several checkouts may share a machine). */
const BUILD_INFO = path.join(os.tmpdir(), `tmas-typecheck-${createHash('sha256').update(REPO).digest('hex').slice(0, 16)}.tsbuildinfo`);

/** What `tsc` prints for `args`, and its exit code. */
async function tsc(args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [TSC, ...args], { cwd: REPO, maxBuffer: 64 << 20 });
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

test('the whole project type-checks, the plain-JavaScript launchers included', async () => {
  // --listFiles prints each file the check read, one absolute path a line, after any error.
  const { code, output } = await tsc(['--noEmit', '-p', '.', '--pretty', 'false', '--listFiles', '--incremental', '--tsBuildInfoFile', BUILD_INFO]);
  const lines = output.split('\n').filter((line) => line.trim() !== '');
  const read = lines.filter((line) => path.isAbsolute(line)).map((file) => path.relative(REPO, file));
  const ours = read.filter((file) => !file.startsWith('..') && !file.startsWith('node_modules'));
  // The launchers that must run before anything is compiled are JavaScript, and checked as such.
  expect(ours).toContain('src/bin.mjs');
  expect(ours).toContain('workers/load.mjs');
  // Nothing built is read as a source: dist/ would be reported as errors of its own.
  expect(ours.filter((file) => file.startsWith('dist/'))).toEqual([]);
  expect(lines.filter((line) => !path.isAbsolute(line))).toEqual([]);
  expect(code).toBe(0);
}, 300_000);
