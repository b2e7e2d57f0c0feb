/**
 * PaCoRe as stepfun-ai/PaCoRe's inference code runs it, checked message by
 * message: round 0 asks the problem alone; each later round asks with the
 * previous round's non-empty responses, compacted after their last
 * `</think>`, ordered by length and then by a fixed seeded permutation;
 * round widths as configured; references dropped from the end when the
 * window is too small.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { compactResponse, referencesOf, widthOf } from '../../machines/strategies/pacore/pacore.program.ts';
import { synthesisPrompt } from '../../machines/strategies/pacore/synthesis.role.ts';
import { userText } from '../../workers/prompt-template.ts';
import type { LoopSettings } from '../../machines/contract.ts';
import type { MessageOf } from '../../src/kernel/protocol.ts';
import { readJournal, readLog, runInProcess, smallProblems, test, writeProblems, runCliInProcess } from '../fixtures.ts';

const SETTINGS: LoopSettings = { nCandidates: 8, nVerifications: 1, maxIterations: 4, epsilon: 0, seed: 7, jaccardThreshold: 0.7 };

describe('pacore', () => {
  test('a response is compacted to the text after its last </think>, or kept whole', () => {
    expect(compactResponse('<think>a</think>mid</think> final \\boxed{3}')).toBe(' final \\boxed{3}');
    expect(compactResponse('no thinking here')).toBe('no thinking here');
  });

  test('references: empty responses left out, ordered by length then by a permutation fixed by the seed and the count', () => {
    const views = [
      { candidate: 0, text: 'cccc', answer: null },
      { candidate: 1, text: '', answer: null },
      { candidate: 2, text: 'a', answer: null },
      { candidate: 3, text: 'bb', answer: null },
      { candidate: 4, text: null, answer: null },
    ];
    const order = referencesOf(views, 7);
    expect([...order].sort()).toEqual(['a', 'bb', 'cccc']);
    // The order depends on lengths, seed and count only: not on which candidate wrote what.
    const shuffled = [views[3], views[0], views[4], views[2], views[1]].map((view, candidate) => ({ ...view!, candidate }));
    expect(referencesOf(shuffled, 7)).toEqual(order);
    const seeds = new Set([1, 2, 3, 4, 5, 6, 7, 8].map((seed) => referencesOf(views, seed).join('|')));
    expect(seeds.size).toBeGreaterThan(1);
  });

  test('round widths: the list given, its last width repeating; upstream\'s 4 then 1 by default; N every round when the list is empty', () => {
    expect([0, 1, 2, 3].map((round) => widthOf(SETTINGS, round))).toEqual([4, 1, 1, 1]);
    const widths = { ...SETTINGS, options: { roundWidths: '4,2,1' } };
    expect([0, 1, 2, 3].map((round) => widthOf(widths, round))).toEqual([4, 2, 1, 1]);
    const empty = { ...SETTINGS, options: { roundWidths: '' } };
    expect([0, 1, 2, 3].map((round) => widthOf(empty, round))).toEqual([8, 8, 8, 8]);
  });

  test('the synthesis prompt: the problem, the numbered references, the request; no system message; the last reference drops first', () => {
    const request = { references: ['first', 'second'], question: 'Q?', candidate: 0 } as MessageOf<'synthesis.requested'>;
    const prompt = synthesisPrompt(request, { proof: false });
    expect(prompt.system).toBe('');
    expect(userText(prompt.parts)).toBe(
      'Here is a problem together with several reference responses to it. Examine the references critically, then write a response of your own.\n\n' +
        'Original problem:\nQ?\n\nReference responses:\n\nReference 1:\nfirst\n\nReference 2:\nsecond\n\n' +
        'Using the problem and the reference responses above, write your own complete and comprehensive solution.',
    );
    expect(prompt.parts[0]).toMatchObject({ drops: [{ id: 'reference-1', drop: 1 }, { id: 'reference-2', drop: 0 }] });
    expect(synthesisPrompt({ ...request, references: [] }, { proof: false })).toEqual({ system: '', parts: [{ id: 'problem', text: 'Q?' }] });
  });

  test('on the simulated model, every request is the one the previous round implies', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(2));
    const output = path.join(dir, 'run');
    await runInProcess(['--input-file', input, '--output-file', output, '--no-proof', '--strategy', 'pacore', '--max-iterations', '3', '--round-widths', '3,2', '--seed', '5']);
    const calls = (await readJournal(output)).sort((a, b) => a.problem.localeCompare(b.problem) || a.iteration - b.iteration || a.index - b.index);
    const log = await readLog(output);
    for (const problem of ['p1', 'p2']) {
      const question = smallProblems(2).find((p) => p.problem_id === problem)?.question ?? '';
      const round = (t: number) => calls.filter((call) => call.role === 'synthesis' && call.problem === problem && call.iteration === t);
      expect([0, 1, 2].map((t) => round(t).length)).toEqual([3, 2, 2]);
      // Round 0: the problem unchanged, no system message.
      for (const call of round(0)) expect(call.request.messages).toEqual([{ role: 'user', content: question }]);
      for (const t of [1, 2]) {
        const previous = round(t - 1).map((call) => ({ candidate: call.index, text: call.response.content, answer: null }));
        const expected = referencesOf(previous, 5);
        const requests = log
          .map((envelope) => envelope.message)
          .filter((message): message is MessageOf<'synthesis.requested'> => message.type === 'synthesis.requested' && message.problem === problem && message.iteration === t);
        expect(requests.map((message) => message.references)).toEqual(requests.map(() => expected));
        for (const call of round(t)) {
          expect(call.request.messages).toHaveLength(1);
          const user = call.request.messages[0]?.content ?? '';
          expect(user).toContain(`Original problem:\n${question}`);
          const positions = expected.map((text, index) => user.indexOf(`Reference ${index + 1}:\n${text}`));
          expect(positions.every((at) => at > 0)).toBe(true);
          expect(positions).toEqual([...positions].sort((a, b) => a - b));
        }
      }
      // Every round is graded: one results line per problem and round.
      const completed = log.filter((envelope) => envelope.message.type === 'iteration.completed' && envelope.message.problem === problem);
      expect(completed.map((envelope) => (envelope.message as MessageOf<'iteration.completed'>).candidates.length)).toEqual([3, 2, 2]);
    }
  });

  test('tmas run\'s default is upstream\'s: a round of 4, then one synthesis of its responses; tmas table1 runs N wide every round', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(2));
    const output = path.join(dir, 'run');
    await runInProcess(['--input-file', input, '--output-file', output, '--no-proof', '--strategy', 'pacore', '--max-iterations', '2']);
    const calls = await readJournal(output);
    for (const problem of ['p1', 'p2']) {
      const round = (t: number) => calls.filter((call) => call.problem === problem && call.iteration === t);
      expect([0, 1].map((t) => round(t).length)).toEqual([4, 1]);
      // The final synthesis reads the 4 responses of the first round.
      const user = round(1)[0]?.request.messages[0]?.content ?? '';
      expect([1, 2, 3, 4].map((k) => user.includes(`Reference ${k}:`))).toEqual([true, true, true, true]);
      expect(user).not.toContain('Reference 5:');
    }
    const metrics = JSON.parse(await readFile(path.join(output, 'metrics.json'), 'utf8'));
    expect(metrics.evaluation.options).toEqual({ roundWidths: '4,1' });

    const table = path.join(dir, 'table1');
    const result = await runCliInProcess(['table1', '--input-file', input, '--output-file', table, '--strategies', 'pacore', '--no-proof', '--n-candidates', '3', '--max-iterations', '2', '--judge-passes', '0']);
    expect(result.code, result.stderr).toBe(0);
    const widths = await readJournal(path.join(table, 'pacore'));
    expect([0, 1].map((t) => widths.filter((call) => call.problem === 'p1' && call.iteration === t).length)).toEqual([3, 3]);
    expect(JSON.parse(await readFile(path.join(table, 'pacore', 'metrics.json'), 'utf8')).evaluation.options).toEqual({ roundWidths: '' });
  });

  test('references that do not fit the window are dropped from the end, and the drop is logged', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(1));
    const output = path.join(dir, 'run');
    await runInProcess(['--input-file', input, '--output-file', output, '--no-proof', '--strategy', 'pacore', '--max-iterations', '2', '--round-widths', '6,1', '--max-tokens', '1400', '--sim-output-tokens', '200']);
    const trimmed = (await readLog(output)).map((envelope) => envelope.message).filter((message): message is MessageOf<'context.trimmed'> => message.type === 'context.trimmed' && message.role === 'synthesis');
    expect(trimmed.length).toBeGreaterThan(0);
    for (const message of trimmed) {
      // The dropped references are the last ones: reference-6, then reference-5, ...
      const numbers = message.dropped.map((id) => Number(id.replace('reference-', ''))).sort((a, b) => b - a);
      expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => 6 - i));
    }
  });
});
