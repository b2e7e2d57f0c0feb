/**
 * The simulated model cuts a reply at its completion limit the way a real
 * server does: the model went on writing until `max_tokens` stopped it, so a
 * reply with `finish_reason: "length"` reports `completion_tokens` equal to
 * the request's `max_tokens`, and its text is that long. Before, the `length`
 * fault halved the reply and the format-breaking mode's cut kept a fifth to
 * four fifths of it, each counted at its shortened length: under truncation a
 * method's tokens (the Table 1 budget columns) looked cheaper than a real
 * model's.
 */
import path from 'node:path';
import { expect } from 'vitest';
import { tokensOf } from '../../src/sim/model/filler.ts';
import { startSimServer } from '../../src/sim/server.ts';
import { readJournal, runInProcess, smallProblems, test, writeProblems } from '../fixtures.ts';

const PROBLEMS = smallProblems(4);
const LIMIT = 1500;

test.for([
  ['the length fault', { faults: { length: 0.3 } }],
  ["the format-breaking mode's cut", { breakFormats: 0.5 }],
] as const)('%s: a reply cut at its limit reports and carries max_tokens of text, streamed or not', async ([, options], { dir }) => {
  const sim = await startSimServer({ problems: PROBLEMS.map((p) => ({ id: p.problem_id, question: p.question, answer: p.answer })), seed: 5, outputTokens: 400, ...options });
  try {
    const input = await writeProblems(dir, PROBLEMS);
    for (const stream of [[], ['--no-stream']]) {
      const output = path.join(dir, stream.length === 0 ? 'streamed' : 'whole');
      const flags = ['--n-candidates', '2', '--n-verifications', '2', '--max-iterations', '2', '--judge-passes', '0', '--completion-max-tokens', String(LIMIT), ...stream];
      await runInProcess(['--input-file', input, '--output-file', output, '--base-url', sim.url, '--no-proof', ...flags]);
      const cut = (await readJournal(output)).filter((call) => call.response.finishReason === 'length');
      expect(cut.length).toBeGreaterThan(0);
      for (const call of cut) {
        expect(call.request.maxTokens).toBe(LIMIT);
        expect(call.usage.completionTokens).toBe(LIMIT);
        expect(tokensOf(call.response.content) + (call.response.reasoning === null ? 0 : tokensOf(call.response.reasoning))).toBe(LIMIT);
      }
    }
  } finally {
    await sim.close();
  }
});
