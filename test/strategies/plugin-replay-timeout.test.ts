/**
 * `tmas replay --agents M`, M's actor a machine of its own that never answers: the replay, offline, waited on it
 * for the run's --timeout (300 s by default) and had no --timeout of its own to bound it ("unknown option"), where
 * `tmas fork` takes one. It now takes the same flag, with the same bounds and error, the run's own value left out.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { runCli, runCliInProcess, smallProblems, test, writeProblems } from '../fixtures.ts';

/** A Summary actor of the module's own that never answers: a machine built with XState, as a module outside the repository writes it. */
const NEVER_ANSWERING_MACHINE = `
import { defineAgents } from 'tmas';
import { fromPromise, setup } from 'xstate';
const never = setup({ actors: { wait: fromPromise(() => new Promise(() => {})) } }).createMachine({ initial: 'idle', states: { idle: { on: { '*': 'waiting' } }, waiting: { invoke: { src: 'wait' } } } });
export default defineAgents({ summary: { actor: never } });
`;

const FLAGS = ['--no-proof', '--n-candidates', '2', '--n-verifications', '2', '--max-iterations', '1', '--judge-passes', '0', '--seed', '7'];

describe('tmas replay --timeout', () => {
  test("a replay with a module whose machine never answers stops with TMAS_AGENTS after --timeout (exit 2), or after the run's own when left out; a bad value is refused as fork refuses it", async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(1));
    const file = path.join(dir, 'never.mjs');
    await writeFile(file, NEVER_ANSWERING_MACHINE);
    const fast = path.join(dir, 'fast');
    expect((await runCliInProcess(['run', '--input-file', input, '--output-file', fast, ...FLAGS, '--timeout', '1'])).code).toBe(0);
    const slow = path.join(dir, 'slow');
    expect((await runCliInProcess(['run', '--input-file', input, '--output-file', slow, ...FLAGS])).code).toBe(0);
    const told = `The agents module ${file} (--agents): the summary actor (a machine of the module's own) left its request p1/0/summary/`;
    // A run of --timeout 300: the flag bounds its replay (before: "unknown option '--timeout'").
    const given = await runCli(['replay', slow, '--agents', file, '--timeout', '1']);
    expect(given.code, given.stderr).toBe(2);
    expect(given.stderr).toContain(told);
    expect(given.stderr).toMatch(/unanswered for 1 s .*\[TMAS_AGENTS\]/);
    // Left out: the run's own --timeout, as in a fork.
    const own = await runCli(['replay', fast, '--agents', file]);
    expect(own.code, own.stderr).toBe(2);
    expect(own.stderr).toContain(told);
    const refused = await runCliInProcess(['replay', slow, '--agents', file, '--timeout', '0']);
    const forkRefused = await runCliInProcess(['fork', slow, '--output-file', path.join(dir, 'fork'), '--agents', file, '--timeout', '0']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(forkRefused.stderr);
  });
});
