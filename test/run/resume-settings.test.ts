/**
 * What a resume and a fork do with each setting given again: one that changes
 * what the calls are is refused unless --force (a fork's change), one that
 * changes only how the run goes is taken and recorded, and one that names the
 * run itself is the run's own. No setting is dropped without a word.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { openRun } from '../../src/analysis/open-run.ts';
import { SETTINGS } from '../../src/settings/configure/index.ts';
import type { RunConfig } from '../../src/settings/config.ts';
import { field } from '../../src/settings/field.ts';
import { checkResumeClasses, setting } from '../../src/settings/setting.ts';
import { fileHashes, runCliInProcess, runInProcess, smallProblems, test, writeProblems } from '../fixtures.ts';

const SMALL = ['--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1', '--judge-passes', '0', '--sim-output-tokens', '60'];

/** A finished run of one problem, one iteration (or `iterations`), in `dir/run`. */
async function finishedRun(dir: string, iterations = 1): Promise<string> {
  const run = path.join(dir, 'run');
  await runInProcess(['--input-file', await writeProblems(dir, smallProblems(1)), '--output-file', run, ...SMALL, '--max-iterations', String(iterations)]);
  return run;
}

/** The configuration a run's manifest records. */
async function manifestOf(run: string): Promise<RunConfig & { forkedFrom?: { changed: string[] } }> {
  const { store, manifest } = await openRun(run);
  await store.close();
  return { ...manifest.config, ...(manifest.forkedFrom === undefined ? {} : { forkedFrom: manifest.forkedFrom }) };
}

/** Settings that change only how the run goes (its pace, its retries' backoff, its warnings), given with another value. */
const TAKEN = ['--schedule', 'barrier', '--unusable-warn-share', '0.9', '--sim-latency-ms', '1', '--retry-base-ms', '5'];
/** Settings that change what the calls are or what they answer, given with another value. */
const COMPARED = ['--parse-retries', '0', '--sim-break-formats', '0.5', '--sim-output-tokens', '80', '--sim-distill-tokens', '7'];

describe('settings given again to a resume or a fork', () => {
  test('every setting that fills the configuration says what a resume does with it', () => {
    expect(() => checkResumeClasses(SETTINGS)).not.toThrow();
    const silent = setting<number>({ flags: '--new-knob <n>', section: 'loop', help: 'a new knob', field: field('loop', 'seed') });
    expect(() => checkResumeClasses([silent])).toThrow('--new-knob must declare exactly one of shapesCalls or namesTheRun');
  });

  test('a resume takes the settings of how the run goes and records them; refuses, naming each, those that change the calls, and column flags without --input-file', async ({ dir }) => {
    const run = await finishedRun(dir);
    const before = await fileHashes(run);
    const compared = await runCliInProcess(['run', '--resume', run, ...COMPARED]);
    expect(compared.code, compared.stderr).toBe(2);
    expect(compared.stderr).toContain('TMAS_RESUME_CONFLICT');
    for (const flag of ['--parse-retries', '--sim-break-formats', '--sim-output-tokens', '--sim-distill-tokens']) expect(compared.stderr).toContain(`${flag}: the run has`);
    const column = await runCliInProcess(['run', '--resume', run, '--answer-column', 'solution']);
    expect(column.code, column.stderr).toBe(2);
    expect(column.stderr).toMatch(/--answer-column names a column of --input-file.*\[TMAS_USAGE\]/);
    expect(await fileHashes(run)).toEqual(before);

    const taken = await runCliInProcess(['run', '--resume', run, ...TAKEN]);
    expect(taken.code, taken.stderr).toBe(0);
    const config = await manifestOf(run);
    expect([config.loop.schedule, config.outputs.unusableWarnShare, config.sim.latencyMedianMs, config.sim.latencyP99Ms, config.gateway.retryBaseMs]).toEqual(['barrier', 0.9, 1, 1, 5]);
  });

  test('--max-iterations below the iterations a run has completed is refused on its resume, naming both, and nothing is written', async ({ dir }) => {
    const run = await finishedRun(dir, 2);
    const before = await fileHashes(run);
    const lowered = await runCliInProcess(['run', '--resume', run, '--max-iterations', '1']);
    expect(lowered.code, lowered.stderr).toBe(2);
    expect(lowered.stderr).toMatch(/--max-iterations 1 is below the 2 iterations the run in .* has completed.*\[TMAS_RESUME_CONFLICT\]/);
    expect(await fileHashes(run)).toEqual(before);
    const same = await runCliInProcess(['run', '--resume', run, '--max-iterations', '2']);
    expect(same.code, same.stderr).toBe(0);
    expect((await manifestOf(run)).loop.maxIterations).toBe(2);
  });

  test('a fork records every setting it is given as changed, those that change the calls first', async ({ dir }) => {
    const run = await finishedRun(dir);
    const fork = path.join(dir, 'fork');
    const forked = await runCliInProcess(['fork', run, '--output-file', fork, ...COMPARED, ...TAKEN]);
    expect(forked.code, forked.stderr).toBe(0);
    expect(forked.stdout).toContain('changes --parse-retries, --sim-break-formats, --sim-output-tokens, --sim-distill-tokens and how it runs: --unusable-warn-share, --schedule, --retry-base-ms, --sim-latency-ms, --sim-p99-ms.');
    const config = await manifestOf(fork);
    expect([config.roles.parseRetries, config.sim.breakFormats, config.loop.schedule, config.outputs.unusableWarnShare]).toEqual([0, 0.5, 'barrier', 0.9]);
    const refused = await runCliInProcess(['fork', run, '--output-file', path.join(dir, 'other'), '--id-column', 'id']);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toMatch(/--id-column names a column of --input-file, which tmas fork .* does not read.*\[TMAS_USAGE\]/);
  });

  test('a resume with --force that changes the calls of a run with iterations done says it keeps them as made, and records the change beside the new settings', async ({ dir }) => {
    const run = await finishedRun(dir, 2);
    const forced = await runCliInProcess(['run', '--resume', run, '--force', '--temperature', '0.9', '--max-iterations', '3']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toContain('--force changes --temperature, but a resume does no completed iteration again: the 2 problem-iterations done (iterations 0–1) are kept');
    const metrics = JSON.parse(await readFile(path.join(run, 'metrics.json'), 'utf8')) as { evaluation: { sampling: { solution: { temperature: number } } }; forcedChanges?: unknown };
    // The evaluation block names the new temperature for the whole run: the change recorded beside it says which iterations were made before it.
    expect(metrics.evaluation.sampling.solution.temperature).toBe(0.9);
    expect(metrics.forcedChanges).toEqual([{ changed: ['--temperature'], iterationsKept: 2, problemIterationsKept: 2 }]);
    const report = await runCliInProcess(['report', run, '--format', 'md']);
    expect(report.stdout).toContain('--temperature changed on resume after iterations 0–1');
    // A resume that changes nothing, or only how the run goes, records nothing more.
    const again = await runCliInProcess(['run', '--resume', run, '--max-iterations', '4']);
    expect(again.stderr).not.toContain('--force changes');
    expect((JSON.parse(await readFile(path.join(run, 'metrics.json'), 'utf8')) as { forcedChanges: unknown[] }).forcedChanges).toHaveLength(1);
  });

  test("a completion limit given again to a resume is held to the run's own window, not the default one", async ({ dir }) => {
    const run = path.join(dir, 'run');
    await runInProcess(['--input-file', await writeProblems(dir, smallProblems(1)), '--output-file', run, ...SMALL, '--max-tokens', '200000', '--completion-max-tokens', '150000']);
    // 150000 fits the run's 200000 window; it was refused against the default 131072.
    const same = await runCliInProcess(['run', '--resume', run, '--completion-max-tokens', '150000']);
    expect(same.code, same.stderr).toBe(0);
    const over = await runCliInProcess(['run', '--resume', run, '--completion-max-tokens', '250000']);
    expect(over.code).toBe(2);
    expect(over.stderr).toContain('--completion-max-tokens 250000 is not below the context window (--max-tokens 200000)');
  });
});
