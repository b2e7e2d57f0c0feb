/**
 * `tmas plan --check` and `--from` of a run that stopped before its end (a
 * Ctrl-C here; a kill, a full disk or a call failed for good leave the same).
 * Before, --check set a forecast of the whole run beside the part it did and
 * called the difference the forecast's error (+16,000% output tokens), and
 * --from gave the makespan of the calls it made as the run's, neither saying
 * the run was partial.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { loadProblems } from '../../src/input/problems.ts';
import { startSimServer } from '../../src/sim/server.ts';
import { SIM_ROLES } from '../../machines/strategies/sim-roles.ts';
import { runCliInProcess, smallProblems, startCli, test, until, writeProblems } from '../fixtures.ts';

/** How many solution requests the simulator logged so far (whole lines only). */
async function solutionsAsked(file: string): Promise<number> {
  if (!existsSync(file)) return 0;
  const lines = (await readFile(file, 'utf8')).split('\n');
  lines.pop();
  return lines.filter((line) => line !== '' && (JSON.parse(line) as { role: string }).role === 'solution').length;
}

describe('a plan of a run stopped before its end', () => {
  test('--check refuses it (TMAS_RUN_STOPPED, exit 2, naming the run and the resume); --from says its figures are of the part it did; once resumed, both read it whole', async ({ dir }) => {
    const problems = await writeProblems(dir, smallProblems(2));
    const requestLog = path.join(dir, 'requests.jsonl');
    const sim = await startSimServer({ problems: await loadProblems(problems), roles: SIM_ROLES, latency: { medianMs: 100, p99Ms: 100 }, requestLog });
    const run = path.join(dir, 'run');
    try {
      const live = startCli(['run', '--input-file', problems, '--base-url', sim.url, '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '6', '--output-file', run]);
      // Iteration 1's solutions are asked for once a problem finished iteration 0.
      await until(async () => (await solutionsAsked(requestLog)) > 2 * 2, live.child);
      live.child.kill('SIGINT');
      expect(await live.exited).toBe(130);

      const checked = await runCliInProcess(['plan', '--check', run]);
      expect(checked.code, checked.stderr).toBe(2);
      expect(checked.stderr).toContain('[TMAS_RUN_STOPPED]');
      expect(checked.stderr).toMatch(/stopped before its end: \d+ of its 12 problem-iterations \(2 problems × T=6\) completed/);
      expect(checked.stderr).toContain(`tmas run --resume ${run}`);
      expect(checked.stdout).not.toContain('makespan');

      const partial = await runCliInProcess(['plan', '--from', run]);
      expect(partial.code, partial.stderr).toBe(0);
      expect(partial.stdout).toMatch(/^partial: .* stopped before its end: \d+ of its 12 problem-iterations/m);
      const partialJson = await runCliInProcess(['plan', '--from', run, '--json']);
      expect((JSON.parse(partialJson.stdout) as { stopped: string[] }).stopped).toHaveLength(1);

      const resumed = await runCliInProcess(['run', '--resume', run, '--base-url', sim.url]);
      expect(resumed.code, resumed.stderr).toBe(0);
      const whole = await runCliInProcess(['plan', '--check', run]);
      expect(whole.code, whole.stderr).toBe(0);
      const wholeFrom = await runCliInProcess(['plan', '--from', run]);
      expect(wholeFrom.stdout).not.toContain('partial:');
    } finally {
      await sim.close();
    }
  });
});
