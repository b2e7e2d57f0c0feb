/**
 * Whatever an agents module's function throws ends in the module's own error, TMAS_AGENTS naming its file, exit 2.
 * Before, `error instanceof Error ? error.message : String(error)` read the value in the catch: an Error whose
 * `message` getter throws, an object whose `toString` throws or that has none, a Proxy whose traps throw, each
 * threw again there, and tmas ended with an internal error (exit 1, a stack trace of XState); a message of 50 MB
 * was copied whole into the error, which took minutes.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { runCliInProcess, smallProblems, test, writeProblems } from '../fixtures.ts';

const FLAGS = ['--no-proof', '--n-candidates', '1', '--n-verifications', '1', '--max-iterations', '1', '--judge-passes', '0'];

/** Each thrown value (the statement that throws it) and what the error says it threw. */
const THROWN: Record<string, { throws: string; told: string }> = {
  'message-getter': { throws: "const e = new Error('x'); Object.defineProperty(e, 'message', { get() { throw new Error('no message'); } }); throw e;", told: 'an Error whose message and text could not be read' },
  'to-string': { throws: "throw { toString() { throw new Error('no string'); } };", told: 'an object with keys toString' },
  'no-prototype': { throws: 'throw Object.create(null);', told: 'an object with no keys' },
  proxy: { throws: "throw new Proxy({}, { get() { throw new Error('trap'); }, getPrototypeOf() { throw new Error('trap'); }, ownKeys() { throw new Error('trap'); } });", told: 'an object whose message and text could not be read' },
  'cyclic-cause': { throws: 'const o = { reason: 1 }; o.cause = o; throw o;', told: 'an object with keys reason, cause' },
  string: { throws: "throw 'a plain string';", told: 'a plain string' },
  null: { throws: 'throw null;', told: 'null' },
  symbol: { throws: "throw Symbol('why');", told: 'Symbol(why)' },
  huge: { throws: "throw new Error('x'.repeat(200_000));", told: `${'x'.repeat(2000)}… (198000 more characters)` },
};

describe("a value an agents module's function throws", () => {
  test('whatever it is, ends in TMAS_AGENTS naming the module file, exit 2, its text bounded', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(1));
    for (const [name, { throws, told }] of Object.entries(THROWN)) {
      const file = path.join(dir, `${name}.mjs`);
      await writeFile(file, `import { defineAgents } from 'tmas';\nexport default defineAgents({\n  verification: {\n    prompt: () => { ${throws} },\n  },\n});\n`);
      const result = await runCliInProcess(['run', '--input-file', input, '--output-file', path.join(dir, `out-${name}`), ...FLAGS, '--agents', file]);
      expect(result.code, `${name}: ${result.stderr.slice(-2000)}`).toBe(2);
      const error = result.stderr.trimEnd().split('\n').at(-1) ?? '';
      expect(error.startsWith(`tmas: The agents module ${file} (--agents): the verification prompt threw: ${told}`), `${name}: ${error.slice(0, 600)}`).toBe(true);
      expect(error).toMatch(/Fix the module, or run without --agents\. \[TMAS_AGENTS\]$/);
    }
  });

  test('a module that throws such a value while it loads, and a prompt that returns a value whose reading throws, end alike', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(1));
    const loading = path.join(dir, 'loading.mjs');
    await writeFile(loading, "const e = new Error('x'); Object.defineProperty(e, 'message', { get() { throw new Error('no message'); } }); throw e;\nexport default {};\n");
    const loaded = await runCliInProcess(['run', '--input-file', input, '--output-file', path.join(dir, 'out-loading'), ...FLAGS, '--agents', loading]);
    expect(loaded.code, loaded.stderr).toBe(2);
    expect(loaded.stderr).toContain(`The agents module ${loading} (--agents) failed to load: an Error whose message and text could not be read. Fix the module, or run without --agents. [TMAS_AGENTS]`);
    const returning = path.join(dir, 'returning.mjs');
    await writeFile(returning, "import { defineAgents } from 'tmas';\nexport default defineAgents({ verification: { prompt: () => new Proxy({}, { get() { throw new Error('trap'); }, ownKeys() { throw new Error('trap'); } }) } });\n");
    const returned = await runCliInProcess(['run', '--input-file', input, '--output-file', path.join(dir, 'out-returning'), ...FLAGS, '--agents', returning]);
    expect(returned.code, returned.stderr).toBe(2);
    expect(returned.stderr).toContain(`The agents module ${returning} (--agents): the verification prompt returned a value that could not be read (reading it threw: trap). Fix the module, or run without --agents. [TMAS_AGENTS]`);
  });
});
