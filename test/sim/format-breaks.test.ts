/**
 * No method degrades unseen. The simulator in its format-breaking mode
 * answers a share of requests out of their role's format (a missing section,
 * no box or several, JSON with other keys, prose, a reply cut off); every
 * strategy run against it, over real sockets, finishes, counts the unusable
 * outputs of each role that has a format in metrics.json's `outputsByRole`,
 * and warns of a role whose share of them in an iteration passes 10%.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { SIM_ROLES } from '../../machines/strategies/sim-roles.ts';
import type { IterationMetrics } from '../../src/observers/metrics.ts';
import { roleOutputTotals, unusableOutputWarnings } from '../../src/observers/role-outputs.ts';
import { startSimServer, type SimServer } from '../../src/sim/server.ts';
import { readJournal, runInProcess, smallProblems, test, writeProblems, runCliInProcess } from '../fixtures.ts';

/** The share of replies the simulator breaks. */
const RATE = 0.3;
const PROBLEMS = smallProblems(12);
/**
 * A reply the mode cuts off runs on to the completion limit and is cut there: at what the window leaves (up to
 * some 100,000 tokens) each such reply cost a count, a journal entry and a log line of hundreds of kilobytes.
 * 1,500 tokens is 25 times a simulated reply, and a cut still ends at the limit (finish reason `length`), which is
 * what makes it unusable.
 */
const SMALL = ['--no-proof', '--no-stream', '--model-name', 'tmas-sim', '--judge-passes', '0', '--concurrency', '32', '--completion-max-tokens', '1500'];
let sim: SimServer;

beforeAll(async () => {
  sim = await startSimServer({ problems: PROBLEMS.map((p) => ({ id: p.problem_id, question: p.question, answer: p.answer })), seed: 3, roles: SIM_ROLES, breakFormats: RATE, outputTokens: 60 });
});
afterAll(async () => {
  await sim.close();
});

/**
 * Each strategy with small sizes, and the roles of it whose replies have a
 * format a break can spoil. TMAS's summary is read leniently (its whole reply
 * is the summary when the `SUMMARY:` label is missing, and a summary cut off
 * still says something), so it is not among them. Each role makes some 20
 * calls at least (more problems where a role calls once a problem and round),
 * so that some of its replies break (at a chance of 0.3 each, or 0.15 for
 * Self-Refine's critique, which only a cut spoils).
 */
const STRATEGIES: Array<{ strategy: string; problems: number; flags: string[]; roles: string[] }> = [
  { strategy: 'majority', problems: 4, flags: ['--samples', '8'], roles: ['solution'] },
  { strategy: 'self-refine', problems: 6, flags: ['--n-candidates', '8'], roles: ['solution', 'critique', 'rewrite'] },
  { strategy: 'verify-refine', problems: 4, flags: ['--n-candidates', '4', '--n-verifications', '2'], roles: ['prover', 'rater'] },
  { strategy: 'verify-refine-chains', problems: 4, flags: ['--n-candidates', '4', '--n-verifications', '2'], roles: ['solution', 'verification', 'refine'] },
  { strategy: 'rse', problems: 4, flags: ['--n-candidates', '4'], roles: ['rollout', 'distill'] },
  { strategy: 'pacore', problems: 4, flags: ['--n-candidates', '4'], roles: ['synthesis'] },
  { strategy: 'mas-ceo', problems: 12, flags: [], roles: ['ceo', 'recruiter', 'solver', 'critic', 'evaluator'] },
  { strategy: 'tmas', problems: 12, flags: ['--n-candidates', '2', '--n-verifications', '2', '--judge-passes', '1'], roles: ['solution', 'verification', 'experience', 'guideline', 'judge'] },
];

describe('every strategy against a simulator that breaks formats', () => {
  for (const { strategy, problems, flags, roles } of STRATEGIES) {
    test(`${strategy}: the run finishes, each role with a format counts unusable outputs, and the end of the run warns`, async ({ dir }) => {
      const input = await writeProblems(dir, PROBLEMS.slice(0, problems));
      const out = path.join(dir, strategy);
      const outcome = await runInProcess(['--strategy', strategy, '--input-file', input, '--output-file', out, '--base-url', sim.url, '--max-iterations', '2', ...SMALL, ...flags]);
      expect(outcome.stopped).toEqual([]);
      expect(outcome.iterations.map((it) => it.iteration)).toEqual([0, 1]);

      // What metrics.json says, as a user reads it.
      const metrics = JSON.parse(await readFile(path.join(out, 'metrics.json'), 'utf8')) as { iterations: IterationMetrics[] };
      const totals = roleOutputTotals(metrics.iterations);
      for (const role of roles) {
        expect(totals[role]?.unusable, `${role}: ${JSON.stringify(totals[role])}`).toBeGreaterThan(0);
        expect(totals[role]?.reason).toEqual(expect.any(String));
      }
      const unusable = Object.values(totals).reduce((sum, counts) => sum + counts.unusable, 0);
      expect(metrics.iterations.reduce((sum, it) => sum + it.faults.invalidOutputs + it.faults.parseRetries, 0)).toBeGreaterThan(0);
      expect(unusable).toBeGreaterThan(0);

      // Every call paid is counted, an attempt asked again for an unusable output included: the journal holds each once.
      const journal = await readJournal(out);
      const { totals: paid } = JSON.parse(await readFile(path.join(out, 'metrics.json'), 'utf8')) as { totals: { calls: number; tokens: { total: number } } };
      expect(paid.calls).toBe(journal.length);
      expect(paid.tokens.total).toBe(journal.reduce((sum, call) => sum + call.usage.promptTokens + call.usage.completionTokens, 0));

      const warnings = unusableOutputWarnings(metrics.iterations, out);
      expect(warnings.length).toBeGreaterThan(0);
      for (const warning of warnings) expect(warning).toMatch(/^tmas: warning: (every output of the \w+ role was|\d+ of \d+ outputs \([\d.]+%\) of the \w+ role were) unusable in iterations? /);
    });
  }

  test('tmas table1 warns on stderr and marks the method in table1.md, with the share', async ({ dir }) => {
    const input = await writeProblems(dir, PROBLEMS.slice(0, 4));
    const out = path.join(dir, 'table1');
    const result = await runCliInProcess(['table1', '--strategies', 'verify-refine', '--input-file', input, '--output-file', out, '--base-url', sim.url, '--max-iterations', '2', ...SMALL, '--n-candidates', '4', '--n-verifications', '2']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/tmas: warning: verify-refine: (every output of the (prover|rater) role was|\d+ of \d+ outputs \([\d.]+%\) of the (prover|rater) role were) unusable/);
    const table = await readFile(path.join(out, 'table1.md'), 'utf8');
    expect(table).toMatch(/^\| iteration \| verify-refine ⚠ \|$/m);
    expect(table).toMatch(/^- ⚠ verify-refine: (every output of the \w+ role was unusable|\d+ of \d+ outputs \([\d.]+%\) of the \w+ role were unusable)/m);
  });
});

describe('the format-breaking mode', () => {
  /** One chat request of `role` about the first problem, with `rest` after its problem block. */
  async function ask(url: string, role: string, rest: string, seed: number): Promise<{ content: string; finish: string }> {
    const body = { model: 'tmas-sim', seed, messages: [{ role: 'system', content: `You are the ${role} agent` }, { role: 'user', content: `<problem>\n${PROBLEMS[0]?.question}\n</problem>\n\n${rest}` }] };
    const reply = (await (await fetch(`${url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json()) as {
      choices: Array<{ message: { content: string }; finish_reason: string }>;
    };
    return { content: reply.choices[0]?.message.content ?? '', finish: reply.choices[0]?.finish_reason ?? '' };
  }
  const SOLUTION = '<solution>\nSo the product is \\boxed{6}.\n</solution>';
  const REQUESTS: Array<[string, string]> = [
    ['Prover', ''],
    ['Rater', SOLUTION],
    ['Distill', SOLUTION],
    ['Recruiter', '<recruit count="3">'],
    ['Critic', SOLUTION],
    ['Solution', ''],
  ];

  test('at rate 0 every reply is the one a simulator without the mode sends; a broken reply is the same for the same request', async () => {
    const problems = PROBLEMS.map((p) => ({ id: p.problem_id, question: p.question, answer: p.answer }));
    const plain = await startSimServer({ problems, seed: 3, roles: SIM_ROLES });
    const off = await startSimServer({ problems, seed: 3, roles: SIM_ROLES, breakFormats: 0 });
    try {
      for (const [role, rest] of REQUESTS) {
        for (const seed of [1, 2, 3, 4]) {
          const intact = await ask(plain.url, role, rest, seed);
          expect(await ask(off.url, role, rest, seed)).toEqual(intact);
          // Asked twice, the breaking simulator answers the same.
          expect(await ask(sim.url, role, rest, seed)).toEqual(await ask(sim.url, role, rest, seed));
        }
      }
      expect(Object.values(off.stats().formatBreaks).every((count) => count === 0)).toBe(true);
    } finally {
      await plain.close();
      await off.close();
    }
  });

  test('at rate 1 every reply breaks its format in a way its role can tell', async () => {
    const problems = PROBLEMS.map((p) => ({ id: p.problem_id, question: p.question, answer: p.answer }));
    const always = await startSimServer({ problems, seed: 3, roles: SIM_ROLES, breakFormats: 1 });
    try {
      for (let seed = 1; seed <= 12; seed++) {
        const recruiter = await ask(always.url, 'Recruiter', '<recruit count="3">', seed);
        // Prose, or a list cut off in or before its third expert.
        expect(recruiter.finish === 'length' || (recruiter.content.match(/^Expert \d+: .+$/gm)?.length ?? 0) < 3).toBe(true);
        const critic = await ask(always.url, 'Critic', SOLUTION, seed);
        expect(critic.content).not.toMatch(/Decision: (agree|disagree)\s*$/);
        const distill = await ask(always.url, 'Distill', SOLUTION, seed);
        expect(distill.content).not.toMatch(/^\{"verified_propositions":.*\}$/s);
      }
      const breaks = always.stats().formatBreaks;
      expect(Object.values(breaks).reduce((a, b) => a + b, 0)).toBe(36);
      expect(breaks.truncate).toBeGreaterThan(0);
    } finally {
      await always.close();
    }
  });

  test('a rate outside [0, 1] is refused at start', async () => {
    await expect(startSimServer({ problems: [], breakFormats: 1.5 })).rejects.toThrow(/breakFormats must be a rate in \[0, 1\], got 1\.5/);
  });
});
