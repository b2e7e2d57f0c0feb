/**
 * The baseline strategies, each run end to end against the simulated model
 * with `--strategy`, asserting the message pattern of every iteration.
 */
import path from 'node:path';
import { describe, expect } from 'vitest';
import { masCeoProgram, MAX_INNER_TURNS } from '../../machines/strategies/mas-ceo/mas-ceo.program.ts';
import { parseCeo } from '../../machines/strategies/mas-ceo/mas-ceo.roles.ts';
import { MAX_DISTILL_ATTEMPTS } from '../../machines/strategies/rse/rse.roles.ts';
import type { Message } from '../../src/kernel/protocol.ts';
import { Store } from '../../src/store/store.ts';
import { ofType, runStrategy, test, runCliInProcess } from '../fixtures.ts';

async function systemPromptOf(dir: string, key: string): Promise<string> {
  const store = await Store.open(path.join(dir, 'out'));
  try {
    return (await store.getCall(key))?.request.messages.find((m) => m.role === 'system')?.content ?? '';
  } finally {
    await store.close();
  }
}

describe('--strategy', () => {
  test('majority: k samples, and iteration t holds the first k·(t+1)/T of them', async ({ dir }) => {
    const messages = await runStrategy(dir, 'majority', ['--samples', '6', '--max-iterations', '3']);
    for (const problem of ['p1', 'p2']) {
      expect(ofType(messages, 'solution.requested', problem)).toHaveLength(6);
      const iterations = ofType(messages, 'iteration.completed', problem);
      expect(iterations.map((m) => m.iteration)).toEqual([0, 1, 2]);
      expect(iterations.map((m) => m.candidates.length)).toEqual([2, 4, 6]);
      const answers = iterations.map((m) => m.candidates.map((c) => c.answer));
      expect(answers[2]?.slice(0, 4)).toEqual(answers[1]);
      expect(answers[1]?.slice(0, 2)).toEqual(answers[0]);
    }
  });

  test('majority with --vote-pool: the pool is drawn (n ≥ k samples), and iteration t holds the first n·(t+1)/T of them', async ({ dir }) => {
    const messages = await runStrategy(dir, 'majority', ['--samples', '2', '--vote-pool', '6', '--max-iterations', '3']);
    for (const problem of ['p1', 'p2']) {
      expect(ofType(messages, 'solution.requested', problem)).toHaveLength(6);
      expect(ofType(messages, 'iteration.completed', problem).map((m) => m.candidates.length)).toEqual([2, 4, 6]);
    }
  });

  test('majority: a --vote-pool below --samples is refused, naming both (it was raised to k without a word)', async () => {
    const refused = await runCliInProcess(['run', '--demo', '--strategy', 'majority', '--samples', '8', '--vote-pool', '4']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--vote-pool 4 is below --samples 8');
  });

  test('self-refine: per iteration after the first, a critique then a rewrite of each running candidate’s own solution', async ({ dir }) => {
    const messages = await runStrategy(dir, 'self-refine', ['--n-candidates', '3', '--max-iterations', '3']);
    for (const problem of ['p1', 'p2']) {
      expect(ofType(messages, 'solution.requested', problem, 0)).toHaveLength(3);
      expect(ofType(messages, 'critique.requested', problem, 0)).toHaveLength(0);
      const stopped = new Set<number>();
      for (const iteration of [1, 2]) {
        const critiques = ofType(messages, 'critique.requested', problem, iteration);
        const rewrites = ofType(messages, 'rewrite.requested', problem, iteration);
        // Every candidate not stopped is critiqued; every critique that finds an error is followed by a rewrite.
        expect(critiques.map((m) => m.candidate).sort()).toEqual([0, 1, 2].filter((c) => !stopped.has(c)));
        for (const critique of ofType(messages, 'critique.completed', problem, iteration)) if (critique.correct) stopped.add(critique.candidate);
        expect(rewrites.map((m) => m.candidate).sort()).toEqual([0, 1, 2].filter((c) => !stopped.has(c)));
        const before = ofType(messages, 'iteration.completed', problem, iteration - 1)[0];
        const texts = new Map([
          ...ofType(messages, 'solution.completed', problem, iteration - 1).map((m) => [m.candidate, m.text] as const),
          ...ofType(messages, 'rewrite.completed', problem, iteration - 1).map((m) => [m.candidate, m.text] as const),
        ]);
        for (const rewrite of rewrites) {
          // Its own solution, and its own critique of it.
          expect(rewrite.solution).toBe(texts.get(rewrite.candidate));
          const critique = ofType(messages, 'critique.completed', problem, iteration).find((m) => m.candidate === rewrite.candidate);
          expect(rewrite.critique).toBe(critique?.critique);
          expect(critiques.find((m) => m.candidate === rewrite.candidate)?.solution).toBe(rewrite.solution);
          // As upstream Self-Refine: the rewrite also sees every earlier attempt of the candidate with its critique.
          const earlier = [1, 2]
            .filter((t) => t < iteration)
            .map((t) => ofType(messages, 'rewrite.requested', problem, t).find((m) => m.candidate === rewrite.candidate))
            .map((asked) => ({ solution: asked?.solution, critique: asked?.critique }));
          expect(rewrite.history).toEqual(earlier);
        }
        expect(before?.candidates).toHaveLength(3);
      }
    }
  });

  test('verify-refine-chains: M verifications per candidate, then a refinement that carries them', async ({ dir }) => {
    const messages = await runStrategy(dir, 'verify-refine-chains', ['--n-candidates', '2', '--n-verifications', '2', '--max-iterations', '2']);
    for (const problem of ['p1', 'p2']) {
      expect(ofType(messages, 'solution.requested', problem, 0)).toHaveLength(2);
      expect(ofType(messages, 'verification.requested', problem, 0)).toHaveLength(4);
      expect(ofType(messages, 'refine.requested', problem, 1)).toHaveLength(2);
      expect(ofType(messages, 'verification.requested', problem, 1)).toHaveLength(4);
      for (const refine of ofType(messages, 'refine.requested', problem, 1)) {
        const verified = ofType(messages, 'verification.completed', problem, 0).filter((m) => m.candidate === refine.candidate);
        expect(refine.verifications.map((v) => v.score).sort()).toEqual(verified.map((v) => v.score).sort());
      }
      for (const iteration of [0, 1]) {
        const result = ofType(messages, 'iteration.completed', problem, iteration)[0];
        for (const candidate of result?.candidates ?? []) {
          const scores = candidate.verificationScores.filter((s): s is number => s !== null);
          expect(candidate.verificationScores).toHaveLength(2);
          expect(candidate.summaryScore).toBeCloseTo(scores.reduce((a, b) => a + b, 0) / scores.length, 9);
        }
      }
    }
  });

  test('rse: rollouts see the deduplicated bank in the system prompt; invalid distillations are retried up to the limit', async ({ dir }) => {
    const messages = await runStrategy(dir, 'rse', ['--n-candidates', '4', '--max-iterations', '3'], 3);
    let retries = 0;
    for (const problem of ['p1', 'p2', 'p3']) {
      let bank = 0;
      for (const iteration of [0, 1, 2]) {
        const rollouts = ofType(messages, 'rollout.requested', problem, iteration);
        expect(rollouts).toHaveLength(4);
        // Every rollout of an iteration sees the bank as it stood after the previous one.
        for (const rollout of rollouts) expect(rollout.experience).toHaveLength(bank);
        for (let candidate = 0; candidate < 4; candidate++) {
          const attempts = ofType(messages, 'distill.completed', problem, iteration).filter((m) => m.candidate === candidate).sort((a, b) => a.attempt - b.attempt);
          expect(attempts.length).toBeGreaterThanOrEqual(1);
          expect(attempts.length).toBeLessThanOrEqual(MAX_DISTILL_ATTEMPTS);
          // Retried exactly while invalid and under the limit.
          attempts.slice(0, -1).forEach((attempt) => expect(attempt.parseError).not.toBeNull());
          const last = attempts.at(-1);
          if (last && last.parseError !== null) expect(attempts).toHaveLength(MAX_DISTILL_ATTEMPTS);
          retries += attempts.length - 1;
        }
        const update = ofType(messages, 'bank.updated', problem, iteration)[0];
        expect(update?.experience.size).toBe(bank + (update?.experience.added ?? 0));
        bank = update?.experience.size ?? 0;
      }
      expect(bank).toBeGreaterThan(0);
      // The bank is in the system prompt of the next rollouts, one line per record.
      const last = ofType(messages, 'rollout.requested', problem, 2)[0];
      const call = ofType(messages, 'rollout.completed', problem, 2)[0]?.call.key ?? '';
      const system = await systemPromptOf(dir, call);
      for (const record of last?.experience ?? []) expect(system).toContain(`- [${record.kind === 'conclusion' ? 'proposition' : 'pitfall'}] ${record.text}`);
      expect(system).toContain('<experience>');
      // As upstream: the propositions are hypotheses to check, not facts to rely on.
      expect(system).toContain('not established facts');
    }
    // The simulator sends some malformed JSON: the retry path ran.
    expect(retries).toBeGreaterThan(0);
  });

  test('mas-ceo: a CEO "stop" is recorded but, as in MAS-TTS, the round goes ahead', () => {
    const input = { run: 'r', problem: { id: 'p1', question: 'Q', answer: '1' }, ordinal: 0, settings: { nCandidates: 1, nVerifications: 1, maxIterations: 3, epsilon: 0, seed: 0, jaccardThreshold: 0.7 }, start: { iteration: 0, experience: [], guidelines: [], rollouts: [] } };
    const started = masCeoProgram.start(input);
    const call = { key: 'k', usage: { promptTokens: 1, completionTokens: 1 }, finishReason: 'stop' };
    const stop: Message = { type: 'ceo.completed', run: 'r', problem: 'p1', iteration: 0, correlation: 'p1/0/ceo/0', decision: 'stop', experts: 2, direction: 'd', budget: 4096, parseError: null, call };
    const step = masCeoProgram.receive(started.state, stop, input);
    // Round 0 has no solution yet: a stop honoured here would leave the problem at 0 for every iteration.
    expect(step.effect).toEqual({ kind: 'wait' });
    expect(step.post.map((m) => m.type)).toEqual(['recruiter.requested']);
  });

  test('mas-ceo: one CEO call per round, critics = recruited experts − 1, inner turns stop at consensus', async ({ dir }) => {
    const messages = await runStrategy(dir, 'mas-ceo', ['--max-iterations', '4'], 4);
    let revisions = 0;
    let lastRevisions = 0;
    let stoppedEarly = 0;
    for (const problem of ['p1', 'p2', 'p3', 'p4']) {
      expect(ofType(messages, 'iteration.completed', problem).map((m) => m.iteration)).toEqual([0, 1, 2, 3]);
      let stopped = false;
      for (const round of [0, 1, 2, 3]) {
        const ceo = ofType(messages, 'ceo.completed', problem, round);
        if (stopped) {
          // A stopped problem makes no call; it keeps its last solution for the remaining iterations.
          expect(ceo).toHaveLength(0);
          const [previous, current] = [round - 1, round].map((r) => ofType(messages, 'iteration.completed', problem, r)[0]?.candidates);
          expect(current).toEqual(previous);
          stoppedEarly++;
          continue;
        }
        expect(ofType(messages, 'ceo.requested', problem, round)).toHaveLength(1);
        const plan = ceo[0];
        if (!plan) throw new Error(`no CEO reply in round ${round}`);
        expect(plan.experts).toBeGreaterThanOrEqual(2);
        expect(plan.experts).toBeLessThanOrEqual(5);
        const recruited = ofType(messages, 'recruiter.completed', problem, round)[0];
        expect(recruited?.experts).toHaveLength(plan.experts);
        const solvers = ofType(messages, 'solver.requested', problem, round);
        // MAS-TTS's max_inner_turns critique rounds, each followed by a revision when one disagrees.
        expect(solvers.length).toBeLessThanOrEqual(MAX_INNER_TURNS + 1);
        for (const solver of solvers) {
          const critics = ofType(messages, 'critic.completed', problem, round).filter((m) => m.turn === solver.turn);
          const revised = solvers.some((s) => s.turn === solver.turn + 1);
          if (solver.turn === MAX_INNER_TURNS) {
            // The revision after the last critique round goes to the evaluator uncritiqued.
            expect(critics).toHaveLength(0);
            expect(revised).toBe(false);
            lastRevisions++;
            continue;
          }
          expect(critics).toHaveLength(plan.experts - 1);
          const consensus = critics.every((m) => m.agree);
          // A revision follows exactly when someone disagreed.
          expect(revised).toBe(!consensus);
          if (revised) expect(solvers.find((s) => s.turn === solver.turn + 1)?.critiques).toHaveLength(critics.filter((m) => !m.agree).length);
        }
        revisions += solvers.length - 1;
        const verdict = ofType(messages, 'evaluator.completed', problem, round);
        expect(verdict).toHaveLength(1);
        if (verdict[0]?.correct === true) stopped = true;
      }
    }
    expect(revisions).toBeGreaterThan(0);
    expect(lastRevisions).toBeGreaterThan(0);
    expect(stoppedEarly).toBeGreaterThan(0);
  });

  test('mas-ceo: the CEO\'s numbers are clamped, a missing field is reported, and only an explicit stop stops', () => {
    // MAS-TTS's budget range, 2048 to 32000, and its fallback of 32000.
    expect(parseCeo('Decision: stop\nExperts: 40\nDirection: try induction\nBudget: 10')).toEqual({ decision: 'stop', experts: 5, direction: 'try induction', budget: 2048, parseError: null });
    expect(parseCeo('**Decision:** continue\nExperts: 1\nBudget: 999999')).toMatchObject({ decision: 'continue', experts: 2, budget: 32_000, parseError: null });
    // MAS-TTS's fallback team: 2 experts.
    expect(parseCeo('I would stop here.')).toMatchObject({ decision: 'continue', experts: 2, budget: 32_000, parseError: 'missing or unreadable: Decision, Experts, Budget' });
  });

  test('an unknown strategy is a usage error that lists the strategies', async ({ dir }) => {
    await expect(runStrategy(dir, 'nope', [])).rejects.toMatchObject({ code: 'TMAS_USAGE', message: expect.stringContaining('majority, self-refine, verify-refine, verify-refine-chains, rse, mas-ceo') });
  });
});
