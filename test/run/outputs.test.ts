/**
 * What the commands write for their user: into a folder that cannot take it, a
 * coded error that names the file and what to do (exit 2, no stack); and only
 * whole files at their final names, however the command ends.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmod, cp, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parquetReadObjects } from 'hyparquet';
import { describe, expect } from 'vitest';
import { createOutputFile, partialName } from '../../src/host/outputs/output-file.ts';
import { ensureFreshOutputDir } from '../../src/host/outputs/output-dir.ts';
import { existsSync } from 'node:fs';
import { BIN, REPO, runCli, runCliInProcess, finishedRunOfFile, test as base } from '../fixtures.ts';

/**
 * `test` with `finishedRunDir`: one finished run per file, copied by each test that changes it.
 * Its name is this file's alone: with `isolate: false`, a file-scoped fixture of the same name in
 * another file of the same fork (damaged-store's `finished`) would be handed over instead.
 */
const test = base.extend<{ finishedRunDir: string }>({
  finishedRunDir: finishedRunOfFile('tmas-outputs-', 6, ['--no-proof', '--n-candidates', '4', '--n-verifications', '2', '--max-iterations', '2']),
});

/** A read-only copy of `run` under `dir`: a read-only tmpfs where this machine lets us mount one (the EROFS users meet), else modes (which stop no root). */
async function readOnlyCopy(run: string, dir: string): Promise<{ run: string; release: () => Promise<void> } | null> {
  const mount = path.join(dir, 'ro');
  await mkdir(mount);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', mount], { stdio: 'ignore' });
  } catch {
    if (process.getuid?.() === 0) return null;
    await cp(run, path.join(mount, 'run'), { recursive: true });
    await chmod(path.join(mount, 'run'), 0o555);
    return { run: path.join(mount, 'run'), release: () => chmod(path.join(mount, 'run'), 0o755) };
  }
  await cp(run, path.join(mount, 'run'), { recursive: true });
  execFileSync('mount', ['-o', 'remount,ro', mount]);
  return { run: path.join(mount, 'run'), release: async () => void execFileSync('umount', [mount]) };
}

function expectUserError(result: { code: number | null; stderr: string }, code: string): void {
  expect(result.code, result.stderr).toBe(2);
  expect(result.stderr).toContain(`[${code}]`);
  expect(result.stderr).not.toMatch(/internal error|Unhandled|\n\s+at /);
}

describe('outputs', () => {
  test('export and report into a folder that does not exist: TMAS_OUTPUT naming it, nothing written', async ({ dir, finishedRunDir: finished }) => {
    const missing = path.join(dir, 'no-such-folder');
    const exported = await runCliInProcess(['export', finished, '--out', path.join(missing, 'rl')]);
    expectUserError(exported, 'TMAS_OUTPUT');
    expect(exported.stderr).toContain(`the folder ${missing} does not exist`);
    expect(exported.stderr).toMatch(/--out/);
    const reported = await runCliInProcess(['report', finished, '--out', path.join(missing, 'report.html')]);
    expectUserError(reported, 'TMAS_OUTPUT');
    expect(reported.stderr).toContain(missing);
  });

  test('export of a read-only run directory without --out: TMAS_OUTPUT saying to give --out; with --out elsewhere it exports', async ({ dir, finishedRunDir: finished, skip }) => {
    const archived = await readOnlyCopy(finished, dir);
    if (archived === null) skip('root without a tmpfs mount: no read-only directory can be made here');
    const { run, release } = archived as NonNullable<typeof archived>;
    try {
      const refused = await runCliInProcess(['export', run]);
      expectUserError(refused, 'TMAS_OUTPUT');
      expect(refused.stderr).toContain(path.join(run, 'export-rl.jsonl'));
      expect(refused.stderr).toMatch(/read-only|not writable/);
      expect(refused.stderr).toMatch(/give --out a path in a writable folder/);
      const exported = await runCliInProcess(['export', run, '--out', path.join(dir, 'rl')]);
      expect(exported.code, exported.stderr).toBe(0);
    } finally {
      await release();
    }
  });

  test('export killed while it writes leaves no file at its final names; the next export replaces what it left', async ({ dir, finishedRunDir: finished }) => {
    const out = path.join(dir, 'rl');
    const child = spawn(process.execPath, [BIN, 'export', finished, '--out', out], { cwd: REPO, stdio: 'ignore' });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    // Killed as soon as anything of the export shows in its folder.
    while (child.exitCode === null && (await readdir(dir)).every((name) => !name.startsWith('rl.'))) await new Promise((resolve) => setTimeout(resolve, 2));
    child.kill('SIGKILL');
    await exited;
    const left = await readdir(dir);
    // Either it had finished (whole files) or it left only its temporary files.
    if (left.includes('rl.parquet')) {
      const bytes = await readFile(`${out}.parquet`);
      expect(bytes.length).toBeGreaterThan(0);
      await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) });
    }
    expect(left.filter((name) => name.startsWith('rl.') && !name.endsWith('.partial'))).toEqual(left.includes('rl.parquet') ? ['rl.jsonl', 'rl.parquet'] : []);

    const again = await runCliInProcess(['export', finished, '--out', out]);
    expect(again.code, again.stderr).toBe(0);
    expect((await readdir(dir)).filter((name) => name.startsWith('rl.')).sort()).toEqual(['rl.jsonl', 'rl.parquet']);
    const records = (await readFile(`${out}.jsonl`, 'utf8')).trim().split('\n');
    const bytes = await readFile(`${out}.parquet`);
    expect(await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) })).toHaveLength(records.length);
  });

  test('export killed at several moments, while tmas starts, reads the store or writes, leaves no .partial file once the next command has run', async ({ dir, finishedRunDir: finished }) => {
    const out = path.join(dir, 'rl');
    // Kills while tmas starts (300 ms, before it writes anything), then as each of its two temporary files shows in the
    // folder: taken at a moment seen, not at a guessed time, so at least one kill leaves a .partial file on any machine
    // (fixed times of 1.5 to 2.6 s fell after a quiet machine's export had ended). A kill between a file's creation and its
    // first write can leave it for an instant; the next command that writes into the folder removes it.
    const partialsOf = async (child: ChildProcess) => (await readdir(dir)).filter((name) => name.startsWith('rl.') && name.endsWith(`-${child.pid}.partial`)).length;
    const moments = [() => new Promise((resolve) => setTimeout(resolve, 300)), ...[1, 2].map((shown) => async (child: ChildProcess) => {
      while (child.exitCode === null && (await partialsOf(child)) < shown) await new Promise((resolve) => setTimeout(resolve, 2));
    })];
    for (const moment of moments) {
      const child = spawn(process.execPath, [BIN, 'export', finished, '--out', out], { cwd: REPO, stdio: 'ignore' });
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      await moment(child);
      child.kill('SIGKILL');
      await exited;
    }
    const next = await runCliInProcess(['export', finished, '--out', out]);
    expect(next.code, next.stderr).toBe(0);
    expect((await readdir(dir)).filter((entry) => entry.endsWith('.partial'))).toEqual([]);
    for (const name of ['rl.jsonl', 'rl.parquet']) expect((await stat(path.join(dir, name))).size).toBeGreaterThan(0);
  });

  test('a temporary output file a killed process left (its pid no longer runs) is removed by the next command that writes into its folder; one a live process writes is kept', async ({ dir, finishedRunDir: finished }) => {
    const out = path.join(dir, 'rl');
    const gone = spawn(process.execPath, ['-e', '0']);
    const deadPid = await new Promise<number>((resolve) => gone.once('exit', () => resolve(gone.pid as number)));
    const stale = [partialName(`${out}.jsonl`, deadPid), partialName(path.join(dir, 'report.html'), deadPid), `${out}.parquet.partial`];
    const live = partialName(path.join(dir, 'other.jsonl'), process.pid);
    for (const file of [...stale, live]) await writeFile(file, 'half a file');
    const exported = await runCli(['export', finished, '--out', out]);
    expect(exported.code, exported.stderr).toBe(0);
    expect((await readdir(dir)).sort()).toEqual([path.basename(live), 'rl.jsonl', 'rl.parquet'].sort());
  });

  test('export --out with an extension: PATH.jsonl writes that file alone, PATH.parquet that file alone, another format is refused with TMAS_USAGE and nothing is written', async ({ dir, finishedRunDir: finished }) => {
    const jsonl = await runCliInProcess(['export', finished, '--out', path.join(dir, 'x.jsonl')]);
    expect(jsonl.code, jsonl.stderr).toBe(0);
    expect(jsonl.stdout).toContain(path.join(dir, 'x.jsonl'));
    const parquet = await runCliInProcess(['export', finished, '--out', path.join(dir, 'y.parquet')]);
    expect(parquet.code, parquet.stderr).toBe(0);
    expect((await readdir(dir)).sort()).toEqual(['x.jsonl', 'y.parquet']);
    const records = (await readFile(path.join(dir, 'x.jsonl'), 'utf8')).trim().split('\n');
    const bytes = await readFile(path.join(dir, 'y.parquet'));
    expect(await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) })).toHaveLength(records.length);

    const refused = await runCliInProcess(['export', finished, '--out', path.join(dir, 'z.json')]);
    expectUserError(refused, 'TMAS_USAGE');
    expect(refused.stderr).toContain(`--out ${path.join(dir, 'z.jsonl')} or --out ${path.join(dir, 'z.parquet')}`);
    expect((await readdir(dir)).sort()).toEqual(['x.jsonl', 'y.parquet']);
    const help = await runCliInProcess(['export', '--help']);
    expect(help.stdout).toMatch(/a PATH\s+ending in\s+\.jsonl or \.parquet\s+writes\s+that\s+file\s+alone/);
  });

  test('an output file is made on disk with its first megabyte or at its commit, never empty: a kill before leaves nothing', async ({ dir }) => {
    const file = path.join(dir, 'out.jsonl');
    const out = await createOutputFile(file, { advice: 'give another path' });
    await out.write('a line\n'.repeat(1000));
    expect(await readdir(dir)).toEqual([]);
    await out.write('x'.repeat(2 ** 20));
    expect(await readdir(dir)).toEqual([path.basename(out.partial)]);
    expect((await stat(out.partial)).size).toBeGreaterThan(2 ** 20);
    await out.commit();
    expect(await readdir(dir)).toEqual(['out.jsonl']);
    expect((await stat(file)).size).toBe(7000 + 2 ** 20);
  });
});

describe('a new run directory', () => {
  test('is made with its missing parents; under /proc, where a directory cannot be made, it is refused (TMAS_OUTPUT) rather than tried forever', async ({ dir, skip }) => {
    const nested = path.join(dir, 'a', 'b', 'c');
    await ensureFreshOutputDir(nested);
    expect((await stat(nested)).isDirectory()).toBe(true);
    if (!existsSync('/proc/self')) skip('no /proc here');
    await expect(ensureFreshOutputDir('/proc/tmas-output')).rejects.toMatchObject({ code: 'TMAS_OUTPUT', message: expect.stringContaining('Cannot create the output directory /proc/tmas-output') });
  });
});
