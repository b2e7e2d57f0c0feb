/**
 * The baselines against the call pattern of their upstream code, end to end on
 * the simulated model: RSE (WangXinglin/RSE) and Verify-Refine
 * (deepseek-ai/DeepSeek-Math-V2 inference/main.py), and the sampling each
 * strategy brings when the user gives none.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { MAX_DISTILL_ATTEMPTS } from '../machines/strategies/rse/rse.roles.ts';
import { parseProverReply, parseRating } from '../machines/strategies/verify-refine/verify-refine.roles.ts';
import { parseRunFlags, toRunConfig } from '../src/cli/run.command.ts';
import { Store, type CallRecord } from '../src/store/store.ts';
import { ofType, runStrategy, test } from './fixtures.ts';

async function callsOf(dir: string, keys: string[]): Promise<CallRecord[]> {
  const store = await Store.open(path.join(dir, 'out'));
  try {
    const calls = await Promise.all(keys.map((key) => store.getCall(key)));
    return calls.filter((call): call is CallRecord => call !== undefined);
  } finally {
    await store.close();
  }
}

async function protocolOf(dir: string): Promise<{ sampling: Record<string, unknown>; completionMaxTokens: number | null }> {
  return JSON.parse(await readFile(path.join(dir, 'out', 'metrics.json'), 'utf8')).protocol;
}

/** A proof of the pool as the test rebuilds it from the log. */
interface Pooled {
  proof: string;
  mean: number;
  self: number;
  ratings: string[];
}

describe('baselines as their upstream code runs them', () => {
  test('rse: plain rollouts first, then the bank as hypotheses; each rollout distilled up to 6 times; 38,912-token completions at 0.6 / 0.95 / 20', async ({ dir }) => {
    const messages = await runStrategy(dir, 'rse', ['--n-candidates', '3', '--max-iterations', '3'], 3);
    for (const problem of ['p1', 'p2', 'p3']) {
      // Iteration 0 is standard sampling: no bank, no guidance.
      const first = ofType(messages, 'rollout.completed', problem, 0);
      const [plain] = await callsOf(dir, [first[0]?.call.key ?? '']);
      expect(plain?.request.messages.find((m) => m.role === 'system')?.content).not.toContain('<experience>');
      // The user message is the problem alone.
      expect(plain?.request.messages.find((m) => m.role === 'user')?.content).toBe(`<problem>\nCompute ${Number(problem.slice(1)) + 1} times ${Number(problem.slice(1)) + 2}.\n</problem>`);
      for (const iteration of [0, 1, 2]) {
        // One distillation of every rollout, asked again while the reply is not JSON, 6 times at most.
        for (const rollout of ofType(messages, 'rollout.completed', problem, iteration)) {
          const attempts = ofType(messages, 'distill.requested', problem, iteration).filter((m) => m.candidate === rollout.candidate);
          expect(attempts.length).toBeGreaterThanOrEqual(1);
          expect(attempts.length).toBeLessThanOrEqual(MAX_DISTILL_ATTEMPTS);
          // The distiller reads the whole attempt (the simulator sends no separate reasoning here).
          for (const attempt of attempts) expect(attempt.solution).toBe(rollout.text);
        }
      }
      const later = ofType(messages, 'rollout.completed', problem, 2);
      const [guided] = await callsOf(dir, [later[0]?.call.key ?? '']);
      const system = guided?.request.messages.find((m) => m.role === 'system')?.content ?? '';
      if (ofType(messages, 'rollout.requested', problem, 2)[0]?.experience.length) {
        expect(system).toContain('not established facts');
        expect(system).toContain('Never repeat a critical pitfall');
        // Pitfalls first, then propositions, as upstream lists them.
        const lines = system.split('\n').filter((line) => /^- \[(pitfall|proposition)\]/.test(line));
        const kinds = lines.map((line) => (line.startsWith('- [pitfall]') ? 0 : 1));
        expect(kinds).toEqual([...kinds].sort());
      }
    }
    // Some distillation was retried: the simulator sends malformed JSON now and then.
    expect(ofType(messages, 'distill.completed').some((m) => m.attempt > 0)).toBe(true);
    const keys = ofType(messages, 'rollout.completed').map((m) => m.call.key);
    for (const call of await callsOf(dir, keys)) {
      expect(call.request.maxTokens).toBeLessThanOrEqual(38_912);
      expect(call.request.temperature).toBe(0.6);
    }
    const protocol = await protocolOf(dir);
    expect(protocol.sampling.solution).toEqual({ temperature: 0.6, topP: 0.95, topK: 20 });
    expect(protocol.completionMaxTokens).toBe(38_912);
  });

  test('verify-refine: M ratings of every parsed proof; the best of the pool over all rounds refined, shared among the N; no refinement once a proof scores 1', async ({ dir }) => {
    const n = 4;
    const m = 2;
    const k = 2;
    const problems = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6'];
    const messages = await runStrategy(dir, 'verify-refine', ['--n-candidates', String(n), '--n-verifications', String(m), '--max-iterations', '4', '--refine-proofs', String(k)], problems.length);
    let refinedRounds = 0;
    let stoppedRounds = 0;
    let unparsed = 0;
    for (const problem of problems) {
      const pool: Pooled[] = [];
      let stopped = false;
      for (const round of [0, 1, 2, 3]) {
        const asked = ofType(messages, 'prover.requested', problem, round);
        if (stopped) {
          // Upstream's early stop: no call; the iteration repeats the last round's candidates.
          expect(asked).toHaveLength(0);
          expect(ofType(messages, 'rater.requested', problem, round)).toHaveLength(0);
          const [previous, current] = [round - 1, round].map((r) => ofType(messages, 'iteration.completed', problem, r)[0]?.candidates);
          expect(current).toEqual(previous);
          stoppedRounds++;
          continue;
        }
        expect(asked.map((r) => r.candidate).sort()).toEqual([0, 1, 2, 3]);
        if (round === 0 || pool.length === 0) {
          for (const request of asked) expect(request.refine).toBeNull();
        } else {
          refinedRounds++;
          // The refined proofs are the best of the pool: ordered by mean rating, then self-evaluation score.
          const chosen = [...new Set(asked.map((r) => r.refine?.proof))];
          expect(chosen).toHaveLength(Math.min(k, pool.length));
          const rank = (p: Pooled) => [p.mean, p.self] as const;
          const picked = pool.filter((p) => chosen.includes(p.proof));
          const others = pool.filter((p) => !chosen.includes(p.proof));
          for (const a of picked) {
            for (const b of others) {
              const [ra, rb] = [rank(a), rank(b)];
              expect(ra[0] > rb[0] || (ra[0] === rb[0] && ra[1] >= rb[1])).toBe(true);
            }
          }
          // Each chosen proof goes to N / k candidates, round-robin, with ratings of its own (8 at most).
          for (const request of asked) {
            expect(request.refine?.proof).toBe(asked[request.candidate % chosen.length]?.refine?.proof);
            const own = pool.find((p) => p.proof === request.refine?.proof);
            expect(request.refine?.ratings.length).toBeGreaterThan(0);
            expect(request.refine?.ratings.length).toBeLessThanOrEqual(8);
            for (const rating of request.refine?.ratings ?? []) expect(own?.ratings).toContain(rating);
          }
        }
        // Every proof that parses gets M ratings, the others none.
        for (const proof of ofType(messages, 'prover.completed', problem, round)) {
          const ratings = ofType(messages, 'rater.completed', problem, round).filter((r) => r.candidate === proof.candidate);
          if (proof.proof === null) {
            unparsed++;
            expect(ratings).toHaveLength(0);
            continue;
          }
          expect(ratings).toHaveLength(m);
          for (const rating of ratings) expect([0, 0.5, 1]).toContain(rating.score);
          const scores = ratings.map((r) => r.score ?? 0);
          if (!pool.some((p) => p.proof === proof.proof)) {
            pool.push({ proof: proof.proof, mean: scores.reduce((a, b) => a + b, 0) / scores.length, self: proof.selfScore, ratings: ratings.map((r) => r.rating) });
          }
        }
        const result = ofType(messages, 'iteration.completed', problem, round)[0];
        expect(result?.candidates).toHaveLength(n);
        stopped = pool.some((p) => p.mean === 1);
      }
    }
    expect(refinedRounds).toBeGreaterThan(0);
    expect(stoppedRounds).toBeGreaterThan(0);
    expect(unparsed).toBeGreaterThan(0);
    const protocol = await protocolOf(dir);
    expect(protocol.sampling.solution).toEqual({ temperature: 1, topP: 0.95 });
  });

  test('verify-refine reads proofs and ratings as upstream: sections after </think>, the last boxed score', () => {
    expect(parseProverReply('<think>draft</think>\n**Solution**\nSo \\boxed{6}.\n\n## Self Evaluation\nHere is my evaluation of the solution: fine.\n\\boxed{0.5}')).toEqual({ proof: 'So \\boxed{6}.', selfScore: 0.5 });
    expect(parseProverReply('## Solution\nSo \\boxed{6}.')).toBeNull();
    expect(parseProverReply('## Solution\nx\n## Self Evaluation\nno score')).toEqual({ proof: 'x', selfScore: 0 });
    expect(parseRating('<think>\\boxed{1}</think>Here is my evaluation of the solution: a gap.\n\\boxed{0}')).toEqual({ score: 0, rating: 'Here is my evaluation of the solution: a gap.\n\\boxed{0}' });
    expect(parseRating('no score').score).toBeNull();
  });

  test('the temperature is the strategy\'s upstream default unless --temperature is given; 0.6 for one that declares none', () => {
    const temperature = (args: string[]) => toRunConfig(parseRunFlags(['--input-file', 'x.jsonl', ...args]), {}).config.temperature;
    expect(temperature(['--strategy', 'pacore'])).toBe(1);
    expect(temperature(['--strategy', 'verify-refine'])).toBe(1);
    expect(temperature(['--strategy', 'mas-ceo'])).toBe(0.7);
    expect(temperature(['--strategy', 'rse'])).toBe(0.6);
    expect(temperature(['--strategy', 'tmas'])).toBe(0.6);
    expect(temperature(['--strategy', 'pacore', '--temperature', '0.3'])).toBe(0.3);
    const limit = (args: string[]) => toRunConfig(parseRunFlags(['--input-file', 'x.jsonl', ...args]), {}).config.completionMaxTokens;
    expect(limit(['--strategy', 'rse'])).toBe(38_912);
    expect(limit(['--strategy', 'tmas'])).toBeUndefined();
    expect(limit(['--strategy', 'rse', '--completion-max-tokens', '2048'])).toBe(2048);
  });
});
