import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runGradeCommand } from '../../src/cli/tools/grade.command.ts';
import { extractAnswer, extractFinalMath, gradeAnswer, normalizeAnswer, type GradeOptions } from '../../src/grader/index.ts';

/** [gold, pred, options?] triples, written for this project. */
type Case = [gold: string, pred: string, options?: GradeOptions];

function expectEqual(cases: Case[]): void {
  for (const [gold, pred, options] of cases) {
    expect(gradeAnswer(pred, gold, options).equal, `${pred} should equal ${gold}`).toBe(true);
  }
}

function expectDifferent(cases: Case[]): void {
  for (const [gold, pred, options] of cases) {
    expect(gradeAnswer(pred, gold, options).equal, `${pred} should differ from ${gold}`).toBe(false);
  }
}

/** Neither equal nor different: the rule cannot know, a judge decides. */
function expectUnsure(cases: Case[]): void {
  for (const [gold, pred, options] of cases) {
    expect(gradeAnswer(pred, gold, options).verdict, `${pred} against ${gold}`).toBe('unsure');
  }
}

describe('extractAnswer', () => {
  it('reads the content of a box with nested braces', () => {
    expect(extractAnswer('So the probability is $\\boxed{\\frac{1}{2}}$.')).toBe('\\frac{1}{2}');
    expect(extractAnswer('Hence \\boxed{\\left\\{ \\frac{3}{4}, \\sqrt{2} \\right\\}}')).toBe('\\left\\{ \\frac{3}{4}, \\sqrt{2} \\right\\}');
  });

  it('takes the last box when a response boxes more than once', () => {
    expect(extractAnswer('First try: \\boxed{12}. That was wrong; redoing the count gives \\boxed{15}.')).toBe('15');
  });

  it('accepts \\fbox and an unbraced \\boxed argument', () => {
    expect(extractAnswer('The total is \\fbox{42}')).toBe('42');
    expect(extractAnswer('The total is $\\boxed 7$')).toBe('7');
  });

  it('joins boxes that only a separator keeps apart', () => {
    expect(extractAnswer('The roots are \\boxed{-3} and \\boxed{4}.')).toBe('-3, 4');
    expect(extractAnswer('Pairs: \\boxed{(1, 2)}, \\boxed{(2, 1)}')).toBe('(1, 2), (2, 1)');
  });

  it('keeps a box that is still open at the end of a truncated response', () => {
    expect(extractAnswer('so the value is \\boxed{\\frac{7}{3}')).toBe('\\frac{7}{3}');
  });

  it('returns null when there is no answer at all', () => {
    expect(extractAnswer('I am not sure how to continue with this problem.')).toBeNull();
    expect(extractAnswer('')).toBeNull();
  });

  it('falls back to an announced final answer', () => {
    expect(extractAnswer('We add the two parts.\nFinal answer: 318')).toBe('318');
    expect(extractAnswer('Therefore the answer is $\\frac{5}{8}$. I hope it is correct.')).toBe('\\frac{5}{8}');
    expect(extractAnswer('Final Answer: The number of tilings is 64.')).toBe('64');
    expect(extractAnswer('Final answer: 12. Note that the answer is independent of the order chosen.')).toBe('12');
  });

  it('prefers a final statement written after the last box', () => {
    expect(extractAnswer('Step one gives \\boxed{20}. Step two adds 5. The final answer is $25$.')).toBe('25');
    expect(extractAnswer('So we get \\boxed{20}. Checking, the answer is not 21.')).toBe('20');
  });

  it('falls back to a lone multiple-choice letter at the end', () => {
    expect(extractAnswer('Comparing the options, the correct choice is\n(D)')).toBe('D');
    expect(extractAnswer('Only one option survives: B)')).toBe('B');
  });

  it('leaves prose without any answer to the looser extractor', () => {
    const response = 'Adding the rows gives 17 and then the columns give 23 in total';
    expect(extractAnswer(response)).toBeNull();
    expect(extractFinalMath(response)).toBe('23');
    expect(extractFinalMath('Therefore $y = 3x - 1$ is the line we want.')).toBe('y = 3x - 1');
  });
});

describe('gradeAnswer: numbers', () => {
  it('reads integers with thousands separators and leading zeros', () => {
    expectEqual([
      ['3806250', '3,806,250'],
      ['5000', '5 000'],
      ['12345', '12{,}345'],
      ['64', '064'],
      ['0', '-0.0'],
      ['98765432109876543210', '98765432109876543210'],
    ]);
    expectDifferent([
      ['98765432109876543210', '98765432109876543211'],
      ['4521', '45, 21'],
      ['2^{100}', '2^{100}+1'],
    ]);
  });

  it('compares decimals with fractions', () => {
    expectEqual([
      ['\\frac{1}{2}', '0.5'],
      ['\\frac14', '.25'],
      ['3.50', '\\frac{7}{2}'],
    ]);
    // Approximations: right or wrong in intent, which the question decides.
    expectUnsure([
      ['\\frac{2}{7}', '0.285714'],
      ['\\frac{2}{7}', '0.29'],
      ['\\pi', '3.14'],
    ]);
    expectDifferent([
      ['\\frac{1}{2}', '0.51'],
      ['16.45', '16.44'],
    ]);
  });

  it('reads a decimal comma, but not in a one-digit list', () => {
    expectEqual([
      ['3.75', '3,75'],
      ['0.125', '0,125'],
    ]);
    expectDifferent([['1,2', '1.2']]);
  });

  it('uses the precision option for a decimal rounded from another', () => {
    expectEqual([['0.285714', '0.2857', { precision: 4 }]]);
    expectDifferent([['0.285714', '0.2857']]);
  });

  it('reads every spelling of a fraction, and mixed numbers', () => {
    expectEqual([
      ['\\frac{3}{8}', '\\dfrac{3}{8}'],
      ['\\frac{3}{8}', '\\tfrac38'],
      ['\\frac{3}{8}', '3/8'],
      ['-\\frac{5}{6}', '\\frac{-5}{6}'],
      ['\\frac{6}{8}', '\\frac{3}{4}'],
      ['\\frac{11}{4}', '2\\frac{3}{4}'],
    ]);
    expectDifferent([
      ['\\frac{2}{3}', '\\frac{3}{2}'],
      ['\\frac{3}{8}', '-\\frac{3}{8}'],
    ]);
  });

  it('handles radicals', () => {
    expectEqual([
      ['2\\sqrt{3}', '\\sqrt{12}'],
      ['2\\sqrt3', '2 \\sqrt{3}'],
      ['\\frac{\\sqrt{2}}{2}', '\\frac{1}{\\sqrt{2}}'],
      ['3', '\\sqrt[3]{27}'],
    ]);
    expectUnsure([['\\sqrt{2}', '1.414214']]);
    expectDifferent([
      ['\\sqrt{2}', '1.41'],
      ['2\\sqrt{3}', '3\\sqrt{2}'],
      ['\\sqrt[3]{2}', '\\sqrt{2}'],
    ]);
  });

  it('knows pi and e', () => {
    expectEqual([
      ['2\\pi', '\\pi \\cdot 2'],
      ['\\frac{\\pi}{3}', '\\frac13\\pi'],
      ['e^{2}', '\\exp(2)'],
      ['1-\\frac{1}{e}', '1 - e^{-1}'],
    ]);
    expectUnsure([['\\pi', '3.1415927']]);
    expectDifferent([
      ['2\\pi', '\\pi'],
      ['e', '2.72'],
    ]);
  });

  it('reads scientific notation', () => {
    expectEqual([
      ['1500', '1.5 \\times 10^{3}'],
      ['0.00032', '3.2 \\cdot 10^{-4}'],
      ['25000', '2.5e4'],
    ]);
    expectDifferent([['1500', '1.5 \\times 10^{4}']]);
  });
});

describe('gradeAnswer: percent and units', () => {
  it('reads a percent as the number or its hundredth by default', () => {
    expectEqual([
      ['40\\%', '0.4'],
      ['40\\%', '40'],
      ['40\\%', '\\frac{2}{5}'],
      ['0.4', '40\\%'],
      ['40\\%', '40 percent'],
    ]);
    expectDifferent([
      ['40\\%', '4'],
      ['40\\%', '4000\\%'],
    ]);
  });

  it("reads a percent only as its value with percent: 'value'", () => {
    expectEqual([['40\\%', '0.4', { percent: 'value' }]]);
    expectDifferent([['40\\%', '40', { percent: 'value' }]]);
  });

  it('ignores units by default', () => {
    expectEqual([
      ['12', '12 \\text{ cm}'],
      ['36\\text{ m}^2', '36'],
      ['75^\\circ', '75'],
      ['8', '8 \\mbox{ apples}'],
      ['4.5', '\\$4.50'],
      ['30', '30 minutes'],
    ]);
    expectDifferent([['12', '13 \\text{ cm}']]);
  });

  it("requires matching units with units: 'strict'", () => {
    expectEqual([
      ['36\\text{ m}^2', '36 \\mbox{m}^{2}', { units: 'strict' }],
      ['75^\\circ', '75^{\\circ}', { units: 'strict' }],
    ]);
    expectDifferent([
      ['12\\text{ cm}', '12\\text{ m}', { units: 'strict' }],
      ['75^\\circ', '75', { units: 'strict' }],
    ]);
  });
});

describe('gradeAnswer: sets, lists, tuples, intervals', () => {
  it('compares sets without order', () => {
    expectEqual([
      ['\\{1, 2\\}', '\\{2, 1\\}'],
      ['\\{-3, \\frac{1}{2}\\}', '\\left\\{ 0.5, -3 \\right\\}'],
      ['\\emptyset', '\\{\\}'],
    ]);
    expectDifferent([
      ['\\{1, 2\\}', '\\{1, 3\\}'],
      ['\\{1, 2\\}', '\\{1, 2, 3\\}'],
    ]);
  });

  it('treats a bare list as an unordered answer list unless told otherwise', () => {
    expectEqual([
      ['3, 7', '7, 3'],
      ['3, 7', '3 \\text{ and } 7'],
      ['-1, 4', 'x = 4, x = -1'],
      ['2 \\pm \\sqrt{5}', '2+\\sqrt5, 2-\\sqrt5'],
    ]);
    expectDifferent([
      ['3, 7', '7'],
      ['3, 7', '3, 8'],
      ['3, 7', '7, 3', { lists: 'ordered' }],
    ]);
  });

  it('keeps tuples ordered', () => {
    expectEqual([
      ['(1, \\frac{1}{2})', '\\left(1, 0.5\\right)'],
      ['(2, -1, 4)', '(2,-1,4)'],
      ['(a, b) = (3, 5)', '(3, 5)'],
    ]);
    expectDifferent([
      ['(1, 2)', '(2, 1)'],
      ['(1, 2, 3)', '(1, 2)'],
    ]);
  });

  it('compares intervals and unions by the points they contain', () => {
    expectEqual([
      ['(0, 1]', '(0,1]'],
      ['[2, \\infty)', '[2, +\\infty)'],
      ['(-\\infty, 0) \\cup (1, \\infty)', '(1, \\infty) \\cup (-\\infty, 0)'],
      ['[-2, 0) \\cup (0, 2]', '(0,2] \\cup [-2,0)'],
      ['(-\\infty, 1) \\cup \\{3\\}', '\\{3\\} \\cup (-\\infty, 1)'],
    ]);
    expectDifferent([
      ['(0, 1]', '[0, 1]'],
      ['(0, 1]', '(0, 1)'],
      ['(-\\infty, 0) \\cup (1, \\infty)', '(-\\infty, 1)'],
    ]);
  });

  it('compares matrices entry by entry', () => {
    expectEqual([
      ['\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}', '\\begin{bmatrix}1&2\\\\3&4\\end{bmatrix}'],
      ['\\begin{pmatrix} \\frac12 \\\\ -3 \\end{pmatrix}', '\\begin{pmatrix} 0.5 \\\\ -3 \\end{pmatrix}'],
    ]);
    expectDifferent([
      ['\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}', '\\begin{pmatrix} 1 & 2 \\\\ 3 & 5 \\end{pmatrix}'],
      ['\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}', '\\begin{pmatrix} 1 & 3 \\\\ 2 & 4 \\end{pmatrix}'],
    ]);
  });
});

describe('gradeAnswer: equations, inequalities, expressions', () => {
  it('reads "x = 5" as the value 5', () => {
    expectEqual([
      ['7', 'x = 7'],
      ['y = 7', '7'],
      ['f(x) = 3x - 2', '3x-2'],
      ['\\frac{4}{9}', 'P = \\frac{8}{18}'],
    ]);
    expectDifferent([
      ['7', 'x = 8'],
      ['x + y = 7', '7'],
    ]);
  });

  it('compares equations up to rearrangement', () => {
    expectEqual([
      ['y = 2x + 1', '2x - y + 1 = 0'],
      ['x^2 + y^2 = 4', '2x^2 + 2y^2 = 8'],
    ]);
    expectDifferent([
      ['y = 2x + 1', 'y = 2x - 1'],
      ['x = 5', 'y = 5'],
    ]);
  });

  it('compares inequalities with each other and with intervals', () => {
    expectEqual([
      ['x \\le 3', '3 \\ge x'],
      ['x \\le 3', '(-\\infty, 3]'],
      ['-1 < x \\le 2', '(-1, 2]'],
      ['x > 4', '-x < -4'],
      ['t \\geq 0', '[0, \\infty)'],
    ]);
    expectDifferent([
      ['x \\le 3', 'x < 3'],
      ['x \\le 3', '(-\\infty, 3)'],
      ['x > 4', 'x < 4'],
    ]);
  });

  it('treats interval statements as relations only when allowed', () => {
    expectEqual([['0 \\le x \\le 1', 'x \\in [0, 1]']]);
    expectDifferent([['0 \\le x \\le 1', 'x \\in [0, 1]', { relationsAsSets: false }]]);
  });

  it('checks symbolic equality numerically', () => {
    expectEqual([
      ['2(x+1)', '2x+2'],
      ['(a+b)^2', 'a^2 + 2ab + b^2'],
      ['\\frac{x}{2}', '0.5x'],
      ['\\sin^2 x + \\cos^2 x', '1'],
      ['\\frac{n(n+1)}{2}', '\\frac{n^2+n}{2}'],
      ['R(1+\\sqrt{2})', 'R + \\sqrt{2}R'],
      ['f(x+1) - f(x)', '-f(x) + f(x+1)'],
      ['\\binom{n}{2}', '\\frac{n(n-1)}{2}'],
      ['\\ln(e^3)', '3'],
    ]);
    expectDifferent([
      ['x^2 + 1', 'x^2 - 1'],
      ['2(x+1)', '2x+1'],
      ['\\frac{n(n+1)}{2}', 'n^2'],
      ['|x|', 'x'],
    ]);
  });

  it('ignores layout: \\left \\right, thin spaces, dollar signs', () => {
    expectEqual([
      ['\\frac{1}{2}', '\\left( \\frac{1}{2} \\right)'],
      ['25', '\\$25'],
      ['6\\sqrt{2}', '6 \\! \\sqrt{2}'],
      ['\\frac{1}{2}', '$\\displaystyle \\frac{1}{2}$'],
      ['(3, 4)', '\\left(3,\\, 4\\right)'],
    ]);
  });

  it('compares words as text', () => {
    expectEqual([
      ['\\text{Tuesday}', 'tuesday'],
      ['(C)', 'C'],
      ['\\text{never}', 'Never'],
    ]);
    expectDifferent([
      ['\\text{never}', 'always'],
      ['(C)', 'D'],
    ]);
  });
});

describe('gradeAnswer: robustness', () => {
  it('never throws, whatever the input', () => {
    const inputs = [
      '', '}', '{{{{', '\\frac{', '\\sqrt[', '\\begin{pmatrix}', '(((((', '\\left(', '$$', '\\boxed{',
      '9'.repeat(5000), '\\frac{1}{0}', '0^0', '\\infty - \\infty', 'x^{x^{x^{x}}}', '10^{10^{10}}', '1000!',
      '{'.repeat(3000), '\\\\\\\\', '\u0000\u0001', '\\text{', 'a'.repeat(20000), '[(])', ',,,,', '= = =',
    ];
    for (const a of inputs) {
      for (const b of inputs.slice(0, 8)) {
        expect(() => gradeAnswer(a, b)).not.toThrow();
        expect(() => gradeAnswer(b, a)).not.toThrow();
      }
      expect(() => normalizeAnswer(a)).not.toThrow();
      expect(() => extractAnswer(a)).not.toThrow();
    }
  });

  it('never counts a missing prediction as correct', () => {
    expect(gradeAnswer(null, '5').equal).toBe(false);
    expect(gradeAnswer('', '5').equal).toBe(false);
  });

  it('reports the normalised forms, and the answer it compared as written', () => {
    const grade = gradeAnswer('\\dfrac{6}{12}', '0.5');
    expect(grade).toEqual({ equal: true, verdict: 'equal', pred: '0.5', gold: '0.5', answer: '\\dfrac{6}{12}' });
  });
});

describe('normalizeAnswer', () => {
  it('gives answers that grade equal the same key', () => {
    const groups = [
      ['\\frac{1}{2}', '0.5', '\\dfrac{2}{4}', '\\boxed{\\frac12}'],
      ['\\{3, 1\\}', '\\{1, 3\\}'],
      ['x = 12', '12', '12.0'],
      ['2\\sqrt{3}', '\\sqrt{12}'],
      ['7, 2', '2, 7'],
    ];
    for (const group of groups) {
      const keys = new Set(group.map(normalizeAnswer));
      expect(keys.size, group.join(' | ')).toBe(1);
    }
  });

  it('keeps different answers apart', () => {
    expect(normalizeAnswer('\\frac{1}{3}')).not.toBe(normalizeAnswer('0.33'));
    expect(normalizeAnswer('(1, 2)')).not.toBe(normalizeAnswer('(2, 1)'));
  });
});

describe('runGradeCommand', () => {
  async function withFile(content: string, run: (file: string) => Promise<void>): Promise<void> {
    const dir = await mkdtemp(path.join(tmpdir(), 'tmas-grade-'));
    try {
      const file = path.join(dir, 'cases.jsonl');
      await writeFile(file, content);
      await run(file);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  it('grades one pair and prints the verdict and both normalised forms', async () => {
    const lines: string[] = [];
    const code = await runGradeCommand({ gold: '\\frac{3}{4}', pred: 'So it is \\boxed{0.75}.' }, { stdout: (l) => lines.push(l) });
    expect(code).toBe(0);
    expect(lines).toEqual(['equal', 'pred: 0.75', 'gold: 0.75']);
    const other: string[] = [];
    expect(await runGradeCommand({ gold: '5 \\text{ cm}', pred: '5', units: 'strict' }, { stdout: (l) => other.push(l) })).toBe(1);
    expect(other[0]).toBe('not equal');
  });

  it('grades a JSONL file line by line and reports agreement with its labels', async () => {
    const content = [
      JSON.stringify({ gold: '2', pred: 'The sum is \\boxed{2}.', equal: true }),
      '',
      JSON.stringify({ gold: '\\{1,2\\}', pred: '\\{1,3\\}', equal: true }),
      JSON.stringify({ gold: '7', pred: null }),
    ].join('\n');
    await withFile(content, async (file) => {
      const lines: string[] = [];
      expect(await runGradeCommand({ jsonl: file }, { stdout: (l) => lines.push(l) })).toBe(0);
      expect(lines.slice(0, 3).map((l) => JSON.parse(l) as unknown)).toEqual([
        { line: 1, equal: true, verdict: 'equal', pred: '2', gold: '2' },
        { line: 3, equal: false, verdict: 'different', pred: '\\{1, 3\\}', gold: '\\{1, 2\\}' },
        { line: 4, equal: false, verdict: 'different', pred: '', gold: '7' },
      ]);
      expect(lines[3]).toBe('agreement: 1/2 (50.0%)');
      expect(lines[4]).toBe('unsure: 0');
    });
  });

  // A file of CR-only lines (classic Mac OS) was one invalid line.
  it('reads CR-only and mixed line ends as lines, naming the right line', async () => {
    await withFile(`${JSON.stringify({ gold: '1', pred: '1' })}\r\r${JSON.stringify({ gold: '2', pred: '3' })}\r\n`, async (file) => {
      const lines: string[] = [];
      expect(await runGradeCommand({ jsonl: file }, { stdout: (l) => lines.push(l) })).toBe(0);
      expect(lines.slice(0, 2).map((l) => (JSON.parse(l) as { line: number; equal: boolean }).line)).toEqual([1, 3]);
    });
  });

  it('rejects an invalid line with TMAS_INPUT naming the file and line', async () => {
    await withFile(`${JSON.stringify({ gold: '1', pred: '1' })}\n{"gold": "2", pred}\n`, async (file) => {
      const run = runGradeCommand({ jsonl: file }, { stdout: () => undefined });
      await expect(run).rejects.toMatchObject({ code: 'TMAS_INPUT', message: expect.stringContaining(`${file}:2`) });
    });
    await withFile(`${JSON.stringify({ pred: '1' })}\n`, async (file) => {
      await expect(runGradeCommand({ jsonl: file }, { stdout: () => undefined })).rejects.toMatchObject({
        code: 'TMAS_INPUT',
        message: expect.stringContaining(`${file}:1: "gold"`),
      });
    });
  });

  it('rejects a missing file with TMAS_INPUT naming it', async () => {
    const missing = path.join(tmpdir(), 'tmas-no-such-dir', 'absent.jsonl');
    await expect(runGradeCommand({ jsonl: missing }, { stdout: () => undefined })).rejects.toMatchObject({
      code: 'TMAS_INPUT',
      message: expect.stringContaining(missing),
    });
  });
});
