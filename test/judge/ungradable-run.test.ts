/**
 * A run that can grade nothing does not start: proof mode (the default) on
 * problems that carry short answers and no reference solution is exit 2
 * before any call, naming --no-proof, the judge flags and --force; --force
 * runs it anyway.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { checkGradable } from '../../src/cli/run/run.command.ts';
import { startSimServer, type SimServer } from '../../src/sim/server.ts';
import { runCliInProcess, smallProblems, test, writeProblems } from '../fixtures.ts';

const PROBLEMS = smallProblems(2);
const SMALL = ['--model-name', 'tmas-sim', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1'];
let sim: SimServer;

beforeAll(async () => {
  sim = await startSimServer({ problems: PROBLEMS.map((p) => ({ id: p.problem_id, question: p.question, answer: p.answer })) });
});
afterAll(async () => {
  await sim.close();
});

describe('a run that can grade nothing', () => {
  test('tmas run in proof mode on short-answer problems: exit 2 before any request, naming the fixes, no output directory; --force runs it', async ({ dir }) => {
    const input = await writeProblems(dir, PROBLEMS);
    const output = path.join(dir, 'out');
    const refused = await runCliInProcess(['run', '--input-file', input, '--output-file', output, '--base-url', sim.url, ...SMALL]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/would grade nothing: it is in proof mode \(the default\)/);
    expect(refused.stderr).toContain(`2 of the 2 problems in ${input} carry a short answer and none a reference solution, and no judge is named`);
    for (const flag of ['--no-proof', '--judge-base-url', '--judge-model-name', '--force']) expect(refused.stderr).toContain(flag);
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(output)).toBe(false);
    // Not even the endpoint check: the server saw no request.
    expect(sim.stats().requests).toBe(0);

    const forced = await runCliInProcess(['run', '--input-file', input, '--output-file', output, '--base-url', sim.url, '--force', ...SMALL]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(sim.stats().requests).toBeGreaterThan(0);
    const metrics = JSON.parse(await readFile(path.join(output, 'metrics.json'), 'utf8')) as { iterations: Array<{ pass1: number | null; graded: number }> };
    expect(metrics.iterations).toMatchObject([{ pass1: null, graded: 0 }]);
  });

  // Its answers in a column tmas does not look in, a CSV loaded ungraded: a --no-proof run paid every call and graded nothing.
  test('tmas run --no-proof on problems none of which has an answer: exit 2 before any request, naming --answer-column and --force', async ({ dir }) => {
    const input = path.join(dir, 'problems.csv');
    await writeFile(input, `Problem ID,Problem,gold\n${PROBLEMS.map((p) => `${p.problem_id},${p.question},${p.answer}`).join('\n')}\n`);
    const output = path.join(dir, 'out');
    const before = sim.stats().requests;
    const refused = await runCliInProcess(['run', '--input-file', input, '--output-file', output, '--base-url', sim.url, '--no-proof', ...SMALL]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^tmas: This run would grade nothing: with --no-proof each candidate is graded against its problem's reference answer, but none of the 2 problems in .*problems\.csv has one\..*--answer-column.*add --force\. \[TMAS_UNGRADABLE\]$/m);
    expect(existsSync(output)).toBe(false);
    expect(sim.stats().requests).toBe(before);

    const named = await runCliInProcess(['run', '--input-file', input, '--output-file', output, '--base-url', sim.url, '--no-proof', '--answer-column', 'gold', ...SMALL]);
    expect(named.code, named.stderr).toBe(0);
    const metrics = JSON.parse(await readFile(path.join(output, 'metrics.json'), 'utf8')) as { iterations: Array<{ graded: number }> };
    expect(metrics.iterations[0]?.graded).toBe(2);
  });

  // A blank or missing answer ran its problem ungraded with no word until the table's "(1 graded)" at the end.
  test('tmas run --no-proof with some problems unanswered warns before any call, naming them', async ({ dir }) => {
    const input = await writeProblems(dir, [PROBLEMS[0]!, { ...PROBLEMS[1]!, answer: ' ' }]);
    const run = await runCliInProcess(['run', '--input-file', input, '--output-file', path.join(dir, 'out'), '--base-url', sim.url, '--no-proof', ...SMALL]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`tmas: warning: 1 of the 2 problems have no reference answer (${PROBLEMS[1]!.problem_id}): they run ungraded`);
  });

  test('tmas table1 refuses it the same way and creates nothing', async ({ dir }) => {
    const input = await writeProblems(dir, PROBLEMS);
    const out = path.join(dir, 'table1');
    const refused = await runCliInProcess(['table1', '--strategies', 'majority,tmas', '--input-file', input, '--output-file', out, '--base-url', sim.url, '--judge-passes', '0', ...SMALL]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/would grade nothing/);
    expect(existsSync(out)).toBe(false);
  });

  test('what is not refused: --no-proof with some answers, reference solutions with a judge, proof problems with no reference at all, --force', () => {
    const short = [{ id: 'a', question: 'Q', answer: '2' }];
    const config = { proof: true, judgePasses: 0, inputFile: 'p.jsonl' };
    expect(() => checkGradable(config, short, { force: false })).toThrow(expect.objectContaining({ code: 'TMAS_UNGRADABLE' }));
    // A judge named but no reference solution to compare a proof against grades nothing either.
    let judged = '';
    try {
      checkGradable({ ...config, judgePasses: 4 }, short, { force: false });
    } catch (error) {
      judged = (error as Error).message;
    }
    expect(judged).toMatch(/would grade nothing/);
    expect(judged).not.toMatch(/no judge is named/);
    expect(() => checkGradable({ ...config, proof: false }, short, { force: false })).not.toThrow();
    expect(() => checkGradable({ ...config, judgePasses: 4 }, [{ ...short[0]!, solution: 'Since 1 + 1 = 2, …' }], { force: false })).not.toThrow();
    expect(() => checkGradable(config, [{ id: 'a', question: 'Q' }], { force: false })).not.toThrow();
    expect(() => checkGradable(config, short, { force: true })).not.toThrow();
    expect(() => checkGradable({ ...config, proof: false }, [{ id: 'a', question: 'Q' }], { force: false })).toThrow(expect.objectContaining({ code: 'TMAS_UNGRADABLE' }));
    expect(() => checkGradable({ ...config, proof: false }, [{ id: 'a', question: 'Q' }, ...short], { force: false })).not.toThrow();
    expect(() => checkGradable({ ...config, proof: false }, [{ id: 'a', question: 'Q' }], { force: true })).not.toThrow();
  });
});
