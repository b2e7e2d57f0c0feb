/**
 * Replies of the shapes a held-out set of grader cases holds, where the
 * grader was sure and wrong: a wrong answer scored right ("x + 10^{-12}"
 * equal to "x"), or a right answer scored wrong and sure of it ("FF_{16}"
 * against 255). Each case is a class of replies; where a reader could go
 * either way, `unsure` (the judge decides) is the verdict asked for.
 */
import { describe, expect, it } from 'vitest';
import { cpuTimed } from '../cpu-timed.ts';
import { verdictOf, verdictOfReply } from '../grader-verdicts.ts';

describe('answers that differ from the reference by less than floating point tells', () => {
  it('grades an expression off by a tiny constant or factor different', () => {
    expect(verdictOf('x + 10^{-12}', 'x')).toBe('different');
    expect(verdictOf('x(1+10^{-15})', 'x')).toBe('different');
    expect(verdictOf('n^2 + 10^{-20}n', 'n^2')).toBe('different');
  });

  it('still grades equal forms of one expression equal', () => {
    expect(verdictOf('2(x+1)', '2x+2')).toBe('equal');
    expect(verdictOf('\\sin^2 x + \\cos^2 x', '1')).toBe('equal');
    expect(verdictOf('\\frac{x^2-1}{x-1}', 'x+1')).toBe('equal');
    expect(verdictOf('\\frac{n(n+1)}{2}', '\\binom{n+1}{2}')).toBe('equal');
  });
});

describe('functions whose variable is not the letter their formula uses', () => {
  it('grades f(y) = x + 1 different from f(x) = x + 1', () => {
    expect(verdictOf('f(y)=x+1', 'f(x)=x+1')).toBe('different');
    expect(verdictOf('f(t) = x^2', 'f(x) = x^2')).toBe('different');
  });

  it('still grades a function under another name for its variable equal', () => {
    expect(verdictOf('f(y)=y+1', 'f(x)=x+1')).toBe('equal');
    expect(verdictOf('f(x, y) = x + y', 'f(y, x) = y + x')).toBe('equal');
  });
});

describe('sums and products written with their limits', () => {
  it('grades a finite sum or product by its value', () => {
    expect(verdictOf('\\sum_{k=1}^{10} k', '55')).toBe('equal');
    expect(verdictOf('\\sum_{i=0}^{3} 2^i', '15')).toBe('equal');
    expect(verdictOf('\\prod_{k=1}^{5} k', '120')).toBe('equal');
    expect(verdictOf('\\sum_{k=1}^{10} k', '56')).toBe('different');
  });

  it('writes out a bounded text however many sums an answer nests or adds', () => {
    const many = `${'\\sum_{i=1}^{200} i + '.repeat(200)}1`;
    const nested = '\\sum_{i=1}^{150}\\sum_{j=1}^{150}\\sum_{k=1}^{150} i j k';
    const { ms, value } = cpuTimed(() => [verdictOf(many, '1'), verdictOf(nested, '1')]);
    expect(value).toEqual(['unsure', 'unsure']);
    expect(ms).toBeLessThan(2000);
  });

  it('is unsure of a sum it cannot write out against a closed form', () => {
    expect(verdictOf('\\sum_{k=1}^{n} k', '\\frac{n(n+1)}{2}')).toBe('unsure');
    expect(verdictOf('\\sum_{k=1}^{100000} k', '5000050000')).toBe('unsure');
  });
});

describe('numerals in bases over ten', () => {
  it('reads digits written as capital letters in the base of the subscript', () => {
    expect(verdictOf('FF_{16}', '255')).toBe('equal');
    expect(verdictOf('1A_{12}', '22')).toBe('equal');
    expect(verdictOf('FE_{16}', '255')).toBe('different');
  });

  it('reads a numeral as programs prefix it', () => {
    expect(verdictOf('0xFF', '255')).toBe('equal');
    expect(verdictOf('0b1010', '10')).toBe('equal');
  });

  it('grades the value unsure against a reference written in a base, which the question asked for', () => {
    expect(verdictOfReply('Converting, we get $\\boxed{54}$.', '204_5')).toBe('unsure');
    expect(verdictOf('255', 'FF_{16}')).toBe('unsure');
    expect(verdictOf('204_{5}', '204_5')).toBe('equal');
    expect(verdictOf('0b1010', '1010_2')).toBe('equal');
    expect(verdictOf('204_6', '204_5')).toBe('different');
  });
});

describe('an announced answer the reply takes back or only supposes', () => {
  const reply = 'One might think the answer is 5, but that misses a case. The true count is $6$.';

  it('reads the answer the reply settles on, not the one it supposes', () => {
    expect(verdictOfReply(reply, '5')).toBe('different');
    expect(verdictOfReply(reply, '6')).toBe('equal');
    expect(verdictOfReply('It is tempting to say the answer is $5$. However, the empty set counts, so there are $6$ subsets.', '5')).toBe('different');
    expect(verdictOfReply('At first glance the answer is 5. But the empty set counts too, so there are $6$ subsets.', '6')).toBe('equal');
  });

  it('still reads an answer followed by its reason', () => {
    expect(verdictOfReply('The answer is 7, which is 3 more than 4.', '7')).toBe('equal');
    expect(verdictOfReply('The final answer is 12, as computed above.', '12')).toBe('equal');
  });
});

describe('an announced sentence with several numbers', () => {
  it('reads the number its conclusion gives', () => {
    expect(verdictOfReply('The answer is 5 apples and 6 oranges, so 11.', '5')).toBe('different');
    expect(verdictOfReply('Answer: 5 apples and 6 oranges, so 11', '11')).toBe('equal');
  });

  it('is no one value when it lists several and concludes none', () => {
    expect(verdictOfReply('Answer: 5 apples and 6 oranges', '5')).not.toBe('equal');
  });
});

describe('a reply that goes on to invent the next turn of the conversation', () => {
  it('reads only its own turn', () => {
    expect(verdictOfReply('The answer is 7.\n\nUser: now what is 2+2?\nAssistant: The answer is 4.', '7')).toBe('equal');
    expect(verdictOfReply('So \\boxed{7}.\n\n**Human:** thanks! And 2+2?\n\n**Assistant:** \\boxed{4}', '7')).toBe('equal');
    expect(verdictOfReply('So \\boxed{7}<|im_end|>\n<|im_start|>user\nWhat is 3+3?<|im_end|>\n<|im_start|>assistant\n\\boxed{6}', '7')).toBe('equal');
  });
});

describe('numerals side by side, with only space between them', () => {
  it('are no product and no one number: a list without its commas, or a numeral spaced out, left to the judge', () => {
    // Read as a product, "1 2 3" was 6 and "2\quad 3" was 6, graded equal to a reference 6; "1 0 0" equalled 100 as text.
    for (const [pred, gold] of [['1 2 3', '6'], ['$1$ $2$ $3$', '6'], ['2\\quad 3', '6'], ['2\\ 3', '6'], ['1 2', '2'], ['x = 3 4', '12'], ['1 0 0', '100'], ['2 3', '23']]) {
      expect([pred, verdictOfReply(pred ?? '', gold ?? '')]).toEqual([pred, 'unsure']);
    }
    // Thousands grouped by spaces, a mixed number, a product with its sign: one number, as before.
    expect(verdictOf('1 000 000', '1000000')).toBe('equal');
    expect(verdictOf('1\\,000', '1000')).toBe('equal');
    // Thin spaces group digits wherever the number stands: these were unsure, read as "1 000", a numeral spaced out.
    for (const [pred, gold] of [['x = 1\\,000', '1000'], ['(1\\,000, 2\\,000)', '(1000, 2000)'], ['\\{1\\,000, 2\\,000\\}', '\\{1000, 2000\\}'], ['1\\,000 \\text{ dollars}', '1000'], ['0.123\\,456', '0.123456']]) {
      expect([pred, verdictOf(pred ?? '', gold ?? '')]).toEqual([pred, 'equal']);
    }
    expect(verdictOf('1\\,0', '10')).toBe('unsure');
    expect(verdictOf('2 3/4', '\\frac{11}{4}')).toBe('equal');
    expect(verdictOf('2 \\cdot 3', '6')).toBe('equal');
  });
});

describe('an equation in one unknown left unsolved', () => {
  it('does not state its right side as the value', () => {
    expect(verdictOfReply('Therefore $\\boxed{x^2 = 2}$.', '2')).toBe('unsure');
    expect(verdictOf('2x + 1 = 7', '7')).toBe('unsure');
    expect(verdictOf('m + n = 107', '107')).toBe('equal');
    expect(verdictOf('x = 5 + 5 + 1 = 11', '11')).toBe('equal');
  });

  it('is one rule whatever operation the unknown is under: an absolute value, a factorial, a floor, a log', () => {
    // "|x| = 6" and "n! = 12" were read as labels and graded equal to their right side, while "x^2 = 25" was unsure.
    for (const [pred, gold] of [['|x| = 6', '6'], ['n! = 120', '120'], ['x^2 = 25', '25'], ['\\lfloor x \\rfloor = 3', '3'], ['\\log x = 2', '2'], ['\\sqrt{x} = 4', '4']]) {
      expect([pred, verdictOf(pred ?? '', gold ?? '')]).toEqual([pred, 'unsure']);
    }
    // A letter's own name, with an index, a prime, a star or an accent, or a function at a point, still states its value.
    for (const pred of ['x = 5', 'a_1 = 5', "x' = 5", 'x^* = 5', '\\bar{x} = 5', 'f(2) = 5', '\\angle A = 5', '\\min f = 5', '\\deg P = 5', '|AB| = 5']) {
      expect([pred, verdictOf(pred, '5')]).toEqual([pred, 'equal']);
    }
  });

  it('reads the size of a set and a function named by a Greek letter as quantities, not as the letter under an operation', () => {
    // The one-letter rule left these unsure, though each states the quantity asked: "|S| = 12" is the size of the set S.
    const quantities = ['|S| = 5', '\\left|S\\right| = 5', '|\\mathcal{F}| = 5', '\\#S = 5', '\\# A = 5', '\\mathcal{A} = 5', '\\sigma(n) = 5', '\\varphi(n) = 5', '\\tau(n) = 5', '\\nu_2(n) = 5'];
    for (const pred of quantities) expect([pred, verdictOf(pred, '5')]).toEqual([pred, 'equal']);
    expect(verdictOfReply('The largest possible size is $|S| = 12$.', '12')).toBe('equal');
    // A lowercase letter in bars is still the unknown under an absolute value; an elementary function of it is still unsolved.
    for (const pred of ['|x| = 5', '|z| = 5', '\\sin x = 5', '\\ln(x) = 5', '2\\sigma(n) = 5']) expect([pred, verdictOf(pred, '5')]).toEqual([pred, 'unsure']);
  });
});

describe('an answer stated with an equals sign', () => {
  it('reads "Final answer = 7" as "Final answer: 7"', () => {
    expect(verdictOfReply('Final answer = 7', '7')).toBe('equal');
    expect(verdictOfReply('We compute carefully.\n**Answer** = 7', '7')).toBe('equal');
    expect(verdictOfReply('We compute carefully.\nFinal answer = 7', '8')).toBe('different');
  });
});

describe('a reply that reopens its answer after giving it', () => {
  it('is unsure which of the two is its answer', () => {
    expect(verdictOfReply('So $\\boxed{12}$. Wait, I made an error: the count is 14.', '12')).toBe('unsure');
    expect(verdictOfReply('So $\\boxed{12}$.\n\nHmm, actually let me recheck. We missed two cases, so the total is 14.', '14')).toBe('unsure');
    expect(verdictOfReply('The answer is 12. Actually, the count is 14 once the empty set is in.', '12')).toBe('unsure');
  });

  it('still grades an answer followed by a check or a courtesy', () => {
    expect(verdictOfReply('So $\\boxed{12}$. Check: $3 \\cdot 4 = 12$.', '12')).toBe('equal');
    expect(verdictOfReply('The final answer is $12$. I hope it is correct.', '12')).toBe('equal');
  });
});

describe('units and percent signs only one side writes', () => {
  it('is unsure of a percent against the bare number, which may be the percentage asked for', () => {
    expect(verdictOf('25\\%', '25')).toBe('unsure');
    expect(verdictOf('25\\%', '0.25')).toBe('equal');
    expect(verdictOf('25\\%', '24')).toBe('different');
  });

  it("is unsure where the reference's letter read as a unit gives the prediction's value", () => {
    expect(verdictOf('120 cm', '1.2 m')).toBe('unsure');
    expect(verdictOf('130 cm', '1.2 m')).toBe('different');
  });
});

describe('answers announced in Russian', () => {
  it('reads "ответ равен 42" as "ответ: 42"', () => {
    expect(verdictOfReply('Таким образом, ответ равен 42.', '42')).toBe('equal');
    expect(verdictOfReply('Таким образом, ответ равен 42.', '41')).toBe('different');
  });
});

describe('a number that is part of a description in words', () => {
  it('is not read as the answer', () => {
    expect(verdictOfReply('Final answer: All powers of 2', 'All powers of 2')).toBe('equal');
    expect(verdictOfReply('So the answer is all powers of 2.', '2')).not.toBe('equal');
    expect(verdictOfReply('Final answer: all integers n greater than 5', '5')).not.toBe('equal');
    expect(verdictOfReply('The answer is 3 more than 4.', '3')).not.toBe('equal');
    expect(verdictOfReply('Hence $n$ must be a power of 2.', 'n = 2^k')).toBe('unsure');
  });

  it('is unsure against a power whose exponent has no stated range, and different from another base', () => {
    expect(verdictOfReply('Thus $\\boxed{n = 2^k}$.', 'All powers of 2')).toBe('unsure');
    expect(verdictOf('2^k', 'All powers of 2')).toBe('unsure');
    expect(verdictOf('n = 3^k', 'All powers of 2')).toBe('different');
    expect(verdictOf('2^k', '2^k')).toBe('equal');
  });

  it('still reads a value given after its verb', () => {
    expect(verdictOfReply('So the area is $\\pi$ square units.', '\\pi')).toBe('equal');
    expect(verdictOfReply('Therefore $x$ equals 5.', '5')).toBe('equal');
    expect(verdictOfReply('The answer is equal to 5.', '5')).toBe('equal');
  });
});

describe('numbers in words', () => {
  it('reads whole numbers and fractions said in words', () => {
    expect(verdictOf('three hundred', '300')).toBe('equal');
    expect(verdictOf('two thousand and twenty-four', '2024')).toBe('equal');
    expect(verdictOf('a million', '1000000')).toBe('equal');
    expect(verdictOf('one half', '\\frac12')).toBe('equal');
    expect(verdictOf('two thirds', '\\frac23')).toBe('equal');
    expect(verdictOfReply('The answer is three hundred.', '300')).toBe('equal');
  });

  it('reads no number from words that do not say one', () => {
    expect(verdictOf('seven four', '11')).not.toBe('equal');
    expect(verdictOf('one and two', '3')).not.toBe('equal');
    expect(verdictOf('three hundred', '3')).toBe('different');
  });
});

describe('a decimal comma with one digit after it', () => {
  it('is unsure against the decimal, which it may be', () => {
    expect(verdictOfReply('La réponse est 1,5.', '1.5')).toBe('unsure');
    expect(verdictOf('1,5', '1, 5')).toBe('equal');
    expect(verdictOf('1,5', '2.5')).toBe('different');
  });
});

describe('an announcement the reply only assumes, bounds or explains', () => {
  it('reads no answer from an assumption', () => {
    expect(verdictOfReply('Suppose the answer is 5. Then we get a contradiction.', '5')).not.toBe('equal');
    expect(verdictOfReply('Assume the answer is $5$. Then we get a contradiction.', '5')).not.toBe('equal');
  });

  it('reads an alternative the announcement offers as part of it', () => {
    expect(verdictOfReply('**Final answer:** $12$ (or possibly $13$)', '12')).not.toBe('equal');
    expect(verdictOfReply('The answer is $12$, or perhaps $13$.', '12')).not.toBe('equal');
    expect(verdictOfReply('The final answer is $12$ for $n \\ge 3$, or $0$ otherwise.', '12')).not.toBe('equal');
    expect(verdictOfReply('The answer is $x = 2$, or equivalently $x = \\frac{4}{2}$.', '2')).toBe('equal');
    expect(verdictOfReply('Final answer: $5$, since $2 + 3 = 5$ or by symmetry.', '5')).toBe('equal');
    // The same value restated, exactly or as a decimal, offers no other answer.
    expect(verdictOfReply('The answer is $\\frac{\\sqrt3}{2}$, or approximately $0.866$.', '\\frac{\\sqrt3}{2}')).toBe('equal');
    expect(verdictOfReply('The answer is $\\pi$ or about $3.14$.', '\\pi')).toBe('equal');
    expect(verdictOfReply('**Final Answer:** $2\\sqrt{2}$ (or approximately $2.83$)', '2\\sqrt2')).toBe('equal');
    expect(verdictOfReply('So the answer is $12$ (or equivalently $\\frac{24}{2}$).', '12')).toBe('equal');
  });

  it('keeps an answer qualified by "but only"', () => {
    expect(verdictOfReply('So the answer is $7$, but only because n is odd.', '7')).toBe('equal');
  });

  it('reads no bound as the value', () => {
    expect(verdictOfReply('The answer is at least 5.', '5')).not.toBe('equal');
    expect(verdictOfReply('The answer is at most 5.', '5')).not.toBe('equal');
  });

  it('reads the value before a colon, not a number of its check', () => {
    expect(verdictOfReply("Let's verify that the answer is 5: plugging in gives 25 = 25.", '5')).toBe('equal');
  });

  it('reads "approximately" as a rounding, as \\approx is', () => {
    expect(verdictOfReply('Answer: approximately 3.14', '\\pi')).toBe('unsure');
    expect(verdictOfReply('Answer: approximately 3.15', '\\pi')).toBe('different');
  });
});

describe('answers joined or set apart in words', () => {
  it('joins segments by "or" and "and" in the languages read', () => {
    expect(verdictOfReply('综上所述，答案为 $n=2$ 或 $n=3$。', '2, 3')).toBe('equal');
    expect(verdictOfReply('Réponse : $y = 3$ ou $y = 5$.', '3, 5')).toBe('equal');
    expect(verdictOfReply('Ответ: $x = 1$ или $x = 2$.', '1, 2')).toBe('equal');
  });

  it('reads an answer set against one it is not', () => {
    expect(verdictOfReply('The answer is 12, not 15.', '12')).toBe('equal');
    expect(verdictOfReply('Ответ: 12, а не 15.', '12')).toBe('equal');
    expect(verdictOfReply('The answer is neither 12 nor 15.', '12')).not.toBe('equal');
  });
});

describe('Unicode mathematics', () => {
  it('reads the signs models type as their commands', () => {
    expect(verdictOf('n ≡ 1 (mod 4)', 'n \\equiv 1 \\pmod 4')).toBe('equal');
    expect(verdictOf('n ≡ 1 (mod 4)', 'n \\equiv 3 \\pmod 4')).toBe('different');
    expect(verdictOf('±2', '2, -2')).toBe('equal');
    expect(verdictOf('⌊x⌋', '\\lfloor x \\rfloor')).toBe('equal');
    expect(verdictOf('α + β', '\\alpha+\\beta')).toBe('equal');
    expect(verdictOf('x¹⁰', 'x^{10}')).toBe('equal');
    expect(verdictOf('x₁ + x₂', 'x_1 + x_2')).toBe('equal');
  });
});

describe('values that are zero or near it', () => {
  it('grades an exact form of zero equal to 0', () => {
    expect(verdictOf('\\sin\\pi', '0')).toBe('equal');
    expect(verdictOf('\\cos\\frac{\\pi}{2}', '0')).toBe('equal');
    expect(verdictOf('\\begin{pmatrix} \\sin\\pi & 1 \\end{pmatrix}', '\\begin{pmatrix} 0 & 1 \\end{pmatrix}')).toBe('equal');
  });

  it('tells a matrix entry 10^{-12} from an entry 0', () => {
    expect(verdictOf('\\begin{pmatrix} 1 & 10^{-12} \\\\ 0 & 1 \\end{pmatrix}', '\\begin{pmatrix} 1 & 0 \\\\ 0 & 1 \\end{pmatrix}')).toBe('different');
  });
});

describe('an interval or a tuple against a list of values', () => {
  it('grades an interval different from its two ends, and a tuple from the values of one unknown', () => {
    expect(verdictOfReply('So the range is $\\boxed{-6, 5}$.', '[-6,5]')).toBe('different');
    expect(verdictOfReply('Hence $\\boxed{3, 4}$.', '(3,4]')).toBe('different');
    expect(verdictOf('[-2, 1]', '-2, 1')).toBe('different');
    expect(verdictOfReply('The roots are $\\boxed{x=-1 \\text{ or } x=6}$.', '(-1,6)')).toBe('different');
    expect(verdictOf('x = 2, x = 4', '(2, 4)')).toBe('different');
    expect(verdictOf('n = 1, 2, 3', '(1, 2, 3)')).toBe('different');
  });

  it('still grades a point written as its coordinates, or as assignments, equal', () => {
    expect(verdictOf('x = -1, y = 6', '(-1, 6)')).toBe('equal');
    expect(verdictOf('-1, 6', '(-1, 6)')).toBe('equal');
    expect(verdictOf('a = 2, b = 251, c = 252', '(2, 251, 252)')).toBe('equal');
    expect(verdictOf('n = 1, 2, 3', '1, 2, 3')).toBe('equal');
  });
});

describe('a letter that the words of the answer describe', () => {
  it('reads the words with the letter, not the letter alone', () => {
    expect(verdictOfReply('**Final Answer:** All odd $n$.', 'odd $n$')).toBe('equal');
    expect(verdictOfReply('**Final Answer:** All even $n$.', 'odd $n$')).toBe('different');
    expect(verdictOfReply('The answer: $n$ is odd.', 'odd $n$')).toBe('equal');
    expect(verdictOfReply('Hence the answer is all prime $n$.', 'n is prime')).toBe('equal');
    expect(verdictOfReply('**Final Answer:** There are no such $n$.', 'no solutions')).toBe('equal');
    expect(verdictOfReply('**Final Answer:** $n$ is a power of $2$.', 'All powers of 2')).toBe('equal');
    expect(verdictOf('All odd $n$', 'odd $n$')).toBe('equal');
    expect(verdictOfReply('Hence the answer is all odd integers $n \\ge 1$.', 'odd $n$')).not.toBe('different');
  });

  it('keeps a formula whole before a domain that ends with a letter', () => {
    expect(verdictOfReply('**Final Answer:** The only solution is $f(x) = x^2 - x$ for all real $x$.', 'f(x) = x^2 - x')).toBe('equal');
    expect(verdictOfReply('So $n$ must be a power of $2$.', '2')).not.toBe('equal');
  });

  it('still reads a letter that a verb gives as the value', () => {
    expect(verdictOfReply('Hence the answer is $n$.', 'n')).toBe('equal');
    expect(verdictOfReply('**Final Answer:** All integers $n \\ge 2$.', 'n \\ge 2')).toBe('equal');
  });
});

describe('expressions equal where their letters are positive', () => {
  it('are unsure, not different: a length or a count is positive, which only the question says', () => {
    expect(verdictOfReply('So the ratio is $\\boxed{\\frac{\\sqrt{yz}}{z}}$.', '\\sqrt{\\frac{y}{z}}')).toBe('unsure');
    expect(verdictOf('\\frac{\\sqrt{19a^2}}{2}', '\\frac{a\\sqrt{19}}{2}')).toBe('unsure');
  });

  it('stay different where they differ at positive values too', () => {
    expect(verdictOf('\\sqrt{\\frac{z}{y}}', '\\sqrt{\\frac{y}{z}}')).toBe('different');
    expect(verdictOf('-x', 'x')).toBe('different');
    expect(verdictOf('\\lfloor \\frac{q}{7} \\rfloor', '\\lfloor \\frac{q}{6} \\rfloor')).toBe('different');
  });
});

describe('a double factorial of a letter', () => {
  it('is compared at integers, where it has its one value', () => {
    expect(verdictOfReply('Hence the count is $\\boxed{\\frac{(2k)!}{2^k k!}}$.', '(2k-1)!!')).toBe('equal');
    expect(verdictOf('2^n n!', '(2n)!!')).toBe('equal');
    expect(verdictOf('(2k+1)!!', '(2k-1)!!')).toBe('different');
    expect(verdictOf('\\frac{(2k)!}{2^{k-1} k!}', '(2k-1)!!')).toBe('different');
  });
});

describe('two spellings of one decoration', () => {
  it('reads \\overline as \\bar and \\widehat as \\hat', () => {
    expect(verdictOfReply('Thus $\\boxed{X(y) = 1 + (u-1)\\overline{y}}$.', 'X(y)=1+(u-1) \\bar{y}')).toBe('equal');
    expect(verdictOf('\\hat A', '\\widehat{A}')).toBe('equal');
    expect(verdictOf('\\overline{x}', '\\bar{y}')).toBe('different');
  });
});
