/**
 * The plugin API: a user's module, written to a temporary directory and loaded
 * with `--agents`, replaces the verification actor (or only its prompt); the
 * run's messages change exactly where that role's output is, compared with a
 * plain run of the same seed.
 */
import { createHash } from 'node:crypto';
import { appendFile, mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { fromPromise, setup } from 'xstate';
import { parseRunFlags, toRunConfig } from '../../src/cli/run/run.command.ts';
import { applyAgents, createRoleMachine, defineAgents, loadAgents, resolveStrategy, strategyNamed, verificationRole } from '../../src/index.ts';
import { loadProblems } from '../../src/input/problems.ts';
import { checkRunAgents, runAgentsAt } from '../../src/settings/files/agents-file.ts';
import type { Message, MessageOf, MessageType } from '../../src/kernel/protocol.ts';
import { runEvaluation } from '../../src/host/run/run-evaluation.ts';
import { Store } from '../../src/store/store.ts';
import { readJournal, readLog, runCli, runCliInProcess, smallProblems, test, writeProblems } from '../fixtures.ts';

// As a user writes it: the package name, which tmas resolves to itself for a module loaded with --agents.
const API = JSON.stringify('tmas');

/** A verification actor that asks the model twice and keeps the stricter score. */
const STRICTER_VERIFIER = `
import { callInfo, defineAgents, parseScore, replyBase, verificationRole, type LlmOutput, type MessageOf } from ${API};

export default defineAgents({
  verification: {
    actor: {
      ...verificationRole,
      calls: [{}, { endpoint: 'verification' }],
      reply: (request: MessageOf<'verification.requested'>, outputs: LlmOutput[]) => {
        const scored = outputs.map((output) => ({ output, score: parseScore(output.content) }));
        const strict = scored.reduce((a, b) => (b.score !== null && (a.score === null || b.score < a.score) ? b : a));
        return { type: 'verification.completed', ...replyBase(request), candidate: request.candidate, index: request.index, score: strict.score, analysis: strict.output.content, call: callInfo(strict.output) };
      },
    },
  },
});
`;

const HARSH = 'Be harsh: any unjustified step makes the solution wrong.';

/** Replaces only the verification prompt, in plain JavaScript. */
const HARSH_PROMPT = `
import { defineAgents, verificationPrompt } from ${API};
export default defineAgents({
  verification: {
    prompt: (request, options) => {
      const spec = verificationPrompt(request, options);
      return { ...spec, system: spec.system + ' ${HARSH}' };
    },
  },
});
`;

/** A Summary actor of the module's own that never answers: a machine built with XState, as a module outside the repository writes it. */
const NEVER_ANSWERING_MACHINE = `
import { defineAgents } from 'tmas';
import { fromPromise, setup } from 'xstate';
const never = setup({ actors: { wait: fromPromise(() => new Promise(() => {})) } }).createMachine({ initial: 'idle', states: { idle: { on: { '*': 'waiting' } }, waiting: { invoke: { src: 'wait' } } } });
export default defineAgents({ summary: { actor: never } });
`;

const FLAGS = ['--no-proof', '--n-candidates', '2', '--n-verifications', '2', '--max-iterations', '1', '--judge-passes', '0', '--seed', '7', '--concurrency', '16', '--sim-output-tokens', '60'];

async function run(dir: string, name: string, agents: string | null): Promise<{ messages: Message[]; output: string }> {
  const output = path.join(dir, name);
  const args = ['--input-file', path.join(dir, 'problems.jsonl'), '--output-file', output, ...FLAGS, ...(agents ? ['--agents', agents] : [])];
  const { config, secrets } = toRunConfig(parseRunFlags(args), {});
  const strategy = await resolveStrategy(config.loop);
  await runEvaluation(config, secrets, await loadProblems(config.problems.inputFile), { stdout: () => {}, stderr: () => {} }, { strategy });
  // The run id differs between runs by design; everything else must be comparable.
  return { messages: (await readLog(output)).map(({ message }) => ({ ...message, run: '' })), output };
}

function ofType<T extends MessageType>(messages: Message[], type: T): Array<MessageOf<T>> {
  return messages.filter((m): m is MessageOf<T> => m.type === type).sort((a, b) => a.correlation.localeCompare(b.correlation));
}

async function journaledRoles(output: string): Promise<Map<string, number>> {
  const store = await Store.open(output);
  const roles = new Map<string, number>();
  try {
    for await (const { role } of store.callRecords()) {
      roles.set(role, (roles.get(role) ?? 0) + 1);
    }
  } finally {
    await store.close();
  }
  return roles;
}

describe('--agents', () => {
  test('a module replacing the verification actor changes its messages, and only its', async ({ dir }) => {
    await writeProblems(dir, smallProblems(2));
    const file = path.join(dir, 'stricter.ts');
    await writeFile(file, STRICTER_VERIFIER);
    const plain = await run(dir, 'plain', null);
    const plugged = await run(dir, 'plugged', file);

    // What the verification actor does not produce is untouched: the solutions and the requests it receives.
    for (const type of ['solution.requested', 'solution.completed', 'verification.requested'] as const) {
      expect(ofType(plugged.messages, type)).toEqual(ofType(plain.messages, type));
    }
    // Same message pattern: the same types in the same numbers.
    const pattern = (messages: Message[]) => messages.map((m) => `${m.type} ${m.correlation}`).sort();
    expect(pattern(plugged.messages)).toEqual(pattern(plain.messages));

    // Its replies: the first of its two calls is the plain run's call, so its score is never above the plain one.
    const before = ofType(plain.messages, 'verification.completed');
    const after = ofType(plugged.messages, 'verification.completed');
    expect(after).toHaveLength(8);
    let stricter = 0;
    after.forEach((reply, i) => {
      const original = before[i];
      expect(reply.correlation).toBe(original?.correlation);
      expect(reply.score).not.toBeNull();
      expect(reply.score ?? 1).toBeLessThanOrEqual(original?.score ?? 0);
      if ((reply.score ?? 1) < (original?.score ?? 0)) stricter++;
    });
    expect(stricter).toBeGreaterThan(0);
    // The summaries downstream see the stricter scores.
    const summaries = ofType(plugged.messages, 'summary.requested');
    expect(summaries.flatMap((m) => m.verifications.map((v) => v.score)).sort()).toEqual(after.map((m) => m.score).sort());

    // Its second call is one more call per verification, journaled under its own name.
    const roles = await journaledRoles(plugged.output);
    expect(roles.get('verification#1')).toBe(8);
    expect(roles.get('verification')).toBe((await journaledRoles(plain.output)).get('verification'));
  });

  test('a JavaScript module replacing only the verification prompt keeps the reply parser', async ({ dir }) => {
    await writeProblems(dir, smallProblems(2));
    const file = path.join(dir, 'harsh.mjs');
    await writeFile(file, HARSH_PROMPT);
    const plain = await run(dir, 'plain', null);
    const plugged = await run(dir, 'plugged', file);

    for (const type of ['solution.requested', 'solution.completed', 'verification.requested'] as const) {
      expect(ofType(plugged.messages, type)).toEqual(ofType(plain.messages, type));
    }
    const before = ofType(plain.messages, 'verification.completed');
    const after = ofType(plugged.messages, 'verification.completed');
    expect(after.map((m) => m.correlation)).toEqual(before.map((m) => m.correlation));
    // A new prompt is a new call; the built-in parser still reads its score.
    after.forEach((reply, i) => expect(reply.call.key).not.toBe(before[i]?.call.key));
    expect(after.every((m) => m.score !== null)).toBe(true);

    const store = await Store.open(plugged.output);
    try {
      const call = await store.getCall(after[0]?.call.key ?? '');
      expect(call?.request.messages[0]?.content).toContain(HARSH);
      const solution = await store.getCall(ofType(plugged.messages, 'solution.completed')[0]?.call.key ?? '');
      expect(solution?.request.messages[0]?.content).not.toContain(HARSH);
    } finally {
      await store.close();
    }
  });

  test('mistakes in a plugin are user errors that name the file; machines and definitions apply as given', async ({ dir }) => {
    const broken = path.join(dir, 'broken.ts');
    await writeFile(broken, 'export default defineAgents({ verification: { prompt: ( } });\n');
    await expect(loadAgents(broken)).rejects.toMatchObject({ code: 'TMAS_AGENTS', message: expect.stringContaining(broken) });
    const missing = path.join(dir, 'missing.ts');
    await expect(loadAgents(missing)).rejects.toMatchObject({ code: 'TMAS_AGENTS', message: expect.stringContaining(missing) });
    const wrongRole = path.join(dir, 'wrong-role.mjs');
    await writeFile(wrongRole, 'export default { critique: { prompt: () => ({ system: "", parts: [] }) } };\n');
    await expect(resolveStrategy({ strategy: 'tmas', agents: wrongRole, prompts: {} })).rejects.toMatchObject({
      code: 'TMAS_AGENTS',
      message: expect.stringMatching(/wrong-role\.mjs.*no critique role/),
    });
    // A misspelt key is named, beside a key that is right.
    expect(() => applyAgents(strategyNamed('tmas'), { summary: { promt: () => ({ system: '', parts: [] }) } } as never)).toThrow('the summary override has "promt", which is none of actor, prompt and reply.');
    // The same override suits a strategy that has the role.
    const selfRefine = strategyNamed('self-refine');
    const refined = applyAgents(selfRefine, defineAgents({ critique: { prompt: () => ({ system: '', parts: [] }) } }));
    expect(refined.roles.critique).not.toBe(selfRefine.roles.critique);
    expect(refined.roles.rewrite).toBe(selfRefine.roles.rewrite);
    // A module that replaces nothing ran as the plain strategy under its name; `constructor` passed for a role; the judge is the shared grading.
    const tmasStrategy = strategyNamed('tmas');
    expect(() => applyAgents(tmasStrategy, [] as never)).toThrow('it exports an array: export an object made with defineAgents');
    expect(() => applyAgents(tmasStrategy, {})).toThrow('it replaces no role: the run would be the plain tmas strategy');
    expect(() => applyAgents(tmasStrategy, { constructor: { prompt: () => ({ system: '', parts: [] }) } } as never)).toThrow('the tmas strategy has no constructor role');
    expect(() => applyAgents(tmasStrategy, { judge: { prompt: () => ({ system: '', parts: [] }) } } as never)).toThrow('it replaces the judge, whose calls are the shared grading');
    // A multi-call role whose calls cannot be made stopped the run midway as an internal error.
    const multi = (calls: unknown) => ({ verification: { actor: { ...verificationRole, calls, reply: verificationRole.reply } } }) as never;
    expect(() => applyAgents(tmasStrategy, multi([]))).toThrow("the verification actor's calls is empty: give a list of at least one call");
    expect(() => applyAgents(tmasStrategy, multi([{}, { endpoint: 'sumary' }]))).toThrow(`the verification actor's calls[1].endpoint is "sumary", not an endpoint slot`);
    expect(() => applyAgents(tmasStrategy, multi([{ temperature: '0.2' }]))).toThrow(`the verification actor's calls[0].temperature is "0.2", not a number`);
    // A machine replaces the actor as it is; its prompt can then no longer be swapped on its own.
    const machine = createRoleMachine({ ...verificationRole, prompt: () => ({ system: 'You are the Verification agent.', parts: [] }) });
    const tmas = applyAgents(strategyNamed('tmas'), defineAgents({ verification: { actor: machine } }));
    expect(tmas.roles.verification).toBe(machine);
    expect(() => applyAgents(tmas, defineAgents({ verification: { prompt: () => ({ system: '', parts: [] }) } }))).toThrow(/custom machine/);
  });

  test('tmas run --agents from the sources loads the JavaScript module named (ES syntax, no package.json), not the TypeScript one of the same name beside it', async ({ dir }) => {
    await writeProblems(dir, smallProblems(1));
    // Under the tsx the bin registers, agents.js failed to load ("Cannot require() ES Module … in a cycle") or was read as agents.ts.
    await writeFile(path.join(dir, 'agents.ts'), STRICTER_VERIFIER);
    const file = path.join(dir, 'agents.js');
    await writeFile(file, HARSH_PROMPT);
    const output = path.join(dir, 'cli');
    const result = await runCli(['run', '--input-file', path.join(dir, 'problems.jsonl'), '--output-file', output, ...FLAGS, '--agents', file], { cwd: dir, env: { TMAS_FROM_SOURCES: '1' } });
    expect(result.stderr).not.toContain('internal error');
    expect(result.code, result.stderr).toBe(0);
    const verifications = (await readJournal(output)).filter((call) => call.role.startsWith('verification'));
    expect(verifications).toHaveLength(4);
    for (const call of verifications) expect(call.request.messages[0]?.content).toContain(HARSH);
  });

  test('a module whose top-level await never settles is named after the load limit, not waited on for ever (Node ended the process with exit 13 and no word)', async ({ dir }) => {
    const file = path.join(dir, 'never.mjs');
    await writeFile(file, 'await new Promise(() => {});\nexport default {};\n');
    await expect(loadAgents(file, { limitMs: 50 })).rejects.toMatchObject({ code: 'TMAS_AGENTS', message: expect.stringContaining(`${file} (--agents) has not finished loading after 0.05 s`) });
  });

  // Before, such a run waited for ever with 0 calls in flight (the problem waited on the summary's answer).
  test("a module's own machine that never answers a request stops the run after --timeout with TMAS_AGENTS naming the module and the role; the calls journaled before stay", async ({ dir }) => {
    const problems = await loadProblems(await writeProblems(dir, smallProblems(1)));
    const never = setup({ actors: { wait: fromPromise(() => new Promise<never>(() => {})) } }).createMachine({ initial: 'idle', states: { idle: { on: { '*': 'waiting' } }, waiting: { invoke: { src: 'wait' } } } });
    const strategy = applyAgents(strategyNamed('tmas'), defineAgents({ summary: { actor: never } }), 'The agents module never.mjs (--agents)');
    const output = path.join(dir, 'never');
    const { config, secrets } = toRunConfig(parseRunFlags(['--input-file', path.join(dir, 'problems.jsonl'), '--output-file', output, ...FLAGS, '--timeout', '2']), {});
    await expect(runEvaluation(config, secrets, problems, { stdout: () => {}, stderr: () => {} }, { strategy })).rejects.toMatchObject({
      code: 'TMAS_AGENTS',
      message: expect.stringMatching(/^The agents module never\.mjs \(--agents\): the summary actor \(a machine of the module's own\) left its request p1\/0\/summary\/\d+ unanswered for 2 s/),
    });
    // The solutions and verifications before the summaries were journaled, and stay for a resume.
    expect(Object.fromEntries(await journaledRoles(output))).toEqual({ solution: 2, verification: 4 });
  });

  // A machine of the module's own is built with XState's setup; a module outside the repository could not import it:
  // "failed to load: Cannot find module 'xstate'" (only 'tmas' resolved), though the docs offer `actor` a machine.
  test("a module outside the repository, TypeScript or JavaScript, builds its own machine with 'xstate' (tmas's own copy); one that never answers stops the run after --timeout", async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(1));
    // The two runs share nothing but the problems: started together, each child's start overlaps the other's wait.
    await Promise.all(
      ['never.ts', 'never.mjs'].map(async (name) => {
        const file = path.join(dir, name);
        await writeFile(file, NEVER_ANSWERING_MACHINE);
        const result = await runCli(['run', '--input-file', input, '--output-file', path.join(dir, `out-${name}`), ...FLAGS, '--timeout', '1', '--agents', file]);
        expect(result.code, result.stderr).toBe(2);
        expect(result.stderr).toContain(`The agents module ${file} (--agents): the summary actor (a machine of the module's own) left its request p1/0/summary/`);
        expect(result.stderr).toContain('[TMAS_AGENTS]');
      }),
    );
  });

  // 7fbeddc resolved 'xstate' from tmas's folder for every module: one that shipped XState of its own (a version it pinned)
  // silently got tmas's instead, where main had given it its own.
  test("a module outside the repository with an XState of its own imports that one, TypeScript or JavaScript", async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(1));
    const own = path.join(dir, 'node_modules', 'xstate');
    await mkdir(own, { recursive: true });
    await writeFile(path.join(own, 'package.json'), JSON.stringify({ name: 'xstate', version: '5.0.0-own', exports: { '.': { import: './index.mjs', require: './index.cjs' } } }));
    await writeFile(path.join(own, 'index.mjs'), "export const which = 'its own';\n");
    await writeFile(path.join(own, 'index.cjs'), "exports.which = 'its own';\n");
    const text = "import { defineAgents } from 'tmas';\nimport * as xstate from 'xstate';\nconst which: string = (xstate as { which?: string }).which ?? \"tmas's\";\nexport default defineAgents({ verification: { prompt: () => { throw new Error(`xstate: ${which}`); } } });\n";
    await Promise.all(
      ['own.ts', 'own.mjs'].map(async (name) => {
        const file = path.join(dir, name);
        await writeFile(file, name.endsWith('.ts') ? text : text.replace(': string', '').replace(' as { which?: string }', ''));
        const result = await runCli(['run', '--input-file', input, '--output-file', path.join(dir, `out-${name}`), ...FLAGS, '--agents', file]);
        expect(result.code, result.stderr).toBe(2);
        expect(result.stderr).toContain(`The agents module ${file} (--agents): the verification prompt threw: xstate: its own`);
      }),
    );
  });

  // A fork first runs offline to estimate what DIR answers: nothing there held the process up, and a machine that never
  // answered ended `tmas fork` with exit 13 and not a word (so would `tmas replay --agents`).
  test('a fork with a module whose machine never answers stops with TMAS_AGENTS after --timeout (exit 2), before anything is written', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(1));
    const source = path.join(dir, 'source');
    expect((await runCliInProcess(['run', '--input-file', input, '--output-file', source, ...FLAGS])).code).toBe(0);
    const file = path.join(dir, 'never.mjs');
    await writeFile(file, NEVER_ANSWERING_MACHINE);
    const fork = path.join(dir, 'fork');
    const result = await runCli(['fork', source, '--output-file', fork, '--timeout', '1', '--agents', file]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`The agents module ${file} (--agents): the summary actor (a machine of the module's own) left its request p1/0/summary/`);
    await expect(readdir(fork)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  // "the verification prompt threw: boom" left the user to search the module for the line.
  test("a JavaScript module's function that throws is named by the file, line and column it threw at, ES module or CommonJS", async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(1));
    const modules = {
      'throws.mjs': "import { defineAgents } from 'tmas';\nexport default defineAgents({\n  verification: {\n    prompt: () => { throw new Error('no prompt today'); },\n  },\n});\n",
      'throws.cjs': "module.exports = {\n  verification: {\n    prompt: () => {\n      throw new Error('no prompt today');\n    },\n  },\n};\n",
    };
    const lines = { 'throws.mjs': 4, 'throws.cjs': 4 };
    for (const [name, text] of Object.entries(modules)) {
      const file = path.join(dir, name);
      await writeFile(file, text);
      const result = await runCliInProcess(['run', '--input-file', input, '--output-file', path.join(dir, `out-${name}`), ...FLAGS, '--agents', file]);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(`The agents module ${file} (--agents): the verification prompt threw: no prompt today (at ${file}:${lines[name as keyof typeof lines]}:`);
    }
  });

  // Run from the build (as a child process runs it), a TypeScript module's frame is a data: URL and the next was tmas's own
  // chunk: "threw: no prompt today (at …/dist/chunks/chunk-….js:428:16)". A stack getter that threw was an internal error (exit 1),
  // and a stack of any size was split whole, its far end read as the module's line.
  test("a module's error is never placed in tmas's own code, and its stack is read bounded: a TypeScript module, a stack getter that throws, a stack of 10,000 lines", async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(1));
    const modules = {
      'throws.ts': "import { defineAgents } from 'tmas';\ntype Unused = { a: number } | null;\nexport default defineAgents({\n  verification: {\n    prompt: (): never => {\n      throw new Error('no prompt today');\n    },\n  },\n});\n",
      'getter.mjs': "import { defineAgents } from 'tmas';\nconst failing = () => { const error = new Error('no prompt today'); Object.defineProperty(error, 'stack', { get() { throw new Error('no stack either'); } }); throw error; };\nexport default defineAgents({ verification: { prompt: failing } });\n",
      'long.mjs': "import { defineAgents } from 'tmas';\nconst failing = () => { const error = new Error('no prompt today'); error.stack = 'Error: no prompt today\\n' + '    at somewhere\\n'.repeat(10000) + '    at /far/away.mjs:1:1'; throw error; };\nexport default defineAgents({ verification: { prompt: failing } });\n",
    };
    // The TypeScript module from the build, in a child, where its frame was misplaced; the other two read their stacks
    // alike from the sources, in this process (a child's start and pool are a second and a half of CPU time each).
    await Promise.all(
      Object.entries(modules).map(async ([name, text]) => {
        const file = path.join(dir, name);
        await writeFile(file, text);
        const args = ['run', '--input-file', input, '--output-file', path.join(dir, `out-${name}`), ...FLAGS, '--agents', file];
        const result = await (name.endsWith('.ts') ? runCli(args) : runCliInProcess(args));
        expect(result.code, result.stderr).toBe(2);
        expect(result.stderr).toContain(`The agents module ${file} (--agents): the verification prompt threw: no prompt today. Fix the module`);
      }),
    );
  });

  test("a module's prompt that never fits the window loses that role's calls with a warning naming the role, the count, the reason and the module, not only a count in the table", async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(1));
    const file = path.join(dir, 'long.mjs');
    await writeFile(file, 'export default { summary: { prompt: (r) => ({ system: "You are the Summary agent.", parts: [{ id: "all", text: "word ".repeat(6000) }] }) } };\n');
    const result = await runCliInProcess(['run', '--input-file', input, '--output-file', path.join(dir, 'long'), ...FLAGS, '--max-tokens', '4096', '--agents', file]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/tmas: warning: 2 summary calls were not sent: the prompt did not fit the context window even trimmed \(the first: not sent: the prompt needs \d+ tokens after trimming, over the budget of \d+ \(--max-tokens 4096\)\)/);
    expect(result.stderr).toContain('If the agents module long.mjs (--agents) writes the summary prompt, shorten what it sends');
  });

  test("a plugin's prompt or reply that throws, or returns what the run cannot use, stops the run as the plugin's error (TMAS_AGENTS, exit 2), not tmas's", async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(1));
    // `run` reads DIR/problems.jsonl: the file written here.
    const cases = [
      { name: 'throws', override: 'prompt: () => { throw new Error("prompt boom"); }', says: 'the summary prompt threw: prompt boom' },
      { name: 'shape', override: 'prompt: () => ({ nope: 1 })', says: 'the summary prompt returned an object with keys nope, not a prompt' },
      { name: 'reply', override: 'reply: () => ({ type: "summary.completed" })', says: "the summary reply returned a message without the request's run, problem, iteration and correlation" },
      { name: 'type', override: 'reply: (request) => ({ ...request, type: "verification.completed" })', says: `the summary reply returned a message of type "verification.completed", not 'summary.completed'` },
      // A prompt of the right outline with a part the pool cannot fit stopped the run with a TypeError and tmas's stack trace.
      { name: 'part', override: 'prompt: (request) => ({ system: "You are the Summary agent.", parts: [{ id: "a", text: 42 }] })', says: "the summary prompt returned a prompt whose parts[0]'s text is number, not a string" },
      { name: 'system', override: 'prompt: () => ({ system: {}, parts: [] })', says: 'the summary prompt returned a prompt whose system is an object with keys (none), not a text or a template part' },
      // A multi-call role's functions were called unguarded: its reply's wrong type was 'no route for message type nope', exit 1.
      // An async prompt or reply (a promise, perhaps one that never settles) was 'an object with keys (none)', 'a message of type undefined'.
      { name: 'async-prompt', override: 'prompt: async () => new Promise(() => {})', says: 'the summary prompt returned a Promise (the run calls it synchronously and cannot wait' },
      { name: 'async-reply', override: 'reply: async (request) => ({ ...request, type: "summary.completed" })', says: 'the summary reply returned a Promise (the run calls it synchronously and cannot wait' },
      { name: 'multi', override: 'actor: { ...summaryRole, calls: [{}, {}], reply: () => ({ type: "nope" }) }', says: `the summary reply returned a message of type "nope", not 'summary.completed'` },
    ];
    const files = await Promise.all(
      cases.map(async ({ name, override }) => {
        const file = path.join(dir, `${name}.mjs`);
        await writeFile(file, `import { summaryRole } from ${API};\nexport default { summary: { ${override} } };\n`);
        return file;
      }),
    );
    // As a user sees it, once, through the command line's own handling of errors: exit 2 with the code, no internal error; the other cases through the run alone.
    const result = await runCliInProcess(['run', '--input-file', input, '--output-file', path.join(dir, 'cli'), ...FLAGS, '--agents', files[0] as string]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`${files[0]} (--agents): ${cases[0]?.says}`);
    expect(result.stderr).toContain('[TMAS_AGENTS]');
    expect(result.stderr).not.toContain('internal error');
    for (const [index, { name, says }] of cases.entries()) {
      if (index === 0) continue;
      const file = files[index] as string;
      await expect(run(dir, name, file)).rejects.toMatchObject({ code: 'TMAS_AGENTS', message: expect.stringContaining(`${file} (--agents): ${says}`) });
    }
  });

  // Before, only the module's own file was hashed: a helper it imports edited between two forks left them reading alike.
  test("the module's digest covers the local files it imports, transitively, and no package; a run recorded by its file alone is checked as it was", async ({ dir }) => {
    const module = path.join(dir, 'agents.ts');
    await mkdir(path.join(dir, 'lib'));
    await writeFile(module, `import { defineAgents } from ${API};\nimport { harsh } from './lib/wording.js';\nexport default defineAgents({ summary: { prompt: harsh } });\n`);
    await writeFile(path.join(dir, 'lib', 'wording.ts'), `export { harsh } from './deeper';\n`);
    await writeFile(path.join(dir, 'lib', 'deeper.ts'), `export const harsh = () => ({ system: 'Be harsh.', parts: [] });\n`);
    const first = runAgentsAt(module).agentsDigest;
    expect(first).not.toBe(`sha256:${createHash('sha256').update(await readFile(module)).digest('hex')}`);
    // An edit two imports down is a change of the module; the same edit undone is none.
    await appendFile(path.join(dir, 'lib', 'deeper.ts'), '// stricter\n');
    const edited = runAgentsAt(module).agentsDigest;
    expect(edited).not.toBe(first);
    const recorded = { agents: module, agentsDigest: first };
    expect(() => checkRunAgents(recorded, dir, { force: false, command: 'tmas run --resume' })).toThrow('(or a local file it imports) has changed');
    // A module that imports no local file keeps the digest of its file alone, as runs before recorded it.
    const alone = path.join(dir, 'alone.mjs');
    await writeFile(alone, HARSH_PROMPT);
    expect(runAgentsAt(alone).agentsDigest).toBe(`sha256:${createHash('sha256').update(await readFile(alone)).digest('hex')}`);
    // A run recorded before imports were hashed (its file's digest alone) resumes checked by it.
    const legacy = { agents: module, agentsDigest: `sha256:${createHash('sha256').update(await readFile(module)).digest('hex')}` };
    expect(checkRunAgents(legacy, dir, { force: false, command: 'tmas run --resume' }).agentsDigest).toBe(legacy.agentsDigest);
  });

  test('a run moved with its agents module resumes and replays once told where the same module lies; another or an edited module is refused', async ({ dir }) => {
    // Machine A: the problems, the module and the run side by side; then all of it moves (to B).
    const a = path.join(dir, 'a');
    await mkdir(a);
    await writeProblems(a, smallProblems(1));
    await writeFile(path.join(a, 'stricter.ts'), STRICTER_VERIFIER);
    const started = await runCliInProcess(['run', '--input-file', path.join(a, 'problems.jsonl'), '--output-file', path.join(a, 'run'), ...FLAGS, '--agents', path.join(a, 'stricter.ts')]);
    expect(started.code, started.stderr).toBe(0);
    await rename(a, path.join(dir, 'b'));
    const run = path.join(dir, 'b', 'run');
    const moved = path.join(dir, 'b', 'stricter.ts');

    const lost = await runCliInProcess(['replay', run]);
    expect(lost.code, lost.stderr).toBe(2);
    expect(lost.stderr).toContain(`uses the agents module ${path.join(a, 'stricter.ts')} (sha256:`);
    expect(lost.stderr).toContain('give tmas replay --agents');
    const replayed = await runCliInProcess(['replay', run, '--agents', moved]);
    expect(replayed.code, replayed.stdout + replayed.stderr).toBe(0);
    expect(replayed.stdout).toContain('identical');

    // Another module is another run's.
    const harsh = path.join(dir, 'harsh.mjs');
    await writeFile(harsh, HARSH_PROMPT);
    const other = await runCliInProcess(['run', '--resume', run, '--max-iterations', '2', '--agents', harsh]);
    expect(other.code, other.stderr).toBe(2);
    expect(other.stderr).toContain('TMAS_RESUME_CONFLICT');
    expect(other.stderr).toContain('--agents: the run has "sha256:');
    // The same module at its new place is no change: the run goes on, its first iteration answered from the journal.
    const resumed = await runCliInProcess(['run', '--resume', run, '--max-iterations', '2', '--agents', moved]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/answered from the journal/);
    expect((await readFile(path.join(run, 'results.jsonl'), 'utf8')).trim().split('\n')).toHaveLength(2);

    // Edited in place since: refused, unless --force, which goes on with it under its new digest.
    const recorded = runAgentsAt(moved);
    await appendFile(moved, '\n// a later edit\n');
    expect(() => checkRunAgents(recorded, run, { force: false, command: 'tmas run --resume' })).toThrow(`The agents module ${moved} (or a local file it imports) has changed since the run`);
    const forced = checkRunAgents(recorded, run, { force: true, command: 'tmas run --resume' });
    expect(forced.agentsDigest).toBe(runAgentsAt(moved).agentsDigest);
    expect(forced.agentsDigest).not.toBe(recorded.agentsDigest);
  });
});
