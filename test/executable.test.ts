/**
 * The `tmas` executable as a user starts it (npm links `tmas` to src/bin.mjs,
 * without the extension): sh reads its second line and starts node on the
 * same file with the executable's V8 flags.
 */
import { execFile } from 'node:child_process';
import { symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { REPO, test } from './fixtures.ts';

const run = promisify(execFile);

test('started through a link, tmas run starts node with its young generation capped at 4 MB semi-spaces; other commands, and tmas started by node, with the flags node was given', async ({ dir }) => {
  const link = path.join(dir, 'tmas');
  await symlink(path.join(REPO, 'src', 'bin.mjs'), link);
  // Loaded before the program by every node the command starts: says which flags the main thread got.
  const probe = path.join(dir, 'probe.cjs');
  await writeFile(probe, "if (require('node:worker_threads').isMainThread) process.stderr.write('flags ' + JSON.stringify(process.execArgv) + '\\n');\n");
  const env = { ...process.env, NODE_OPTIONS: `--require ${probe}` };

  const linked = await run(link, ['run', '--help'], { env });
  expect(linked.stdout).toContain('Usage: tmas run');
  expect(linked.stderr).toContain('flags ["--max-semi-space-size=4"]');

  const other = await run(link, ['--version'], { env });
  expect(other.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  expect(other.stderr).toContain('flags []');

  const byNode = await run(process.execPath, [path.join(REPO, 'src', 'bin.mjs'), 'run', '--help'], { env });
  expect(byNode.stdout).toBe(linked.stdout);
  expect(byNode.stderr).toContain('flags []');
});
