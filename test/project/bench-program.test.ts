/**
 * `npm run bench` is a program of its own (bench/main.ts), outside the product:
 * its options and help as the script starts it, and `tmas` without a bench
 * command. Nothing here runs a benchmark.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { REPO, test } from '../fixtures.ts';

const run = promisify(execFile);

/** The bench's program started as package.json's script starts it, with `args` after `--`; its exit code and what it wrote. */
async function bench(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const script = (JSON.parse(await readFile(path.join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.bench ?? '';
  const [command = '', ...words] = script.split(' ');
  expect(command).toBe('node');
  try {
    const { stdout, stderr } = await run(process.execPath, [...words, ...args], { cwd: REPO });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

test('npm run bench -- --help lists its options and every benchmark by name, and exits 0', async () => {
  const { code, stdout } = await bench(['--help']);
  expect(code).toBe(0);
  for (const option of ['--quick', '--full', '--only <names>', '--keep']) expect(stdout).toContain(option);
  expect(stdout).toMatch(/overhead,pipelining,.*open-run/);
});

test('npm run bench with an unknown --only name exits 2 with a coded message that lists the benchmarks', async () => {
  const { code, stderr } = await bench(['--only', 'nope']);
  expect(code).toBe(2);
  expect(stderr).toContain('--only names no benchmark called nope');
  expect(stderr).toContain('[TMAS_USAGE]');
});

test('tmas has no bench command: it is not in the help, and asked for, it is an unknown command (exit 2)', async () => {
  const help = await run(process.execPath, [path.join(REPO, 'src', 'bin.mjs'), '--help'], { cwd: REPO });
  expect(help.stdout).not.toMatch(/^\s+bench\b/m);
  const asked = await run(process.execPath, [path.join(REPO, 'src', 'bin.mjs'), 'bench'], { cwd: REPO }).catch((error: { code: number; stderr: string }) => error);
  expect('code' in asked ? asked.code : 0).toBe(2);
  expect(asked.stderr).toContain("unknown command 'bench'");
});
