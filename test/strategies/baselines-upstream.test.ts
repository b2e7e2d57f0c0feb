/**
 * The baselines against the call pattern of their upstream code, end to end on
 * the simulated model or on a server of our own: RSE (WangXinglin/RSE),
 * Verify-Refine (deepseek-ai/DeepSeek-Math-V2 inference/main.py), Self-Refine
 * (madaan/self-refine), MAS-TTS (jincan333/MAS-TTS), and the sampling each
 * strategy brings when the user gives none.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { parseAgreement } from '../../machines/strategies/mas-ceo/mas-ceo.roles.ts';
import { MAX_DISTILL_ATTEMPTS } from '../../machines/strategies/rse/rse.roles.ts';
import { selfRefineProgram } from '../../machines/strategies/self-refine/self-refine.program.ts';
import { critiqueFindsNoError } from '../../machines/strategies/self-refine/self-refine.roles.ts';
import { parseProverReply, parseRating, proverRole } from '../../machines/strategies/verify-refine/verify-refine.roles.ts';
import type { ProblemInput } from '../../machines/contract.ts';
import { parseRunFlags, toRunConfig } from '../../src/cli/run/run.command.ts';
import type { Message } from '../../src/kernel/protocol.ts';
import { Store, type CallRecord } from '../../src/store/store.ts';
import { serveModel, ofType, readJournal, readLog, runInProcess, runStrategy, smallProblems, test, writeProblems } from '../fixtures.ts';

async function callsOf(dir: string, keys: string[]): Promise<CallRecord[]> {
  const store = await Store.open(path.join(dir, 'out'));
  try {
    const calls = await Promise.all(keys.map((key) => store.getCall(key)));
    return calls.filter((call): call is CallRecord => call !== undefined);
  } finally {
    await store.close();
  }
}

async function evaluationOf(dir: string): Promise<{ sampling: Record<string, unknown>; completionMaxTokens: number | null }> {
  return JSON.parse(await readFile(path.join(dir, 'out', 'metrics.json'), 'utf8')).evaluation;
}

/**
 * An OpenAI-compatible server of our own that answers RSE: a rollout gets a
 * short boxed answer, a distillation 40 propositions no earlier reply had
 * (every word new, so no two are alike). Every request body is kept.
 */
async function startRseServer(): Promise<{ url: string; bodies: string[]; close: () => Promise<void> }> {
  const bodies: string[] = [];
  let distilled = 0;
  const server = await serveModel((body) => {
    bodies.push(body);
    if (!body.includes('You are the Distill agent')) return 'The product is \\boxed{6}.';
    const reply = distilled++;
    const propositions = Array.from({ length: 40 }, (_, k) => ['alpha', 'beta', 'gamma', 'delta', 'epsilon'].map((word) => `${word}${reply}x${k}`).join(' '));
    return JSON.stringify({ verified_propositions: propositions, critical_pitfalls: [] });
  });
  return { ...server, bodies };
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
    const evaluation = await evaluationOf(dir);
    expect(evaluation.sampling.solution).toEqual({ temperature: 0.6, topP: 0.95, topK: 20 });
    expect(evaluation.completionMaxTokens).toBe(38_912);
  });

  test('rse: the bank keeps every deduplicated record, past --bank-max-records (64), as upstream keeps them all', async ({ dir }) => {
    const server = await startRseServer();
    try {
      const input = await writeProblems(dir, smallProblems(1));
      const output = path.join(dir, 'out');
      await runInProcess(['--input-file', input, '--output-file', output, '--base-url', server.url, '--model-name', 'm', '--no-proof', '--strategy', 'rse', '--n-candidates', '2', '--max-iterations', '2']);
      const messages = (await readLog(output)).map((envelope) => envelope.message);
      // Two rollouts of 40 new propositions each: 80 records after iteration 0, 160 after iteration 1.
      expect(ofType(messages, 'bank.updated').map((m) => m.experience.size)).toEqual([80, 160]);
      for (const rollout of ofType(messages, 'rollout.requested', 'p1', 1)) expect(rollout.experience).toHaveLength(80);
      // The next rollouts' system prompt shows every one of them.
      const guided = server.bodies.filter((body) => body.includes('You are the Rollout agent') && body.includes('<experience>'));
      expect(guided).toHaveLength(2);
      for (const body of guided) expect(body.match(/- \[proposition\] alpha/g)).toHaveLength(80);
      // The evaluation block states the cap the bank kept (none), not the flag's default.
      expect((await evaluationOf(dir)) as unknown).toMatchObject({ bankMaxRecords: 0 });
    } finally {
      await server.close();
    }
  });

  test('self-refine: a candidate whose critique finds no error is not rewritten, makes no more calls, and keeps its solution', async ({ dir }) => {
    const problems = ['p1', 'p2', 'p3'];
    const messages = await runStrategy(dir, 'self-refine', ['--n-candidates', '4', '--max-iterations', '4'], problems.length);
    let stops = 0;
    let rewrites = 0;
    for (const problem of problems) {
      const stoppedAt = new Map<number, number>();
      for (const iteration of [1, 2, 3]) {
        const asked = [
          ...ofType(messages, 'solution.requested', problem, iteration),
          ...ofType(messages, 'critique.requested', problem, iteration),
          ...ofType(messages, 'rewrite.requested', problem, iteration),
        ].map((m) => m.candidate);
        // A candidate stopped in an earlier iteration makes no call.
        for (const candidate of stoppedAt.keys()) expect(asked).not.toContain(candidate);
        for (const critique of ofType(messages, 'critique.completed', problem, iteration)) {
          expect(critique.correct).toBe(critiqueFindsNoError(critique.critique));
          // Upstream's stop: feedback that finds no error is not followed by a rewrite.
          const rewritten = ofType(messages, 'rewrite.requested', problem, iteration).some((m) => m.candidate === critique.candidate);
          expect(rewritten).toBe(!critique.correct);
          if (critique.correct) {
            stoppedAt.set(critique.candidate, iteration);
            stops++;
          } else rewrites++;
        }
        // A stopped candidate keeps its result, and still counts, in every later iteration.
        const before = ofType(messages, 'iteration.completed', problem, iteration - 1)[0]?.candidates ?? [];
        const now = ofType(messages, 'iteration.completed', problem, iteration)[0]?.candidates ?? [];
        expect(now).toHaveLength(4);
        for (const candidate of stoppedAt.keys()) expect(now.find((c) => c.candidate === candidate)).toEqual(before.find((c) => c.candidate === candidate));
      }
    }
    expect(stops).toBeGreaterThan(0);
    expect(rewrites).toBeGreaterThan(0);
  });

  test('self-refine reads the stop as a sentence "It is correct" ending a line; an iteration whose candidates have all stopped is saved without a call', () => {
    expect(critiqueFindsNoError('The count is right.\nIt is correct.\nSCORE: 0.9')).toBe(true);
    expect(critiqueFindsNoError('There is no error in the code! It is correct!\nSCORE: 1')).toBe(true);
    expect(critiqueFindsNoError('<think>it is correct</think>\n**It is correct.**')).toBe(true);
    expect(critiqueFindsNoError('<think>\nIt is correct.\n</think>\nStep 2 drops a sign.')).toBe(false);
    expect(critiqueFindsNoError('I checked whether it is correct: step 2 drops a sign.\nSCORE: 0.2')).toBe(false);
    expect(critiqueFindsNoError('It is correct that n is odd, but the bound fails.')).toBe(false);
    expect(critiqueFindsNoError('It is not correct.')).toBe(false);

    const input: ProblemInput = { run: 'r', problem: { id: 'p1', question: 'Q', answer: '1' }, ordinal: 0, settings: { nCandidates: 1, nVerifications: 1, maxIterations: 3, epsilon: 0, seed: 0, jaccardThreshold: 0.7 }, start: { iteration: 0, experience: [], guidelines: [], rollouts: [] } };
    const call = { key: 'k', usage: { promptTokens: 1, completionTokens: 1 }, finishReason: 'stop' };
    const base = (iteration: number, role: string) => ({ run: 'r', problem: 'p1', iteration, correlation: `p1/${iteration}/${role}/0` });
    let step = selfRefineProgram.start(input);
    step = selfRefineProgram.receive(step.state, { type: 'solution.completed', ...base(0, 'solution'), candidate: 0, source: 'normal', text: 'so \\boxed{1}', answer: '1', call } as Message, input);
    expect(step.effect.kind).toBe('save');
    step = selfRefineProgram.saved(step.state, input);
    expect(step.post.map((m) => m.type)).toEqual(['critique.requested']);
    step = selfRefineProgram.receive(step.state, { type: 'critique.completed', ...base(1, 'critique'), candidate: 0, critique: 'It is correct.', score: 1, correct: true, call }, input);
    // No rewrite: the iteration is saved with the solution it had.
    expect(step.post).toEqual([]);
    expect(step.effect).toMatchObject({ kind: 'save', iteration: 1, candidates: [{ candidate: 0, answer: '1' }] });
    step = selfRefineProgram.saved(step.state, input);
    expect(step.post).toEqual([]);
    expect(step.effect).toMatchObject({ kind: 'save', iteration: 2, candidates: [{ candidate: 0, answer: '1' }] });
    expect(selfRefineProgram.saved(step.state, input).effect).toEqual({ kind: 'done', iterations: 3 });
  });

  test('mas-ceo: the CEO\'s budget is the completion limit of the round\'s solver and critic calls; a critic agrees when its final answer is the solution\'s', async ({ dir }) => {
    const problems = ['p1', 'p2', 'p3', 'p4'];
    const messages = await runStrategy(dir, 'mas-ceo', ['--max-iterations', '3'], problems.length);
    const calls = await readJournal(path.join(dir, 'out'));
    let limited = 0;
    for (const problem of problems) {
      for (const ceo of ofType(messages, 'ceo.completed', problem)) {
        const round = calls.filter((call) => call.problem === problem && call.iteration === ceo.iteration && (call.role === 'solver' || call.role === 'critic'));
        expect(round.length).toBeGreaterThan(0);
        for (const call of round) {
          expect({ role: call.role, maxTokens: call.request.maxTokens }).toEqual({ role: call.role, maxTokens: ceo.budget });
          // MAS-TTS's sampling: its task configs' temperature, its client's default top_p.
          expect([call.request.temperature, call.request.sampling?.topP]).toEqual([0.7, 0.95]);
          const user = call.request.messages.find((m) => m.role === 'user')?.content ?? '';
          // The budget is the limit, not a hint in the prompt.
          expect(user).not.toContain(String(ceo.budget));
          if (call.role === 'critic') {
            expect(user).toContain("if your final answer is the same as the solution's final answer");
            expect(user).not.toContain('correct and complete');
          }
          limited++;
        }
      }
      // A solution without a final answer has nothing to agree with.
      for (const critic of ofType(messages, 'critic.completed', problem).filter((m) => m.agree)) {
        const solver = ofType(messages, 'solver.completed', problem, critic.iteration).find((m) => m.turn === critic.turn);
        expect(solver?.answer).not.toBeNull();
      }
    }
    expect(limited).toBeGreaterThan(0);
    // MAS-TTS's own token is read as well as ours; anything else is disagreement.
    expect(parseAgreement('Same final answer as mine.\n[Agree]')).toBe(true);
    expect(parseAgreement('My answer is 7, not 6.\n[Disagree]')).toBe(false);
    expect(parseAgreement('Decision: agree')).toBe(true);
    expect(parseAgreement('I have no opinion.')).toBe(false);
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
    const evaluation = await evaluationOf(dir);
    expect(evaluation.sampling.solution).toEqual({ temperature: 1, topP: 0.95 });
  });

  test('verify-refine reads proofs and ratings as upstream: sections after </think>, the last boxed score', () => {
    expect(parseProverReply('<think>draft</think>\n**Solution**\nSo \\boxed{6}.\n\n## Self Evaluation\nHere is my evaluation of the solution: fine.\n\\boxed{0.5}')).toEqual({ proof: 'So \\boxed{6}.', selfScore: 0.5 });
    expect(parseProverReply('## Solution\nSo \\boxed{6}.')).toBeNull();
    expect(parseProverReply('## Solution\nx\n## Self Evaluation\nno score')).toEqual({ proof: 'x', selfScore: 0 });
    expect(parseRating('<think>\\boxed{1}</think>Here is my evaluation of the solution: a gap.\n\\boxed{0}')).toEqual({ score: 0, rating: 'Here is my evaluation of the solution: a gap.\n\\boxed{0}' });
    expect(parseRating('no score').score).toBeNull();
  });

  test('verify-refine grades the final answer of a proof without its sections, which it does not rate; a cut one has none', () => {
    const request = { type: 'prover.requested' as const, run: 'r', problem: 'p1', iteration: 0, correlation: 'c', candidate: 0, question: 'Compute 6 * 7.', refine: null };
    const reply = (content: string, finishReason = 'stop') =>
      proverRole.reply(request, { ok: true, request, key: 'k', content, reasoning: null, finishReason, usage: { promptTokens: 1, completionTokens: 1 }, promptTokens: 1, budget: 100, dropped: [] }, { proof: false });
    // Before, such a reply had no answer: Pass@1 and majority vote counted it wrong while the judge, reading it whole, found it right.
    expect(reply('Direct computation gives 42.\n\n**Final Answer**\n\\[\\boxed{42}\\]')).toMatchObject({ answer: '42', proof: null, parseError: expect.stringMatching(/no "## Solution" section/) });
    expect(reply('So the answer is \\boxed{42}. Let me check once more', 'length')).toMatchObject({ answer: null, proof: null });
  });

  test('the temperature is the strategy\'s upstream default unless --temperature is given; 0.6 for one that declares none', () => {
    const temperature = (args: string[]) => toRunConfig(parseRunFlags(['--input-file', 'x.jsonl', ...args]), {}).config.roles.temperature;
    expect(temperature(['--strategy', 'pacore'])).toBe(1);
    expect(temperature(['--strategy', 'verify-refine'])).toBe(1);
    expect(temperature(['--strategy', 'mas-ceo'])).toBe(0.7);
    expect(temperature(['--strategy', 'rse'])).toBe(0.6);
    expect(temperature(['--strategy', 'tmas'])).toBe(0.6);
    expect(temperature(['--strategy', 'pacore', '--temperature', '0.3'])).toBe(0.3);
    const limit = (args: string[]) => toRunConfig(parseRunFlags(['--input-file', 'x.jsonl', ...args]), {}).config.context.completionMaxTokens;
    expect(limit(['--strategy', 'rse'])).toBe(38_912);
    expect(limit(['--strategy', 'tmas'])).toBeNull();
    expect(limit(['--strategy', 'rse', '--completion-max-tokens', '2048'])).toBe(2048);
    expect(limit(['--strategy', 'rse', '--completion-max-tokens', 'window'])).toBeNull();
  });
});
