/**
 * `tmas plan --from FOLDER` over a folder of runs one of which lies past the system's path limit. Before, the plan
 * stopped at that run (TMAS_RUN_DIR, exit 2) and planned none of the others; it now leaves it out with a warning
 * naming it, and plans the rest.
 */
import { cp, rm } from 'node:fs/promises';
import { describe, expect } from 'vitest';
import { deepFolder, finishedRunOfFile, inFolder, runCliInProcess, test as base } from '../fixtures.ts';

const test = base.extend<{ plannedRun: string }>({
  plannedRun: finishedRunOfFile('tmas-plan-folder-paths-', 1, ['--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1']),
});

describe('tmas plan --from a folder holding a run past the path limit', () => {
  test('leaves that run out with a warning naming it and plans the others', async ({ dir, plannedRun }) => {
    // A folder deep enough that a run of a short name fits and one of a long name does not (its store's files lie past 4,095 bytes).
    const folder = await deepFolder(dir, 4020);
    const far = 'b'.repeat(90);
    await inFolder(folder, async () => {
      await cp(plannedRun, 'a', { recursive: true });
      await cp(plannedRun, far, { recursive: true });
    });
    try {
      const alone = await runCliInProcess(['plan', '--from', `${folder}/a`, '--json']);
      expect(alone.code, alone.stderr).toBe(0);
      const planned = await runCliInProcess(['plan', '--from', folder, '--json']);
      expect(planned.code, planned.stderr).toBe(0);
      expect(planned.stderr).toContain(`tmas plan: warning: The run directory ${folder.slice(0, 60)}…${`${folder}/${far}`.slice(-60)} has a path of ${folder.length + 1 + far.length} bytes`);
      expect(planned.stderr).toContain('It is left out of the plan');
      // The plan of the folder is that of its one run that can be read.
      const calls = (output: string) => (JSON.parse(output) as { calls: number }).calls;
      expect(calls(planned.stdout)).toBe(calls(alone.stdout));
    } finally {
      // The fixture's removal opens every file by its whole path: the run past the limit is removed from nearer.
      await inFolder(folder, () => rm(far, { recursive: true }));
    }
  }, 60_000);
});
