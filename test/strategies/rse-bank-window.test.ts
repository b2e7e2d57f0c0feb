/**
 * RSE's experience bank against the context window. Upstream keeps every
 * record and shows the whole bank in each rollout's system message; over 20
 * iterations of realistic distillations it outgrows a 131k window. The
 * rollout's prompt shows the newest records that fit, the rest stay in the
 * bank, and metrics.json says per iteration how many were held and shown.
 *
 * Scaled down 32 times so the test stays fast: a 4,096-token window (a prompt
 * budget of 2,816) for 131,072 (114,432), and 4 records of 83 tokens per
 * iteration (2 rollouts, 2 records each: 332 tokens) for about 10,600 at 131k
 * (8 rollouts, each distilled into 16 records of 83 tokens). The bank passes
 * the budget at iteration 8 of 20; before the bank was fitted, every rollout
 * from there on was not sent (24 of 40).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import type { IterationMetrics } from '../../src/observers/metrics.ts';
import { ofType, readLog, runInProcess, serveModel, smallProblems, test, writeProblems } from '../fixtures.ts';

const WINDOW = 4096;
const ITERATIONS = 20;
const RECORDS_PER_DISTILLATION = 2;

/** A record no other record resembles: 13 words, each new (Jaccard deduplication keeps them all). */
function record(reply: number, k: number): string {
  return Array.from({ length: 13 }, (_, w) => `r${reply}k${k}w${w}`).join(' ');
}

/** A server that answers a rollout with a boxed answer and a distillation with new propositions; every rollout's request body is kept. */
async function startServer() {
  const rollouts: string[] = [];
  let distilled = 0;
  const server = await serveModel((body) => {
    if (body.includes('You are the Rollout agent')) {
      rollouts.push(body);
      return 'The product is \\boxed{6}.';
    }
    const reply = distilled++;
    return JSON.stringify({ verified_propositions: Array.from({ length: RECORDS_PER_DISTILLATION }, (_, k) => record(reply, k)), critical_pitfalls: [] });
  });
  return { ...server, rollouts };
}

describe('RSE: the bank a rollout shows fits its window', () => {
  test(`20 iterations at a ${WINDOW}-token window: every rollout is sent, showing the newest records that fit; metrics.json counts them`, async ({ dir }) => {
    const server = await startServer();
    try {
      const input = await writeProblems(dir, smallProblems(1));
      const output = path.join(dir, 'out');
      const args = ['--input-file', input, '--output-file', output, '--base-url', server.url, '--model-name', 'm', '--no-proof', '--strategy', 'rse'];
      await runInProcess([...args, '--n-candidates', '2', '--max-iterations', String(ITERATIONS), '--max-tokens', String(WINDOW)]);
      const messages = (await readLog(output)).map((envelope) => envelope.message);

      // No rollout is left unsent: every iteration has its 2 rollouts, and no call failed.
      expect(ofType(messages, 'llm.failed').map((m) => `${m.iteration} ${m.role}: ${m.error}`)).toEqual([]);
      for (let t = 0; t < ITERATIONS; t++) expect(ofType(messages, 'rollout.completed', 'p1', t)).toHaveLength(2);
      // The bank keeps every record: 4 more per iteration.
      expect(ofType(messages, 'bank.updated').map((m) => m.experience.size)).toEqual(Array.from({ length: ITERATIONS }, (_, t) => 4 * (t + 1)));

      // Late rollouts show the newest records and leave the oldest out, as context.trimmed says.
      const last = server.rollouts.at(-1) ?? '';
      // Distillations 2t and 2t + 1 are iteration t's: the last rollouts see the bank after iteration 18.
      const newest = 2 * (ITERATIONS - 2) + 1;
      expect(last).toContain(record(newest, RECORDS_PER_DISTILLATION - 1));
      expect(last).not.toContain(record(0, 0));
      const trims = ofType(messages, 'context.trimmed').filter((m) => m.role === 'rollout');
      expect(trims.length).toBeGreaterThan(0);
      expect(trims.at(-1)?.dropped).toContain('experience-0');
      for (const trim of trims) expect(trim.promptTokens).toBeLessThanOrEqual(trim.budget);

      // metrics.json: per iteration, the records the rollouts' prompts held and showed, and their tokens.
      const metrics = JSON.parse(await readFile(path.join(output, 'metrics.json'), 'utf8')) as { iterations: IterationMetrics[] };
      const banks = metrics.iterations.map((it) => it.rseBank);
      expect(banks[0]).toBeNull();
      for (let t = 1; t < ITERATIONS; t++) {
        const bank = banks[t];
        expect(bank?.held).toBe(4 * t);
        expect(bank?.shown).toBeLessThanOrEqual(bank?.held ?? 0);
        expect(bank?.shownTokens).toBeLessThanOrEqual(bank?.heldTokens ?? 0);
      }
      const end = banks[ITERATIONS - 1];
      const budget = trims[0]?.budget ?? 0;
      // The whole bank would not fit the prompt budget; what the prompt shows does.
      expect(end?.heldTokens).toBeGreaterThan(budget);
      expect(end?.shown).toBeLessThan(end?.held ?? 0);
      expect(end?.shown).toBeGreaterThan(0);
      expect(end?.shownTokens).toBeLessThan(budget);
    } finally {
      await server.close();
    }
  });
});
