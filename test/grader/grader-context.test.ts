/**
 * The rule grader knows what it cannot know: a decimal against a closed form
 * it does not exactly equal, a value match where the question asks for a
 * form the answer is not in, and a response with several different final
 * answers are `unsure`, never `equal`; under `--judge-when unsure` they go
 * to the judge, while their counter-cases stay decided by the rule. Every
 * case here is written for this project.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { auditedByJudge } from '../../machines/judge-audit.ts';
import { runGradeCommand } from '../../src/cli/tools/grade.command.ts';
import type { MessageOf } from '../../src/kernel/protocol.ts';
import { readResults } from '../../src/store/results-line.ts';
import { askedForm, extractAnswer, finalAnswers, gradeAnswer, type GradeContext, type Verdict } from '../../src/grader/index.ts';
import { readJournal, readLog, runInProcess, serveModel, test, writeProblems } from '../fixtures.ts';

type Case = [gold: string, pred: string];

function expectVerdict(verdict: Verdict, cases: Case[], context?: GradeContext): void {
  for (const [gold, pred] of cases) {
    expect(gradeAnswer(pred, gold, undefined, context).verdict, `${pred} against ${gold}`).toBe(verdict);
  }
}

describe('a decimal against a closed form', () => {
  it('is unsure when it rounds or truncates a value it is not exactly', () => {
    expectVerdict('unsure', [
      ['e^{\\pi}', '23.14069'],
      ['\\frac{1}{7}', '0.142857'],
      ['\\sqrt{2}', '1.414214'],
      ['\\frac{5}{3}', '1.67'],
      ['\\ln 2', '0.6931'],
      ['2\\sqrt{3}', '3.464'],
      ['(\\sqrt{3}, 2)', '(1.732, 2)'],
      ['\\sqrt{3}\\,x', '1.732x'],
    ]);
  });

  it('stays equal when the decimal is exactly the value', () => {
    expectVerdict('equal', [
      ['\\frac{1}{2}', '0.5'],
      ['\\frac14', '0.25'],
      ['\\frac{3}{8}', '0.375'],
      ['-\\frac{5}{2}', '-2.5'],
      ['12', '12.0'],
      ['\\sin\\frac{\\pi}{6}', '0.5'],
      ['\\frac{7}{4}x', '1.75x'],
    ]);
  });

  it('stays different when it is not even a rounding of the value', () => {
    expectVerdict('different', [
      ['\\frac{1}{7}', '0.15'],
      ['\\pi', '3.15'],
      ['\\sqrt{2}', '1.42'],
      ['\\frac{2}{3}', '0.65'],
    ]);
  });
});

describe('a question that asks for a form', () => {
  // [question, reference, the value in another form, the same form written otherwise]
  const asked: Array<[string, string, string, string]> = [
    ['Factor $x^2 - 9$ completely.', '(x-3)(x+3)', 'x^2-9', '(x+3)(x-3)'],
    ['Expand $(x+3)^2$.', 'x^2+6x+9', '(x+3)^2', '9 + 6x + x^2'],
    ['Write $\\frac{10}{15}$ in lowest terms.', '\\frac{2}{3}', '\\frac{10}{15}', '2/3'],
    ['Solve $|x| \\le 2$. Give your answer in interval notation.', '[-2, 2]', '-2 \\le x \\le 2', 'x \\in [-2,2]'],
    ['Write $\\sqrt{72}$ in the form $a\\sqrt{b}$ with $b$ square-free.', '6\\sqrt{2}', '\\sqrt{72}', '6 \\sqrt 2'],
    ['Express $0.375$ as a common fraction.', '\\frac{3}{8}', '0.375', '\\dfrac{3}{8}'],
  ];

  it('makes a match in value only unsure, and keeps the same form equal', () => {
    for (const [question, gold, otherForm, sameForm] of asked) {
      expect(askedForm(question), question).not.toBeNull();
      expectVerdict('unsure', [[gold, otherForm]], { question });
      expectVerdict('equal', [[gold, sameForm]], { question });
      // Without the question, values are all the rule compares.
      expectVerdict('equal', [[gold, otherForm]]);
    }
  });

  it('leaves a wrong answer different', () => {
    expectVerdict('different', [['(x-3)(x+3)', '(x-3)(x+2)']], { question: 'Factor $x^2 - 9$ completely.' });
  });

  it('reads no form into a question that names none, or says "factor" as a noun', () => {
    for (const question of ['Find the greatest common factor of 12 and 18.', 'Let $p(x) = x^2 - 9$. Which polynomial is $p$?', 'How many divisors does 12 have?']) {
      expect(askedForm(question), question).toBeNull();
    }
    expectVerdict('equal', [['6', '2 \\cdot 3']], { question: 'Find the greatest common factor of 12 and 18.' });
    expectVerdict('equal', [['(x-3)(x+3)', 'x^2-9']], { question: 'Let $p(x) = x^2 - 9$. Which polynomial is $p$?' });
  });
});

describe('a last sentence that names two quantities', () => {
  /** The verdict a run gives a whole response to a question. */
  const verdictOf = (response: string, gold: string, question?: string): Verdict =>
    gradeAnswer(extractAnswer(response), gold, undefined, { response, ...(question === undefined ? {} : { question }) }).verdict;

  it('is graded by the one the question asks for, and by the first without a question', () => {
    // The first was extracted whatever was asked: the right sum 9 graded different, a wrong larger root 4 passed.
    const roots = 'The roots are $4$ and $5$; sum $9$.';
    expect(verdictOf(roots, '9', 'Let $r$ and $s$ be the roots of $x^2 - 9x + 20$. Find the sum $r + s$.')).toBe('equal');
    expect(verdictOf(roots, '4, 5', 'Let $r$ and $s$ be the roots of $x^2 - 9x + 20$. Find the sum $r + s$.')).toBe('different');
    expect(verdictOf(roots, '4, 5', 'Find the roots of $x^2 - 9x + 20$.')).toBe('equal');
    expect(verdictOf(roots, '9', 'Find the roots of $x^2 - 9x + 20$.')).toBe('different');
    const larger = 'The smaller root is $4$; the larger is $6$.';
    expect(verdictOf(larger, '5', 'Find the larger root of $q$.')).toBe('different');
    expect(verdictOf(larger, '6', 'Find the larger root of $q$.')).toBe('equal');
    expect(gradeAnswer(extractAnswer(larger), '6', undefined, { response: larger, question: 'Find the larger root of $q$.' }).pred).toBe('6');
    // Without a question, or one that names neither, the first stands and what follows is a remark on it.
    expect(verdictOf(roots, '4, 5')).toBe('equal');
    expect(verdictOf('The volume is $27$ cubic units; the side is $3$.', '27', 'Find it.')).toBe('equal');
    // A clause that opens on a condition names no quantity.
    expect(verdictOf('The least $m$ is $7$; for $m = 5$ the tiling fails.', '5', 'Find the least m for which a tiling exists.')).toBe('different');
  });

  it('reads the quantities of the last sentences, or of clauses that "and the … is" joins, and a value under its letter', () => {
    // The last was extracted: the right minimum 3 graded different, a wrong reference 8 passed, sure of it.
    for (const response of ['The minimum is $3$. The maximum is $8$.', 'The minimum is $3$, and the maximum is $8$.', 'The minimum is $3$ and the maximum is $8$.']) {
      expect(verdictOf(response, '3', 'Find the minimum value of $g$ on $[0, 1]$.'), response).toBe('equal');
      expect(verdictOf(response, '8', 'Find the minimum value of $g$ on $[0, 1]$.'), response).toBe('different');
      expect(verdictOf(response, '8', 'Find the maximum of $g$.'), response).toBe('equal');
    }
    expect(verdictOf('It follows that $u = 6$. Hence $v = 1$.', '6', 'Given $u$ and $v$ as above, find $u$.')).toBe('equal');
    expect(verdictOf('It follows that $u = 6$. Hence $v = 1$.', '1', 'Given $u$ and $v$ as above, find $u$.')).toBe('different');
    // A quantity none names leaves the extraction as it was; a request for both is both, in the order asked (read as
    // its last clause, the pair was graded different from the right reference (3, 8), and 8 alone equal).
    expect(verdictOf('So $u = 2$ and $v = 5$, giving $u + v = 7$.', '7', 'Find $u + v$.')).toBe('equal');
    expect(verdictOf('The minimum is $3$ and the maximum is $8$.', '(3, 8)', 'Find the minimum and the maximum.')).toBe('equal');
    expect(verdictOf('The maximum is $8$ and the minimum is $3$.', '(3, 8)', 'Find the minimum and the maximum.')).toBe('equal');
    expect(verdictOf('The minimum is $3$ and the maximum is $8$.', '(8, 3)', 'Find the minimum and the maximum.')).toBe('different');
    // A reference of one of the two values: which end it names only a reader can tell (named-values.ts).
    expect(verdictOf('The minimum is $3$ and the maximum is $8$.', '8', 'Find the minimum and the maximum.')).toBe('unsure');
    // A letter the question counts or adds up is not what it asks for: the list of n was graded, different from the right 3.
    const counted = 'So $n = 1, 2, 3$. Thus there are $3$ such integers.';
    expect(verdictOf(counted, '3', 'How many positive integers $n$ satisfy $n^2 < 10$?')).toBe('equal');
    expect(verdictOf('The valid $n$ are $n = 2, 5$. So the total is $7$.', '7', 'Find the sum of all $n$ with this property.')).toBe('equal');
    expect(verdictOf('So $p = 2$. Then $q = 4$.', '2', 'What is $p$ if $q = 4$?')).toBe('equal');
    // So is a word after "how many" or "the number of": the list of pairs was graded, different from the right 6.
    const pairs = 'The pairs are $(1,12),(2,6),(3,4),(4,3),(6,2),(12,1)$. So there are $6$ pairs.';
    expect(verdictOf(pairs, '6', 'How many ordered pairs $(x, y)$ of positive integers satisfy $xy = 12$?')).toBe('equal');
    expect(verdictOf(pairs, '6', 'Find the number of ordered pairs $(x, y)$ with $xy = 12$.')).toBe('equal');
    expect(verdictOf('The sum is $9$; the roots are $4$ and $5$.', '4, 5', 'Find all roots of $x^2 - 9x + 20$.')).toBe('equal');
    // A clause that states the count of the word asked is that count.
    const handshakes = 'The number of people is $10$. The number of handshakes is $45$.';
    expect(verdictOf(handshakes, '45', 'How many handshakes occur in total among the 10 people?')).toBe('equal');
    expect(verdictOf(handshakes, '10', 'How many handshakes occur in total among the 10 people?')).toBe('different');
  });
});

describe('"there are no such n" against a count of 0', () => {
  it('is the count where the question asks how many, unsure without the question, and DNE is never a count', () => {
    // "There are no such $n$." against 0 was different, sure of it, though the question asked how many.
    const howMany = { question: 'How many positive integers $n$ satisfy $n^2 + 1 = 0$?' };
    expectVerdict('equal', [['0', 'There are no such $n$.'], ['0', 'none'], ['0', 'There are no solutions.'], ['0', 'No, there is no such n.']], howMany);
    expectVerdict('equal', [['0', 'no such n exists']], { question: 'Find the number of primes $p$ with $p^2 = 8$.' });
    expectVerdict('unsure', [['0', 'There are no such $n$.'], ['0', 'none']]);
    expectVerdict('unsure', [['0', 'There are no such $n$.']], { question: 'Find all integers $n$ with $n^2 = n$.' });
    expectVerdict('different', [['0', 'DNE'], ['0', 'does not exist'], ['1', 'There are no such $n$.']], howMany);
    expectVerdict('different', [['0', '\\emptyset'], ['0', '\\{\\}']], howMany);
  });
});

describe('several final answers in one response', () => {
  const parts = '(a) Is 7 prime? $\\boxed{Yes}$. (b) Is 9 prime? $\\boxed{No}$. (c) Is 11 prime? $\\boxed{Yes}$.';
  const corrected = 'Counting the corners once: $\\boxed{12}$. But each corner was counted twice, so the total is $\\boxed{14}$.';

  it('is unsure whatever the last answer says, while extraction still reads the last', () => {
    expect(extractAnswer(parts)).toBe('Yes');
    expect(finalAnswers(parts)).toEqual(['Yes', 'No', 'Yes']);
    expectVerdict('unsure', [['Yes', 'Yes'], ['No', 'Yes']], { response: parts });
    expectVerdict('unsure', [['14', '14'], ['12', '14']], { response: corrected });
    expectVerdict('unsure', [['9', '9']], { response: 'Final answer (a): 4\nFinal answer (b): 9' });
    expectVerdict('unsure', [['455', '455']], { response: 'The first account earns $\\boxed{200}$. Final answer: $455$' });
    // "the answer is" after a box gives another answer as "Final answer:" does.
    expectVerdict('unsure', [['13', '13'], ['12', '13']], { response: 'Thus $\\boxed{12}$. Therefore the answer is 13.' });
  });

  it('is one answer when the boxes are one list, the same value twice, or inside the reasoning', () => {
    expectVerdict('equal', [['2, 5', '2, 5']], { response: 'The roots are $\\boxed{2}$ and $\\boxed{5}$.' });
    expectVerdict('equal', [['\\frac12', '0.5']], { response: 'So $p = \\boxed{\\frac12}$, that is, $\\boxed{0.5}$.' });
    expectVerdict('equal', [['4', '4']], { response: '<think>Is it $\\boxed{3}$? No.</think>The answer is $\\boxed{4}$.' });
    expectVerdict('equal', [['5', '5']], { response: 'Final Answer: The final answer is $5$. I hope it is correct.' });
    expectVerdict('equal', [['12', '12']], { response: 'Thus $\\boxed{12}$. Therefore the answer is 12. Note that the answer is independent of $n$.' });
    // Words after the box that judge it ("the answer is correct") state no other value: the box stays the answer.
    expectVerdict('equal', [['12', '12']], { response: 'So the answer is $\\boxed{12}$. This confirms that the answer is correct.' });
    expectVerdict('equal', [['12', '12']], { response: 'Thus $\\boxed{12}$. Note the answer is an integer, as expected.' });
    expectVerdict('equal', [['12', '12']], { response: 'Thus $\\boxed{12}$. Let me double-check the answer: yes.' });
  });

  it('is one answer when a box before the last holds a placeholder, no value (the simulator\'s `boxes` format break)', () => {
    const scratch = 'A first pass left it open at \\boxed{?}; the check below settles it.\nTherefore, the final answer is \\boxed{2}.';
    expect(finalAnswers(scratch)).toEqual(['2']);
    // Before, `?` was a second final answer: the right 2 was unsure, and a rule-graded table counted it wrong.
    expectVerdict('equal', [['2', '2']], { response: scratch });
    expectVerdict('equal', [['3', '3']], { response: 'So far $\\boxed{\\ldots}$ is open. Then $\\boxed{3}$.' });
    // A box with a value, even one sign, is an answer.
    expectVerdict('unsure', [['4', '4']], { response: 'First $\\boxed{-1}$, then $\\boxed{4}$.' });
  });
});

describe('tmas grade reads the response and a question', () => {
  it('grades a JSONL line with its question and a multi-part response as a run would', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'tmas-grade-context-'));
    try {
      const file = path.join(dir, 'cases.jsonl');
      const lines = [
        { gold: '(x-1)(x+1)', pred: 'Expanding gives \\boxed{x^2-1}.', question: 'Factor $x^2-1$.' },
        { gold: '(x-1)(x+1)', pred: '\\boxed{(x+1)(x-1)}', question: 'Factor $x^2-1$.' },
        { gold: 'Yes', pred: '(a) \\boxed{No} (b) \\boxed{Yes}' },
      ];
      await writeFile(file, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n${JSON.stringify({ gold: '1', pred: '1', question: 3 })}\n`);
      const out: string[] = [];
      await expect(runGradeCommand({ jsonl: file }, { stdout: (line) => out.push(line) })).rejects.toThrow(`${file}:4: "question" must be a string`);
      expect(out.slice(0, 3).map((line) => (JSON.parse(line) as { verdict: string }).verdict)).toEqual(['unsure', 'equal', 'unsure']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the audited share of rule-decided candidates', () => {
  const ids = Array.from({ length: 4000 }, (_, k) => `p${k % 40}/${Math.floor(k / 40) % 5}/${k % 8}-${k}`);

  it('is the same candidates for the same seed, about the share asked, and grows by adding', () => {
    const picked = (seed: number, share: number): string[] => ids.filter((id) => auditedByJudge(seed, id, share));
    expect(picked(7, 0.1)).toEqual(picked(7, 0.1));
    expect(picked(7, 0.1).length / ids.length).toBeGreaterThan(0.08);
    expect(picked(7, 0.1).length / ids.length).toBeLessThan(0.12);
    const larger = new Set(picked(7, 0.25));
    expect(picked(7, 0.1).every((id) => larger.has(id))).toBe(true);
    expect(picked(8, 0.1)).not.toEqual(picked(7, 0.1));
    expect(picked(7, 0)).toEqual([]);
    expect(picked(7, 1)).toEqual(ids);
    expect(() => auditedByJudge(7, 'p/0/0', 1.5)).toThrow(RangeError);
  });
});

let servers: Array<{ close: () => Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

describe('--judge-when unsure in a run', () => {
  // Each problem's one solution, by a word of its question; the judge always says "equivalent".
  const problems = [
    { problem_id: 'approx', question: 'Compute e to the power pi.', answer: 'e^{\\pi}', reply: 'Numerically, $\\boxed{23.14069}$.' },
    { problem_id: 'factor', question: 'Factor $x^2+x-2$.', answer: '(x-1)(x+2)', reply: 'Multiplying out: $\\boxed{x^2+x-2}$.' },
    { problem_id: 'parts', question: 'Is 9 prime (part a)? Is 11 prime (part b)?', answer: 'Yes', reply: '(a) $\\boxed{No}$. (b) $\\boxed{Yes}$.' },
    { problem_id: 'exact', question: 'What is one quarter?', answer: '\\frac14', reply: 'It is $\\boxed{0.25}$.' },
    { problem_id: 'factored', question: 'Factor $x^2-1$.', answer: '(x-1)(x+1)', reply: 'So $\\boxed{(x+1)(x-1)}$.' },
    { problem_id: 'twice', question: 'How many legs do a cat and a bird have together?', answer: '6', reply: 'Four and two: $\\boxed{6}$. Checking again: $\\boxed{6}$.' },
  ];

  test('sends the unsure classes to the judge, each as its final text, and lets the rule decide their counter-cases', async ({ dir }) => {
    const server = await serveModel((body) => {
      const { messages } = JSON.parse(body) as { messages: Array<{ role: string; content: string }> };
      if (messages.some((m) => m.content.includes('You are the Judge agent'))) return 'Same.\nVERDICT: equivalent';
      const user = messages.find((m) => m.role === 'user')?.content ?? '';
      return problems.find((p) => user.includes(p.question))?.reply ?? 'No idea.';
    });
    servers.push(server);
    const input = await writeProblems(dir, problems);
    const output = path.join(dir, 'run');
    await runInProcess([
      ...['--input-file', input, '--output-file', output, '--strategy', 'majority', '--samples', '1', '--base-url', server.url, '--model-name', 'm'],
      ...['--no-proof', '--no-stream', '--max-iterations', '1', '--judge-passes', '1', '--judge-when', 'unsure'],
    ]);
    const judged = (await readJournal(output)).filter((call) => call.role === 'judge');
    expect(judged).toHaveLength(3);
    const requests = (await readLog(output)).flatMap((e) => (e.message.type === 'judge.requested' ? [e.message as MessageOf<'judge.requested'>] : []));
    expect(requests.map((r) => r.problem).sort()).toEqual(['approx', 'factor', 'parts']);
    // The judge reads every response's final text, the parts and the factored form alike.
    expect(requests.find((r) => r.problem === 'parts')).toMatchObject({ response: problems[2]?.reply.trim(), cut: false });
    expect(requests.find((r) => r.problem === 'factor')?.response).toContain('x^2+x-2');
    const results = await readResults(path.join(output, 'results.jsonl'));
    const byProblem = new Map(results.map((line) => [line.problem, line.candidates[0]]));
    for (const id of ['approx', 'factor', 'parts']) expect(byProblem.get(id), id).toMatchObject({ correct: false, unsure: true, correctJudge: 1 });
    for (const id of ['exact', 'factored', 'twice']) expect(byProblem.get(id), id).toMatchObject({ correct: true, ruled: true, correctJudge: 1 });
  });
});
