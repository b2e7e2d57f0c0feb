/**
 * A command whose outputs could not be written at its end (a folder where
 * its file goes) is refused before its work, not after it: `tmas table1`
 * before any method runs, a resume before its first call.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { fileHashes, runCliInProcess, smallProblems, test, writeProblems } from '../fixtures.ts';

// Before, every method ran (each call paid) and the table stopped at its end, "report.html is a folder: give --out …", a flag table1 lacks.
test.for(['table1.md', 'report.html'])('tmas table1 with a folder where its %s goes is refused before any method runs, naming the file', async (name, { dir }) => {
  const input = await writeProblems(dir, smallProblems(1));
  const out = path.join(dir, 'table');
  await mkdir(path.join(out, name), { recursive: true });
  const table = await runCliInProcess(['table1', '--strategies', 'majority', '--samples', '2', '--input-file', input, '--output-file', out, '--no-proof', '--max-iterations', '1', '--judge-passes', '0']);
  expect(table.code).toBe(2);
  expect(table.stderr).toContain(`Cannot write ${path.join(out, name)}: ${path.join(out, name)} is a folder: move it away, or give --output-file a writable folder. [TMAS_OUTPUT]`);
  expect(existsSync(path.join(out, 'majority'))).toBe(false);
});

// Before, the method whose results.jsonl was a folder stopped at its start, and the others ran (each call paid) before the table stopped.
test('tmas table1 on a table one of whose methods has a folder where its results.jsonl goes is refused before any method runs', async ({ dir }) => {
  const input = await writeProblems(dir, smallProblems(1));
  const out = path.join(dir, 'table');
  const args = (strategies: string) => ['table1', '--strategies', strategies, '--samples', '2', '--n-candidates', '2', '--input-file', input, '--output-file', out, '--no-proof', '--max-iterations', '1', '--judge-passes', '0'];
  const first = await runCliInProcess(args('majority'));
  expect(first.code, first.stderr).toBe(0);
  await rm(path.join(out, 'majority', 'results.jsonl'));
  await mkdir(path.join(out, 'majority', 'results.jsonl'));
  const table = await runCliInProcess(args('majority,self-refine'));
  expect(table.code).toBe(2);
  expect(table.stderr).toContain(`${path.join(out, 'majority', 'results.jsonl')} is a folder: fix the folder, then give the same tmas table1 command again. [TMAS_OUTPUT]`);
  expect(existsSync(path.join(out, 'self-refine'))).toBe(false);
});

// Before, the resume made its calls and stopped at its end without its outputs.
test('a resume with a folder where its results.jsonl goes is refused before its first call, the run directory unchanged', async ({ dir }) => {
  const input = await writeProblems(dir, smallProblems(2));
  const run = path.join(dir, 'run');
  const flags = ['--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--judge-passes', '0'];
  const first = await runCliInProcess(['run', '--input-file', input, '--output-file', run, ...flags, '--max-iterations', '1']);
  expect(first.code, first.stderr).toBe(0);
  await rm(path.join(run, 'results.jsonl'));
  await mkdir(path.join(run, 'results.jsonl'));
  const before = await fileHashes(run);
  const resumed = await runCliInProcess(['run', '--resume', run, '--max-iterations', '2']);
  expect(resumed.code).toBe(2);
  expect(resumed.stderr).toContain(`Cannot write ${path.join(run, 'results.jsonl')}: ${path.join(run, 'results.jsonl')} is a folder: fix the folder, then write them again from the store with tmas run --resume. [TMAS_OUTPUT]`);
  expect(resumed.stdout + resumed.stderr).not.toMatch(/calls issued/);
  expect(await fileHashes(run)).toEqual(before);
  await rm(path.join(run, 'results.jsonl'), { recursive: true });
  const again = await runCliInProcess(['run', '--resume', run, '--max-iterations', '2']);
  expect(again.code, again.stderr).toBe(0);
  expect(existsSync(path.join(run, 'results.jsonl'))).toBe(true);
});

// Before: "Cannot use the output directory FILE/sub/deeper: it is a file", naming a path that does not exist.
test('an --output-file below a file names that file, not the path given', async ({ dir }) => {
  const input = await writeProblems(dir, smallProblems(1));
  const file = path.join(dir, 'notes.txt');
  await writeFile(file, 'mine\n');
  const run = await runCliInProcess(['run', '--input-file', input, '--output-file', path.join(file, 'sub', 'deeper'), '--no-proof']);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain(`Cannot use the output directory ${path.join(file, 'sub', 'deeper')}: ${file}, on its path, is a file, not a directory. Choose another --output-file. [TMAS_OUTPUT]`);
});
