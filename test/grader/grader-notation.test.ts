/**
 * The grader on spellings that models write and that it once graded wrong
 * and sure of it: each class with the near misses that must stay apart.
 * Every case here is written for this project.
 */
import { describe, expect, it } from 'vitest';
import { cpuTimed } from './cpu-timed.ts';
import { gradeAnswer, normalizeAnswer, type Verdict } from '../../src/grader/index.ts';

type Case = [gold: string, pred: string];

function expectVerdict(verdict: Verdict, cases: Case[]): void {
  for (const [gold, pred] of cases) {
    expect(gradeAnswer(pred, gold).verdict, `${pred} against ${gold}`).toBe(verdict);
  }
}

describe('a letter set in \\text is a letter, not a unit', () => {
  it('keeps the imaginary unit of a complex number', () => {
    // "3+4\text{i}" once lost its "i" as a unit and graded equal to 7.
    expectVerdict('equal', [['3+4i', '3+4\\text{i}'], ['3+4i', '3 + 4\\text{ i}'], ['2i', '2\\text{i}']]);
    expectVerdict('different', [['3+4i', '3-4\\text{i}']]);
    expect(gradeAnswer('3+4\\text{i}', '7').equal).toBe(false);
    expect(normalizeAnswer('3+4\\text{i}')).not.toBe('7');
  });

  it('still drops a one-letter unit spelled out in \\text', () => {
    expectVerdict('equal', [['5', '5\\text{ m}'], ['300 \\text{ cm}', '3\\text{ m}']]);
    expectVerdict('different', [['6', '5\\text{ m}']]);
  });
});

describe('a word after a number that changes its value', () => {
  it('is a power of ten for a scale, not a unit to drop', () => {
    // "2.5 million" lost "million" as a unit: equal to 2.5, different from 2500000.
    expectVerdict('equal', [['2500000', '2.5 \\text{ million}'], ['2500000', '2.5 million dollars'], ['3000', '3 thousand'], ['2.5 \\times 10^9', '2.5 billion']]);
    expectVerdict('different', [['2.5', '2.5 \\text{ million}'], ['2500000', '2.5 billion'], ['3', '3 thousand']]);
  });

  it('is the operation, constant or fraction it names', () => {
    // Each was dropped as a unit: "5 squared" graded equal to 5, "3 halves" to 3.
    expectVerdict('equal', [['25', '5 squared'], ['24', '2 dozen'], ['120', '5 \\text{ factorial}'], ['\\frac32', '3 halves'], ['0.05', '5 \\text{ hundredths}'], ['2\\pi', '2 \\text{ pi}']]);
    expectVerdict('different', [['5', '5 squared'], ['2', '2 dozen'], ['5', '5 factorial'], ['3', '3 halves'], ['5', '5 \\text{ hundredths}'], ['2', '2 pi']]);
  });

  it('stays a unit where it names what is counted', () => {
    expectVerdict('equal', [['12', '12 \\text{ units squared}'], ['3', '3 quarters'], ['3', '3 \\text{ months}'], ['7', '7 ways']]);
  });
});

describe('a logarithm without a base', () => {
  it('is unsure where the natural and the common logarithm give other verdicts', () => {
    // Read as natural only, "\log 100" was different from 2 and "\ln 2" equal to "\log 2", both sure.
    expectVerdict('unsure', [['2', '\\log 100'], ['\\log 2', '\\ln 2'], ['\\log 2', '0.301']]);
  });

  it('is compared as usual where both readings agree', () => {
    expectVerdict('equal', [['\\log 4', '2\\log 2'], ['\\log_2 3', '\\frac{\\log 3}{\\log 2}'], ['\\log x^2', '2 \\log x']]);
    expectVerdict('different', [['\\log 4', '3\\log 2'], ['3', '\\log 8'], ['\\log 5', '\\log 6']]);
  });
});

describe('degrees inside a trigonometric function', () => {
  it('are converted to radians', () => {
    // "\sin 30^\circ" was read as the sine of 30 radians, -0.988, and called different from 1/2.
    expectVerdict('equal', [['\\frac12', '\\sin 30^\\circ'], ['\\frac12', '\\cos(60^{\\circ})'], ['1', '\\tan 45°'], ['\\frac{3}{4}', '\\sin^2 60^\\circ']]);
    expectVerdict('different', [['\\frac12', '\\sin 60^\\circ'], ['\\frac12', '\\cos 30^\\circ'], ['\\sin 30', '\\sin 30^\\circ']]);
  });

  it('stay a mark read as 1 outside one', () => {
    expectVerdict('equal', [['90 - \\theta', '90^\\circ - \\theta'], ['\\frac{\\pi}{6}', '30^\\circ']]);
  });
});

describe('the real line and its halves by name', () => {
  it('equal the intervals they name', () => {
    // "\mathbb{R}" against "(-\infty, \infty)" was different, and sure of it.
    expectVerdict('equal', [
      ['\\mathbb{R}', '(-\\infty, \\infty)'],
      ['(-\\infty, \\infty)', '\\mathbb{R}'],
      ['(-\\infty, \\infty)', 'x \\in \\mathbb{R}'],
      ['\\text{all real numbers}', '(-\\infty, +\\infty)'],
      ['[0, \\infty)', '\\mathbb{R}_{\\ge 0}'],
      ['(0, \\infty)', '\\mathbb{R}_{>0}'],
      ['(-\\infty, 0)', '\\mathbb{R}_{<0}'],
    ]);
    expectVerdict('different', [
      ['\\mathbb{R}', '(0, \\infty)'],
      ['\\mathbb{R}', '(-\\infty, 0) \\cup (0, \\infty)'],
      ['[0, \\infty)', '\\mathbb{R}_{>0}'],
      ['(-\\infty, 0]', '\\mathbb{R}_{<0}'],
    ]);
  });

  it('leaves a half whose end is a convention to the judge', () => {
    // Whether \mathbb{R}^+ holds 0 is a matter of country.
    expectVerdict('unsure', [['[0, \\infty)', '\\mathbb{R}^+'], ['(0, \\infty)', '\\mathbb{R}_+']]);
  });
});

describe('TeX spellings around an answer', () => {
  it('reads a unit in \\mathrm after a spacing mark', () => {
    // "5 \mathrm{~cm}" kept "\mathrm{cm}" as part of the value and was different from 5.
    expectVerdict('equal', [['5', '5 \\mathrm{~cm}'], ['5', '5\\ \\mathrm{\\,cm}'], ['0.05 \\text{ m}', '5 \\mathrm{~cm}']]);
    expectVerdict('different', [['6', '5 \\mathrm{~cm}'], ['5 \\text{ mm}', '5 \\mathrm{~cm}']]);
  });

  it('reads a number in \\mathrm or in a colour as the number', () => {
    expectVerdict('equal', [['5', '\\mathrm{5}'], ['5', '\\color{red}{5}'], ['\\frac12', '\\textcolor{blue}{\\frac{1}{2}}'], ['12', '{\\color{red} 12}']]);
    expectVerdict('different', [['6', '\\mathrm{5}'], ['6', '\\color{red}{5}']]);
  });

  it('drops a full stop inside the \\text of a word answer', () => {
    expectVerdict('equal', [['\\text{Tuesday}', '\\text{Tuesday.}'], ['Evelyn', '\\text{Evelyn.}']]);
    expectVerdict('different', [['\\text{Tuesday}', '\\text{Thursday.}']]);
  });

  it('reads a word in markdown emphasis, in quotes or with an exclamation mark as the word', () => {
    expectVerdict('equal', [['Alice', '**Alice**'], ['Alice', "'Alice'"], ['Alice', 'Alice!'], ['Yes', '\\text{Yes!}'], ['5', '*5*']]);
    expectVerdict('different', [['Alice', '**Bob**'], ['n', 'n!'], ['3', '3!'], ['5', '**6**']]);
  });

  it('drops a remark in words in parentheses after the answer', () => {
    // "12 \text{ (cm)}" and "7 (seven)" were different from 12 and 7, and sure of it.
    expectVerdict('equal', [['12', '12 \\text{ (cm)}'], ['12', '12 (\\text{cm}^2)'], ['7', '7 (seven)'], ['2', 'x = 2 \\text{ (double root)}'], ['3.14', '\\approx 3.14']]);
    expectVerdict('different', [['5', '6 \\text{ (cm)}'], ['7', '5 (\\text{seven})'], ['3', '3(ab)'], ['f', 'f(x)']]);
    // A condition or a domain in parentheses is read by the rules of words, never dropped.
    expectVerdict('unsure', [['8p (for every odd prime p)', '8p (for all primes p)'], ['1', '1 (if n is odd)'], ['x = 2k\\pi', 'x = 2k\\pi (k \\text{ integer})']]);
  });

  it('reads \\over and \\choose as the fraction and the binomial', () => {
    expectVerdict('equal', [['\\frac12', '{1 \\over 2}'], ['10', '{5 \\choose 2}'], ['\\frac{n+1}{2}', '{n+1 \\over 2}'], ['\\frac{3}{4}', '3 \\over 4']]);
    expectVerdict('different', [['\\frac12', '{2 \\over 1}'], ['10', '{5 \\choose 3} + 1'], ['\\frac{n+1}{2}', '{n \\over 2}']]);
  });

  it('reads angle brackets as the tuple they write', () => {
    expectVerdict('equal', [['(1, 2)', '\\langle 1, 2 \\rangle'], ['(1, -2, 3)', '\\left\\langle 1,-2,3 \\right\\rangle']]);
    expectVerdict('different', [['(1, 2)', '\\langle 2, 1 \\rangle']]);
  });
});

describe('repeating decimals', () => {
  it('equal the fraction they repeat', () => {
    // "0.1\overline{6}" was different from 1/6, and "0.\overline{3}" unsure against 1/3.
    expectVerdict('equal', [
      ['\\frac13', '0.\\overline{3}'],
      ['\\frac16', '0.1\\overline{6}'],
      ['\\frac17', '0.\\overline{142857}'],
      ['\\frac{1}{3}', '0.\\dot{3}'],
      ['\\frac{41}{333}', '0.\\overline{123}'],
      ['\\frac{4}{3}', '1.\\overline{3}'],
      ['-\\frac{2}{3}', '-0.\\overline{6}'],
    ]);
    expectVerdict('different', [
      ['\\frac{3}{10}', '0.\\overline{3}'],
      ['\\frac16', '0.\\overline{16}'],
      ['\\frac17', '0.\\overline{142856}'],
    ]);
    // A digit after the period is no notation the rule reads: never equal.
    expect(gradeAnswer('0.\\overline{33}1', '\\frac{1}{3}').equal).toBe(false);
  });

  it('written with an ellipsis after the period shown (a digit three times, a longer period twice), equal the fraction they repeat', () => {
    // "0.999..." was different from 1, and "0.333\ldots" unsure against 1/3.
    expectVerdict('equal', [
      ['1', '0.999...'],
      ['\\frac13', '0.333\\ldots'],
      ['\\frac16', '0.1666\\cdots'],
      ['\\frac{4}{33}', '0.1212121...'],
      ['\\frac17', '0.142857142857…'],
      ['-\\frac{2}{3}', '-0.666...'],
    ]);
    expectVerdict('different', [['\\frac13', '0.3999...']]);
    // Digits that show no period are a value cut short, never equal to what they begin.
    expect(gradeAnswer('3.14159...', '\\pi').equal).toBe(false);
    expect(gradeAnswer('0.1234...', '\\frac{1234}{9999}').equal).toBe(false);
  });
});

describe('one answer in another container', () => {
  it('reads a vector written as a matrix and as a tuple as one vector', () => {
    // "(-1, 2)" against a column \begin{pmatrix} was different, and sure of it.
    expectVerdict('equal', [
      ['\\begin{pmatrix} -1 \\\\ 2 \\end{pmatrix}', '(-1, 2)'],
      ['\\begin{pmatrix} \\frac12 \\\\ 0 \\\\ 3 \\end{pmatrix}', '\\left(0.5, 0, 3\\right)'],
      ['(1, 2)', '\\begin{bmatrix} 1 & 2 \\end{bmatrix}'],
    ]);
    expectVerdict('different', [
      ['\\begin{pmatrix} -1 \\\\ 2 \\end{pmatrix}', '(2, -1)'],
      ['\\begin{pmatrix} -1 \\\\ 2 \\end{pmatrix}', '(-1, 2, 0)'],
      ['\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}', '(1, 2, 3, 4)'],
    ]);
  });

  it('reads a set of one answer as that answer', () => {
    expectVerdict('equal', [['5', '\\{5\\}'], ['\\{5\\}', 'x = 5'], ['\\{(1, 2)\\}', '(1, 2)']]);
    expectVerdict('different', [['5', '\\{5, 6\\}'], ['\\{5\\}', '6'], ['\\{(1, 2)\\}', '(2, 1)']]);
  });

  it('reads a set written by a condition on the reals as the condition', () => {
    // "\{x \mid x > 2\}" was a set of one odd item, different from (2, \infty).
    expectVerdict('equal', [
      ['(2, \\infty)', '\\left\\{ x \\mid x > 2 \\right\\}'],
      ['[1, \\infty)', '\\{x : x \\ge 1\\}'],
      ['\\mathbb{R} \\setminus \\{2\\}', '\\{x \\in \\mathbb{R} : x \\ne 2\\}'],
      ['(-\\infty, -1) \\cup (1, \\infty)', '\\{x \\mid x < -1 \\text{ or } x > 1\\}'],
    ]);
    expectVerdict('different', [['(2, \\infty)', '\\{x \\mid x \\ge 2\\}'], ['[1, \\infty)', '\\{x : x \\le 1\\}']]);
  });

  it('reads a choice letter with its value as either', () => {
    // "(C) 12" was neither the choice C nor the value 12.
    expectVerdict('equal', [['C', '\\textbf{(C)}\\ 12'], ['C', '(C) 12'], ['12', '\\text{(C) } 12'], ['B', 'B) 12']]);
    expectVerdict('different', [['D', '\\textbf{(C)}\\ 12'], ['13', '(C) 12']]);
  });
});

describe('words for a number or a set', () => {
  it('reads a parity alone as the class it names', () => {
    expectVerdict('equal', [['\\text{odd numbers}', '\\text{odd}'], ['n \\text{ is even}', 'Even']]);
    expectVerdict('different', [['\\text{odd numbers}', '\\text{even}'], ['\\text{odd}', '\\text{even}']]);
  });

  it('reads "DNE" as "does not exist", a missing value that only a reader tells from an empty set of solutions', () => {
    expectVerdict('equal', [['\\text{does not exist}', '\\text{DNE}'], ['DNE', 'Does not exist.']]);
    // A limit that does not exist, or "find all n" with no n: graded equal, a reply of DNE passed for the empty set.
    expectVerdict('unsure', [['\\emptyset', 'DNE'], ['\\varnothing', 'does not exist'], ['\\text{DNE}', 'no solutions'], ['DNE', '\\emptyset']]);
    expectVerdict('different', [['0', '\\text{DNE}'], ['\\{1\\}', 'DNE'], ['DNE', '5']]);
    expectVerdict('equal', [['\\emptyset', 'no solutions'], ['\\emptyset', 'none']]);
  });

  it('reads "infinitely many" as infinity', () => {
    expectVerdict('equal', [['\\infty', '\\text{infinitely many}'], ['\\infty', 'infinitely many solutions'], ['\\infty', '\\text{infinity}'], ['\\infty', 'infinite']]);
    expectVerdict('different', [['0', '\\text{infinitely many}'], ['-\\infty', 'infinitely many']]);
  });
});

describe('a ratio', () => {
  it('in other terms, or against its value, is left to the judge', () => {
    // "6:8" against "3:4", and "3:4" against "\frac34", were different, and sure of it.
    expectVerdict('unsure', [['3:4', '6:8'], ['\\frac34', '3:4'], ['3:4', '0.75'], ['12:30', '6:15']]);
    expectVerdict('equal', [['3:4', '3 : 4']]);
  });

  it('stays different when it is another ratio, or holds a zero as a time of day does', () => {
    expectVerdict('different', [['3:4', '4:3'], ['\\frac34', '3:5'], ['12:00', '1:00'], ['\\frac34', '(3, 4)']]);
  });
});

describe('a capital letter before numbers in parentheses', () => {
  it('is a point at those coordinates', () => {
    // "A(1, -2)" was a value of a function A, different from (1, -2).
    expectVerdict('equal', [['(1, -2)', 'A(1, -2)'], ['(1, 0.5)', 'P(1, \\frac{1}{2})'], ['B(3, 4)', '(3, 4)']]);
    expectVerdict('different', [['(-2, 1)', 'A(1, -2)'], ['(1, 2, 3)', 'A(1, 2)']]);
  });

  it('is a point or a binomial coefficient when the letter is C, which the judge tells apart', () => {
    expectVerdict('unsure', [['10', 'C(5, 2)'], ['\\frac{n(n-1)}{2}', 'C(n, 2)'], ['(5, 2)', 'C(5, 2)']]);
    expectVerdict('different', [['9', 'C(5, 3)'], ['\\frac{n(n-1)}{2}', 'C(n, 3)'], ['(2, 5)', 'C(5, 2)']]);
  });
});

describe('a sign or a bracket that stands for two', () => {
  it('reads a \\pm inside a tuple as two tuples', () => {
    // "(\pm 1, 0)" was the triple (1, -1, 0), different from (1, 0), (-1, 0).
    expectVerdict('equal', [
      ['(1, 0), (-1, 0)', '(\\pm 1, 0)'],
      ['(1, 2), (1, -2)', '\\left(1, \\pm 2\\right)'],
      ['(1, 1), (1, -1), (-1, 1), (-1, -1)', '(\\pm 1, \\pm 1)'],
      ['(1, 0), (-1, 0), (0, 1), (0, -1)', '(\\pm 1, 0), (0, \\pm 1)'],
    ]);
    expectVerdict('different', [['(1, 2)', '(1, \\pm 2)'], ['(1, 0), (0, 1)', '(\\pm 1, 0)']]);
  });

  it('expands only a few signs: many are no answer the rule can list', () => {
    // Each sign doubled the values: 22 of them took minutes, 30 ran out of memory.
    for (const answer of [`1 ${'\\pm 1 '.repeat(22)}`, `(${'\\pm 1, '.repeat(30)}0)`]) {
      const { ms, value } = cpuTimed(() => gradeAnswer(answer, '1').equal);
      expect(value, answer).toBe(false);
      expect(ms, answer).toBeLessThan(2000);
    }
  });

  it('reads a bracket turned outwards as an open end', () => {
    // "[1, 2[" was different from [1, 2), and "]1, 2[" no interval at all.
    expectVerdict('equal', [
      ['(1, 2)', ']1, 2['],
      ['[1, 2)', '[1, 2['],
      ['(-\\infty, 3]', 'x \\in ]-\\infty, 3]'],
      ['\\mathbb{R} \\setminus \\{0\\}', ']-\\infty, 0[ \\cup ]0, +\\infty['],
      ['[0, 1)', '[0 ; 1['],
    ]);
    expectVerdict('different', [['[1, 2]', ']1, 2]'], ['(1, 2]', ']1, 2['], ['(\\sqrt[3]{4}, \\sqrt[3]{2})', '(\\sqrt[3]{2}, \\sqrt[3]{4})']]);
  });
});

describe('conditions on one real letter', () => {
  it('read an infinite end of a chain as no bound', () => {
    // "-\infty < x < 2" held nowhere (an infinite tolerance), different from (-\infty, 2).
    expectVerdict('equal', [['(-\\infty, 2)', '-\\infty < x < 2'], ['(2, \\infty)', '2 < x < +\\infty']]);
    expectVerdict('different', [['(-\\infty, 2]', '-\\infty < x < 2']]);
  });

  it('joined by "and" all hold', () => {
    // "0 < x < 1 and x \ne \frac12" was a list of two, different from the two intervals it states.
    expectVerdict('equal', [
      ['(0, \\frac12) \\cup (\\frac12, 1)', '0 < x < 1 \\text{ and } x \\ne \\frac{1}{2}'],
      ['(0, 3) \\cup (3, \\infty)', 'x > 0 \\text{ and } x \\ne 3'],
    ]);
    expectVerdict('different', [['\\mathbb{R}', 'x > 0 \\text{ and } x \\ne 3'], ['(0, 3) \\cup (3, \\infty)', 'x > 0 \\text{ and } x \\ne 4'], ['5', 'x > 0 \\text{ and } x \\ne 3'], ['\\mathbb{R}', '4:3']]);
  });

  it('read "\\ne \\pm" as none of the values', () => {
    expectVerdict('equal', [['x \\ne \\pm 1', '(-\\infty, -1) \\cup (-1, 1) \\cup (1, \\infty)'], ['\\mathbb{R} \\setminus \\{-1, 1\\}', 'x \\ne \\pm 1']]);
    expectVerdict('different', [['\\mathbb{R} \\setminus \\{1\\}', 'x \\ne \\pm 1']]);
    // Its normal form (the majority-vote key) printed "x \ne -1, 1", which graded different from it.
    expect(gradeAnswer(normalizeAnswer('x \\ne \\pm 1'), 'x \\ne \\pm 1').verdict).toBe('equal');
    expect(gradeAnswer(normalizeAnswer('0 < x < 1 \\text{ and } x \\ne \\frac12'), '0 < x < 1 \\text{ and } x \\ne \\frac12').verdict).toBe('equal');
  });
});

describe('a system of assignments set in rows', () => {
  it('is the list of its assignments', () => {
    // The rows ran into one chain "x = 3 y = 4", different from (3, 4).
    expectVerdict('equal', [
      ['(3, 4)', 'x = 3 \\quad y = 4'],
      ['(3, 4)', 'x = 3 \\\\ y = 4'],
      ['(3, 4)', '\\begin{cases} x = 3 \\\\ y = 4 \\end{cases}'],
      ['(3, 4)', '\\begin{aligned} x &= 3 \\\\ y &= 4 \\end{aligned}'],
    ]);
    expectVerdict('different', [['(3, 4)', 'x = 3 \\quad y = 5'], ['(3, 4)', '\\begin{cases} x = 4 \\\\ y = 3 \\end{cases}']]);
  });

  it('leaves a function by cases and a matrix as they are', () => {
    expectVerdict('equal', [['1 \\text{ if } n \\text{ is odd}, 0 \\text{ otherwise}', '\\begin{cases} 1 & n \\text{ odd} \\\\ 0 & \\text{otherwise} \\end{cases}']]);
    expectVerdict('different', [['\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}', '\\begin{pmatrix} 1 & 2 \\\\ 4 & 3 \\end{pmatrix}']]);
  });
});

describe('the binomial coefficient of other school systems', () => {
  it('reads {}^nC_k as it, and C_n^k as it or a power', () => {
    // "{}^6C_3" and "\mathrm{C}_6^3" were different from 20, and sure of it.
    expectVerdict('equal', [['20', '{}^6C_3'], ['20', '{}^{6}C_{3}']]);
    expectVerdict('unsure', [['20', '\\mathrm{C}_6^3'], ['20', 'C^{3}_{6}']]);
    expectVerdict('different', [['21', 'C_6^3']]);
    expect(gradeAnswer('{}^6C_3', '15').equal).toBe(false);
  });
});

describe('a number in words and a name in a sentence', () => {
  it('reads a whole answer that is a number in words as its numeral', () => {
    // "\text{twelve}" was a word, different from 12 and sure of it.
    expectVerdict('equal', [['12', '\\text{twelve}'], ['2', 'two'], ['21', '\\text{twenty-one}'], ['3', '\\text{exactly } 3'], ['3', 'exactly three']]);
    expectVerdict('different', [['12', '\\text{twenty-one}'], ['2', '\\text{three}'], ['4', '\\text{exactly } 3']]);
  });

  it('is unsure where one text adds words to the other that do not negate it', () => {
    // "Alice" against "Alice moves first" was different and sure of it ("Alice wins" is Alice: grader-winner.test.ts).
    expectVerdict('unsure', [['\\text{Alice moves first}', '\\text{Alice}'], ['\\text{necessary and sufficient}', '\\text{necessary}']]);
    expectVerdict('different', [['\\text{Alice wins}', '\\text{Bob}'], ['\\text{not prime}', '\\text{prime}']]);
  });
});

describe('a label in words set in \\text before the answer', () => {
  it('is a label, as "Answer: 42" is', () => {
    // "\boxed{\text{Answer: } 42}" was the text "answer: 42", different from 42 and sure of it.
    expectVerdict('equal', [['42', '\\text{Answer: } 42'], ['42', '\\textbf{Final answer:} 42'], ['42', '\\text{Ответ: } 42']]);
    expectVerdict('different', [['43', '\\text{Answer:} 42']]);
  });
});

describe('a run of integers left open against a lower bound', () => {
  it('is unsure from the same start, since only the question says whether the letter is an integer', () => {
    // "\{2, 3, \ldots\}" against "n \ge 2" was different and sure of it.
    expectVerdict('unsure', [['n \\ge 2', '\\{2, 3, \\ldots\\}'], ['n \\ge 2', '2, 3, 4, \\ldots'], ['n > 1', '2, 3, \\dots'], ['[2, \\infty)', '2, 3, \\dots']]);
    expectVerdict('different', [['n \\ge 2', '3, 4, 5, \\ldots'], ['n > 2', '2, 3, \\dots']]);
  });
});

describe('assignments against a tuple', () => {
  it('are unsure where the order they are written in and their letters\' order disagree', () => {
    // "y = 2, x = 1" was different from (1, 2), and "y = 1, x = 2" equal to it, both sure.
    expectVerdict('unsure', [['(1, 2)', 'y = 2, x = 1'], ['(1, 2)', 'y = 1, x = 2']]);
    expectVerdict('equal', [['(1, 2)', 'x = 1, y = 2'], ['(7, 2)', 'p = 7, q = 2']]);
    expectVerdict('different', [['(1, 2)', 'x = 2, y = 1'], ['(1, 2)', 'y = 3, x = 1']]);
  });
});

describe('a reference list that repeats an item', () => {
  it('is unsure against the same members repeated otherwise, since the repeats may count', () => {
    // "1, 1, 2" and "1, 2" were equal to "1, 2, 2" (roots with their multiplicity) and sure of it.
    expectVerdict('unsure', [['1, 2, 2', '1, 1, 2'], ['1, 2, 2', '1, 2'], ['2, 2', '2']]);
    expectVerdict('equal', [['1, 2, 2', '2, 1, 2'], ['1', 'x = 1, x = 1'], ['\\{1, 2, 2\\}', '\\{1, 2\\}']]);
    expectVerdict('different', [['1, 2, 2', '1, 3']]);
  });
});

describe('inequalities in several letters', () => {
  it('part strict from non-strict, which samples never tell apart', () => {
    // "a \le b" was equal to "a < b", sure of it: no sample falls on a = b.
    expectVerdict('different', [['a < b', 'a \\le b'], ['a+b < c', 'a+b \\le c'], ['a < b < c', 'a \\le b < c']]);
    expectVerdict('equal', [['a < b', 'b > a'], ['a < b', 'a - b < 0'], ['a < b < c', 'c > b > a']]);
  });
});

describe('a domain stated by a bound after the answer', () => {
  it('restates the question\'s domain, as "for all n \\ge 1" does', () => {
    // "\frac{n(n+1)}{2} \text{ for } n \ge 1" was different from its formula and sure of it.
    expectVerdict('equal', [['\\frac{n(n+1)}{2}', '\\frac{n(n+1)}{2} \\text{ for } n \\ge 1'], ['2^{n-1}', '2^{n-1} \\text{ for } n \\geq 1']]);
    expectVerdict('unsure', [['\\frac{n(n+1)}{2} \\text{ for } n \\ge 1', '\\frac{n(n+1)}{2} \\text{ for } n \\ge 2']]);
    expectVerdict('different', [['\\frac{n(n+1)}{2}', '\\frac{n(n-1)}{2} \\text{ for } n \\ge 1']]);
  });
});

describe('a negated congruence and a divisibility', () => {
  it('are residue classes, as the congruences they state', () => {
    // "n \not\equiv 0 \pmod 3" and "3 \mid n" were no classes, different from the congruences and sure of it.
    expectVerdict('equal', [['n \\not\\equiv 0 \\pmod 3', 'n \\equiv 1, 2 \\pmod 3'], ['n \\equiv 0 \\pmod 3', '3 \\mid n'], ['n \\not\\equiv 0 \\pmod 3', '3 \\nmid n']]);
    expectVerdict('different', [['n \\not\\equiv 0 \\pmod 3', 'n \\equiv 1 \\pmod 3'], ['n \\equiv 1 \\pmod 3', '3 \\mid n'], ['n \\not\\equiv 0 \\pmod 3', 'n \\not\\equiv 1 \\pmod 3']]);
  });
});

describe('a constant too large for its digits to tell an added unit', () => {
  it('is unsure against itself plus a little, equal to itself written otherwise', () => {
    // e^{100} is 2.7·10^43: 1 more is in its 44th digit, past the 40 that the 60-digit check once
    // required, so "e^{100}" graded equal to "e^{100}+1" and sure of it.
    expectVerdict('unsure', [['e^{100}+1', 'e^{100}'], ['\\pi^{100}', '\\pi^{100}-2']]);
    expectVerdict('equal', [['e^{100}', '\\exp(100)'], ['e^{100}', '(e^{50})^2'], ['\\sin^2 1 + \\cos^2 1', '1']]);
    expectVerdict('different', [['2^{200}+1', '2^{200}'], ['\\frac{\\pi^{40}+1}{3}', '\\frac{\\pi^{40}}{3}'], ['e^{100}', '2e^{100}']]);
  });
});
