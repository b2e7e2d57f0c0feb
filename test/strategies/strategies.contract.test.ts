/**
 * The contract every registered strategy runs (as abstract-level's suite runs
 * against every implementation): registering a strategy is enough to have it
 * tested. Each one, on the simulated model: completes T iterations with the
 * calls its declaration promises; resumes after an interruption with results
 * identical to an uninterrupted run and no completed call paid twice; replays
 * as identical; exports.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { STRATEGIES } from '../../machines/strategies/index.ts';
import { judgeRole } from '../../machines/roles/judge.role.ts';
import type { RoleDefinition } from '../../machines/role.machine.ts';
import { parseRunFlags, toRunConfig } from '../../src/cli/run/run.command.ts';
import { runExportCommand } from '../../src/cli/inspect/export.command.ts';
import { replayRun } from '../../src/analysis/replay.ts';
import { loadProblems } from '../../src/input/problems.ts';
import { ENDPOINT_SLOTS } from '../../src/kernel/slots.ts';
import { runEvaluation, type RunOutcome } from '../../src/host/run/run-evaluation.ts';
import { expectedCallsOf, toProblemInputs } from '../../src/host/problem-inputs.ts';
import { isUserError } from '../../src/kernel/errors.ts';
import type { Secrets } from '../../src/settings/config.ts';
import { readJournal, readLog, smallProblems, test, writeProblems } from '../fixtures.ts';

/** Small settings every strategy accepts; each strategy's own flags keep their defaults. */
const SETTINGS = ['--no-proof', '--n-candidates', '2', '--n-verifications', '2', '--max-iterations', '2', '--judge-passes', '1', '--concurrency', '8'];
/**
 * The one own flag not left at its default, majority's width: its 64 samples a problem are 64 calls alike, each
 * judged, run three times over (whole, stopped, resumed) for what 8 show as well.
 */
const OWN: Record<string, string[]> = { majority: ['--samples', '8'] };
const QUIET = { stdout: () => {}, stderr: () => {} };
const SECRETS = Object.fromEntries(ENDPOINT_SLOTS.map((slot) => [slot, 'EMPTY'])) as Secrets;

/** Runs a strategy in-process; `stopAfter` aborts it once that many replies are on the bus, as Ctrl-C would. */
async function run(args: string[], options: { resume?: boolean; stopAfter?: number } = {}): Promise<{ outcome: RunOutcome | null; completed: Record<string, number> }> {
  const { config, secrets } = toRunConfig(parseRunFlags(args), {});
  const problems = await loadProblems(config.problems.inputFile);
  const completed: Record<string, number> = {};
  const controller = new AbortController();
  let replies = 0;
  try {
    const outcome = await runEvaluation(config, secrets, problems, QUIET, {
      resume: options.resume === true,
      signal: controller.signal,
      observe: ({ envelopes$ }) =>
        envelopes$.subscribe(({ message }) => {
          if (!message.type.endsWith('.completed') || message.type.startsWith('problem.') || message.type.startsWith('run.') || message.type.startsWith('iteration.')) return;
          const role = message.type.slice(0, -'.completed'.length);
          completed[role] = (completed[role] ?? 0) + 1;
          if (++replies === options.stopAfter) controller.abort();
        }),
    });
    return { outcome, completed };
  } catch (error) {
    if (isUserError(error) || (error as { code?: string }).code !== 'TMAS_INTERRUPTED') throw error;
    return { outcome: null, completed };
  }
}

describe.each(Object.values(STRATEGIES).map((strategy) => [strategy.name, strategy] as const))('strategy contract: %s', (name, strategy) => {
  test('declares a simulator format for each of its roles', () => {
    expect(Object.keys(strategy.sim).sort()).toEqual(Object.keys(strategy.roles).sort());
  });

  test('places only its own roles at stages of an iteration, counted from 0', () => {
    for (const [role, stage] of Object.entries(strategy.stages ?? {})) {
      expect(Object.keys(strategy.roles)).toContain(role);
      expect(Number.isInteger(stage) && stage >= 0, `${role} at stage ${stage}`).toBe(true);
    }
  });

  test('places every role when it has several, so that the held calls are sent by what is left of each problem', () => {
    // The judge grades; its calls are ranked apart, after the loop's.
    const roles = Object.keys(strategy.roles).filter((role) => role !== 'judge');
    if (roles.length > 1) expect(Object.keys(strategy.stages ?? {}).sort()).toEqual(roles.sort());
  });

  test('completes T iterations with the calls it declares, resumes after an interruption paying for no call twice, replays as identical and exports', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(2));
    const full = path.join(dir, 'full');
    const base = ['--input-file', input, '--strategy', name, ...SETTINGS, ...(OWN[name] ?? [])];

    // Uninterrupted: every problem has a result line per iteration, and the declared calls were made.
    const whole = await run([...base, '--output-file', full]);
    const results = await readFile(path.join(full, 'results.jsonl'), 'utf8');
    const lines = results.trim().split('\n').map((line) => JSON.parse(line) as { problem: string; iteration: number });
    expect(lines.map((line) => `${line.problem}/${line.iteration}`).sort()).toEqual(['p1/0', 'p1/1', 'p2/0', 'p2/1']);
    const { config } = toRunConfig(parseRunFlags([...base, '--output-file', full]), {});
    const problems = await loadProblems(input);
    const inputs = toProblemInputs('r', config, problems, null);
    const declared = expectedCallsOf(strategy, inputs, config.loop.proof);
    for (const [role, count] of Object.entries(declared)) expect({ role, count: whole.completed[role] ?? 0 }).toEqual({ role, count });
    // What `tmas plan` counts as an upper bound, per problem, holds the run's calls.
    const bounds = strategy.callBounds?.(inputs[0]!.settings) ?? {};
    for (const [role, bound] of Object.entries(bounds)) expect(whole.completed[role] ?? 0, `${role} calls`).toBeLessThanOrEqual(problems.length * (bound ?? 0));
    const issuedWhole = whole.outcome?.calls.issued ?? 0;
    expect(issuedWhole).toBeGreaterThan(0);

    // Interrupted part-way, then resumed: the same results, and only calls that never completed are issued again.
    const split = path.join(dir, 'split');
    const total = Object.values(whole.completed).reduce((sum, n) => sum + n, 0);
    const first = await run([...base, '--output-file', split], { stopAfter: Math.ceil(total * 0.3) });
    expect(first.outcome).toBeNull();
    const paidBefore = (await readJournal(split)).length;
    expect(paidBefore).toBeGreaterThan(0);
    expect(paidBefore).toBeLessThan(issuedWhole);
    const second = await run([...base, '--output-file', split], { resume: true });
    expect(await readFile(path.join(split, 'results.jsonl'), 'utf8')).toBe(results);
    // Nothing paid twice: what the resumed process issued is exactly what the interrupted one had not completed.
    // (Not every journaled call is asked again: a problem resumes after its last saved iteration, and under load
    // an iteration may be saved before the stop lands, so the reused count may be below the journal's.)
    expect(paidBefore + (second.outcome?.calls.issued ?? 0)).toBe(issuedWhole);
    expect((await readJournal(split)).length).toBe(issuedWhole);

    // Replay: every completion from the journal, the same messages.
    const replay = await replayRun(full, { secrets: SECRETS });
    expect(replay.divergence).toBeNull();
    expect(replay.identical).toBe(true);

    const exported = await runExportCommand(full, { format: 'rl', out: path.join(dir, 'export.jsonl') });
    const records = (await readFile(path.join(dir, 'export.jsonl'), 'utf8')).split('\n').filter(Boolean).length;
    expect(records).toBe(exported.records);
    // Every generation the strategy made is a record.
    expect(records).toBe(issuedWhole);

    // A call about one candidate says which (the viewer's transcripts): the role's subject inverts its index.
    const definitions: Record<string, RoleDefinition> = { judge: judgeRole, ...strategy.definitions };
    for (const { message } of await readLog(full)) {
      const definition = definitions[message.type.slice(0, -'.requested'.length)];
      if (!message.type.endsWith('.requested') || !definition || !('candidate' in message)) continue;
      const subject = definition.subject?.(definition.index(message));
      expect({ type: message.type, candidate: subject?.candidate }).toEqual({ type: message.type, candidate: message.candidate });
    }
  });
});
