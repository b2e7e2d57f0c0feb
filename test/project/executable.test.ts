/**
 * The `tmas` executable as a user starts it (npm links `tmas` to src/bin.mjs,
 * without the extension): sh reads its second line and starts node on the
 * same file with the executable's V8 flags.
 */
import { execFile } from 'node:child_process';
import { symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { REPO, test } from '../fixtures.ts';

const run = promisify(execFile);

/** The flags and the heap limit (MB) the main thread of each node a command starts was given, as the probe printed them. */
function probed(stderr: string): { flags: string[]; heapMb: number } {
  const match = /flags (\[.*\]) heap (\d+)/.exec(stderr);
  if (match === null) throw new Error(`no probe line in: ${stderr}`);
  return { flags: JSON.parse(match[1] as string) as string[], heapMb: Number(match[2]) };
}

test('started through a link, tmas run starts node with its young generation capped at 4 MB semi-spaces; other commands, and tmas started by node, with the flags node was given', async ({ dir }) => {
  const link = path.join(dir, 'tmas');
  await symlink(path.join(REPO, 'src', 'bin.mjs'), link);
  // Loaded before the program by every node the command starts: says which flags the main thread got, and its heap limit.
  const probe = path.join(dir, 'probe.cjs');
  await writeFile(
    probe,
    "if (require('node:worker_threads').isMainThread) process.stderr.write('flags ' + JSON.stringify(process.execArgv) + ' heap ' + Math.round(require('node:v8').getHeapStatistics().heap_size_limit / 2 ** 20) + '\\n');\n",
  );
  const env = { ...process.env, NODE_OPTIONS: `--require ${probe}` };

  const linked = await run(link, ['run', '--help'], { env });
  expect(linked.stdout).toContain('Usage: tmas run');
  expect(probed(linked.stderr).flags).toContain('--max-semi-space-size=4');

  const other = await run(link, ['--version'], { env });
  expect(other.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  expect(probed(other.stderr).flags).toEqual([]);

  const byNode = await run(process.execPath, [path.join(REPO, 'src', 'bin.mjs'), 'run', '--help'], { env });
  expect(byNode.stdout).toBe(linked.stdout);
  expect(probed(byNode.stderr).flags).toEqual([]);
});

test("tmas run, fork and table1 may grow the heap to three quarters of the machine's memory, past V8's own limit of about 4 GB; a limit in NODE_OPTIONS is the user's", async ({ dir }) => {
  const link = path.join(dir, 'tmas');
  await symlink(path.join(REPO, 'src', 'bin.mjs'), link);
  const probe = path.join(dir, 'probe.cjs');
  await writeFile(probe, "if (require('node:worker_threads').isMainThread) process.stderr.write('flags [] heap ' + Math.round(require('node:v8').getHeapStatistics().heap_size_limit / 2 ** 20) + '\\n');\n");
  const threeQuarters = (0.75 * Math.min(os.totalmem(), process.constrainedMemory?.() || Infinity)) / 2 ** 20;
  for (const command of ['run', 'fork', 'table1']) {
    const { stderr } = await run(link, [command, '--help'], { env: { ...process.env, NODE_OPTIONS: `--require ${probe}` } });
    // V8's own limit where three quarters are less (a small machine): the flag would only lower it.
    expect(probed(stderr).heapMb, command).toBeGreaterThanOrEqual(Math.min(threeQuarters, 4096) - 64);
    if (threeQuarters > 4096) expect(probed(stderr).heapMb, command).toBeGreaterThanOrEqual(threeQuarters - 64);
  }
  const given = await run(link, ['run', '--help'], { env: { ...process.env, NODE_OPTIONS: `--require ${probe} --max-old-space-size=3000` } });
  expect(probed(given.stderr).heapMb).toBeLessThan(3200);
});
