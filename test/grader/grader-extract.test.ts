import { describe, expect, it } from 'vitest';
import { cpuTimed } from './cpu-timed.ts';
import { extractAnswer, finalAnswers, gradeAnswer } from '../../src/grader/index.ts';

/** The verdict a run gives a whole response: its extracted answer, graded with the response as context. */
function verdictOf(response: string, gold: string): string {
  return gradeAnswer(extractAnswer(response), gold, undefined, { response }).verdict;
}

/** Responses written for this project in the style of reasoning models' final text. */
describe('an announced answer set in several math segments', () => {
  it('keeps every segment that only separators join', () => {
    const pair = 'We solved the system above.\n\nThe final answer is: $a=s+t$, $b=s-t$.';
    expect(extractAnswer(pair)).toBe('a=s+t, b=s-t');
    expect(verdictOf(pair, 'a = s+t, b = s-t')).toBe('equal');
    expect(verdictOf('**Final Answer:** $x = 1$ and $y = -2$', '(x, y) = (1, -2)')).toBe('equal');
    const display = 'Final answer:\n\\[ p = 3, \\]\n\\[ q = 7 \\]';
    expect(extractAnswer(display)).toBe('p = 3, q = 7');
  });

  it('keeps a clause that qualifies the answer', () => {
    const family = 'Checking both directions, the final answer is $g(x)=ax^2$ for some $a>0$.';
    expect(extractAnswer(family)).toBe('g(x)=ax^2 for some a>0');
    expect(verdictOf(family, 'g(x) = ax^2, a > 0')).toBe('equal');
    expect(verdictOf(family, 'g(x) = ax^2, a < 0')).toBe('different');
    const integers = 'So the answer is $x = 2k\\pi$ where $k$ is an integer.';
    expect(verdictOf(integers, 'x = 2k\\pi, k \\in \\mathbb{Z}')).toBe('equal');
  });

  it('leaves out a reason or a remark after the answer', () => {
    expect(extractAnswer('The answer is $x=1$ and $y=2$, since both satisfy $x+y=3$.')).toBe('x=1 and y=2');
    expect(extractAnswer('The final answer is $12$, and $12 = 3 \\cdot 4$ checks out.')).toBe('12');
    expect(extractAnswer('The final answer is $\\frac{1}{2}$, which equals $0.5$.')).toBe('\\frac{1}{2}');
    expect(extractAnswer('The answer is $3$, $4$ and $5$ are too large.')).toBe('3');
    expect(verdictOf('The answer is $5$.\n\n$6$ is what we would get with repetition.', '5')).toBe('equal');
  });
});

describe('extraction time on long and adversarial responses', () => {
  // Each input below took seconds before (time quadratic in its length); a
  // linear pass takes milliseconds, so the bound leaves room for a busy machine.
  const bound = 2000;

  it('stays linear on unclosed math delimiters and boxes', () => {
    const cases: Array<[string, string]> = [
      ['unclosed display math', '\\[ '.repeat(60_000)],
      ['unclosed inline math', '\\( '.repeat(60_000)],
      ['unclosed boxes', '\\boxed{'.repeat(20_000)],
      ['announcements of unclosed math', 'Final answer: \\['.repeat(8_000)],
      ['repeated announcements', 'so the answer is '.repeat(8_000)],
      // Read for cases whose conditions come first, its sentences were split against every math segment each.
      ['a paragraph of many short cases', Array.from({ length: 24_000 }, (_, k) => `If $n = ${k}$, the answer is $${k}$.`).join(' ')],
    ];
    for (const [name, response] of cases) {
      const { ms } = cpuTimed(() => [extractAnswer(response), finalAnswers(response)]);
      expect(ms, name).toBeLessThan(bound);
    }
  });

  it('still reads the answer at the end of a long reasoning', () => {
    const reasoning = 'We try $x = 2$: then $x^2 = 4$ and \\[ x^3 = 8, \\] so we keep going. '.repeat(1_500);
    const response = `<think>${reasoning}</think>\n\nThe final answer is $\\boxed{42}$.`;
    const { ms, value } = cpuTimed(() => verdictOf(response, '42'));
    expect(value).toBe('equal');
    expect(ms).toBeLessThan(bound);
  });
});

describe('a "Final Answer" heading', () => {
  it('announces the answer on the lines below it', () => {
    const prose = '**Final Answer**\n\nThe number of admissible colourings is 42.';
    expect(extractAnswer(prose)).toBe('42');
    expect(verdictOf(prose, '42')).toBe('equal');
    expect(extractAnswer('### Final Answer\n\n$$\nx = -3\n$$\n\nThis matches the check above with $x = 5$.')).toBe('x = -3');
  });

  it('is a final answer after a boxed step, so the two go to the judge', () => {
    const response = 'Counting the first case gives $\\boxed{40}$ colourings.\n\n## Final Answer\n\n44';
    expect(extractAnswer(response)).toBe('44');
    expect(finalAnswers(response)).toEqual(['40', '44']);
    expect(verdictOf(response, '44')).toBe('unsure');
  });
});

describe('answers written in other scripts and Unicode forms', () => {
  it('reads a Chinese announcement with a colon after it', () => {
    expect(extractAnswer('综上所述，答案为：\\(\\frac{1}{2}\\)')).toBe('\\frac{1}{2}');
    expect(verdictOf('因此，最终答案是： $x = 4$', '4')).toBe('equal');
  });

  it('reads full-width digits and precomposed fractions as their ASCII forms', () => {
    expect(verdictOf('所以答案是１２。', '12')).toBe('equal');
    expect(verdictOf('所以答案是１３。', '12')).toBe('different');
    expect(verdictOf('Final answer: （３，４）', '(3, 4)')).toBe('equal');
    expect(verdictOf('The probability is \\boxed{¾}.', '\\frac34')).toBe('equal');
    expect(verdictOf('The probability is \\boxed{¼}.', '\\frac34')).toBe('different');
    expect(verdictOf('The answer is −½.', '-\\frac{1}{2}')).toBe('equal');
    expect(verdictOf('It takes \\boxed{2¾} hours.', '\\frac{11}{4}')).toBe('equal');
    expect(verdictOf('Final answer: 3⁄8', '\\frac38')).toBe('equal');
  });
});

describe('words around a short answer', () => {
  it('leaves out a word leading into the mathematics', () => {
    expect(extractAnswer('Therefore, $x = 7$.')).toBe('x = 7');
    expect(verdictOf('Therefore, $x = 7$.', '7')).toBe('equal');
    expect(verdictOf('Hence $f(x) = x^2$', 'f(x) = x^2')).toBe('equal');
    expect(verdictOf('Hence $f(x) = x^3$', 'f(x) = x^2')).toBe('different');
  });

  it('leaves out a remark in words after an announced number', () => {
    expect(extractAnswer('The answer is 7 (seven).')).toBe('7');
    expect(verdictOf('Answer: 12 (cm)', '12')).toBe('equal');
    expect(verdictOf('The answer is 7 (seven).', '8')).toBe('different');
  });
});

describe('a final answer given as a list', () => {
  it('reads every item, and items that differ go to the judge', () => {
    const parts = '**Final Answer**\n\n- **Part (a):** $3$\n- **Part (b):** $5$';
    expect(extractAnswer(parts)).toBe('3, 5');
    expect(finalAnswers(parts)).toEqual(['3', '5']);
    expect(verdictOf(parts, '5')).toBe('unsure');
    expect(verdictOf('**Final answers:**\n1. $12$\n2. $12$', '12')).toBe('equal');
    expect(verdictOf('The final answer is:\n\n* $n = 4$\n* $n = 6$\n\nThese are all.', '4')).toBe('unsure');
  });

  it('is not a list when the answer stands on the marker line', () => {
    expect(extractAnswer('Final answer: 12\n- both cases were checked\n- the bound is tight')).toBe('12');
  });
});

describe('a final answer given as a table', () => {
  it('reads the last cell of each row under the header', () => {
    const one = '**Final Answer**\n\n| Quantity | Value |\n|:--|--:|\n| $x$ | $3$ |';
    expect(extractAnswer(one)).toBe('3');
    expect(verdictOf(one, '3')).toBe('equal');
    const parts = '### Final Answer\n\n| Part | Answer |\n|---|---|\n| (a) | $3$ |\n| (b) | $5$ |';
    expect(finalAnswers(parts)).toEqual(['3', '5']);
    expect(verdictOf(parts, '5')).toBe('unsure');
  });
});

describe('reasoning left inline by other model families', () => {
  it('reads only the final channel of a gpt-oss reply as its final answers', () => {
    const tagged = '<|channel|>analysis<|message|>Maybe \\boxed{3}? No, recount.<|end|><|start|>assistant<|channel|>final<|message|>The answer is \\boxed{5}.';
    expect(finalAnswers(tagged)).toEqual(['5']);
    expect(verdictOf(tagged, '5')).toBe('equal');
    const stripped = 'analysisMaybe \\boxed{3}? No, recount.assistantfinalThe answer is \\boxed{5}.';
    expect(verdictOf(stripped, '5')).toBe('equal');
  });

  it('reads a Japanese announcement', () => {
    expect(extractAnswer('よって、答えは：$7$')).toBe('7');
    expect(verdictOf('答え：7', '7')).toBe('equal');
  });

  it('reads the Chinese short answer mark 答：', () => {
    // "答：12" announced nothing: the whole line was the answer, different from 12.
    expect(extractAnswer('由上可知 $x = 12$。\n\n答：12')).toBe('12');
    expect(verdictOf('答：12', '12')).toBe('equal');
    expect(verdictOf('答：13', '12')).toBe('different');
    // "解答：" opens a solution, not its answer.
    expect(extractAnswer('解答：设 $x$ 为所求。所以 $x = 5$。')).toBe('x = 5');
  });

  it('reads a lower-case "no" as the word, as "No" is', () => {
    // "The answer is no." gave "no", read as the product of n and o: different from No.
    expect(verdictOf('We found a contradiction. The answer is no.', 'No')).toBe('equal');
    expect(verdictOf('We found a contradiction. The answer is no.', 'Yes')).toBe('different');
    expect(gradeAnswer('NO', 'No').verdict).toBe('equal');
  });

  it('reads a German, Spanish, Italian, Portuguese or Russian announcement, which was a labelled pair graded wrong', () => {
    for (const reply of ['Ответ: 110', 'Die Antwort ist 110.', 'Endergebnis: 110', 'La respuesta final es 110.', 'Risposta finale: 110', 'A resposta final é 110.']) {
      expect(extractAnswer(reply), reply).toBe('110');
      expect(verdictOf(reply, '110'), reply).toBe('equal');
    }
    // A word ending in one of them is no announcement.
    expect(extractAnswer('Das Zwischenergebnis: 12. Also ist $x = 5$.')).toBe('x = 5');
  });

  it('reads a word before a colon as a label, as `x =`, not as the first term of a ratio graded wrong', () => {
    for (const reply of ['Result: 110', 'Solution: 110', 'Lösung: 110']) expect(verdictOf(reply, '110'), reply).toBe('equal');
    expect(verdictOf('Result: 111', '110')).toBe('different');
    // Ratios and pairs of names stay what they were.
    expect(verdictOf('3:4', '3:4')).toBe('equal');
    expect(verdictOf('3:4', '4:3')).toBe('different');
    expect(verdictOf('AB:CD', '110')).toBe('different');
  });
});

describe('markdown around an announcement', () => {
  it('reads the answer after a bold label whose colon stands outside the bold', () => {
    // "**Answer**: 42" announced nothing the extraction read: no answer at all.
    expect(extractAnswer('We count the cases.\n\n**Answer**: 42')).toBe('42');
    expect(verdictOf('We count the cases.\n\n**Final answer**: $\\frac{3}{4}$', '0.75')).toBe('equal');
    expect(verdictOf('We count the cases.\n\n__Answer__: 41', '42')).toBe('different');
  });

  it('reads an "Answer" heading as it reads a "Final Answer" heading', () => {
    expect(extractAnswer('Counting gives the total.\n\n### Answer\n\n42')).toBe('42');
    expect(verdictOf('Counting gives the total.\n\n## Answer\n$x = 7$', '7')).toBe('equal');
    expect(verdictOf('Counting gives the total.\n\n## Answer\n$x = 8$', '7')).toBe('different');
  });

  it('reads a final answer set on the lines below "the final answer is:" as one answer', () => {
    // The colon was read as a second final answer, so a correct response went to the judge.
    const response = 'So $m = \\boxed{12}$.\n\nThus, the final answer is:\n$$\n12\n$$';
    expect(finalAnswers(response)).toEqual(['12', '12']);
    expect(verdictOf(response, '12')).toBe('equal');
    expect(verdictOf('So $m = \\boxed{12}$.\n\nThus, the final answer is:\n$$\n13\n$$', '13')).toBe('unsure');
  });
});

describe('a yes or no answer followed by its reason', () => {
  it('is the yes or the no, not the last word of the reason', () => {
    // "Yes, it is possible." was read as "possible", different from "Yes".
    expect(verdictOf('**Answer:** Yes, it is possible.', 'Yes')).toBe('equal');
    expect(verdictOf('The answer is: No, because the sum is odd.', 'No')).toBe('equal');
    expect(verdictOf('**Answer:** Yes, it is possible.', 'No')).toBe('different');
    expect(verdictOf('The answer is: No - the sum is odd.', 'Yes')).toBe('different');
  });

  it('is also the empty set its reason names', () => {
    expect(verdictOf('Final answer: No, there is no such $n$.', '\\emptyset')).toBe('equal');
    expect(verdictOf('Final answer: No, there is no such $n$.', 'No')).toBe('equal');
    expect(verdictOf('Final answer: Yes, there are infinitely many.', '\\emptyset')).not.toBe('equal');
  });
});

describe('reasoning left inline in the content', () => {
  it('reads the answer after the last </think>, not a box inside the reasoning', () => {
    // A box the model tried while thinking was the extracted answer, different from the final one.
    const response = '<think>Maybe \\boxed{3}? No, recount.</think>\n\nSo $x = 5$.';
    expect(extractAnswer(response)).toBe('x = 5');
    expect(verdictOf(response, '5')).toBe('equal');
    expect(verdictOf('<think>Maybe \\boxed{5}? No, recount.</think>\n\nSo $x = 3$.', '5')).toBe('different');
  });

  it('still reads the reasoning when nothing follows it', () => {
    expect(extractAnswer('<think>The count is \\boxed{7}.</think>')).toBe('7');
  });
});

describe('an unannounced answer in several math segments', () => {
  it('keeps the segments of the last sentence that only separators join', () => {
    // Only the last segment was read: "x = -3", different from -3, 2.
    expect(extractAnswer('We factor the quadratic.\n\nThe solutions are $x = 2$ and $x = -3$.')).toBe('x = 2, x = -3');
    expect(verdictOf('We factor the quadratic.\n\nThe solutions are $x = 2$ and $x = -3$.', '-3, 2')).toBe('equal');
    expect(verdictOf('We factor the quadratic.\n\nThe solutions are $x = 2$ and $x = 3$.', '-3, 2')).toBe('different');
  });

  it('keeps a clause that ranges a letter of the math before it, as an announced answer does', () => {
    // The lone letter of the clause was read: "k is an integer", unsure against the family; "a < 0" against "a > 0" too.
    expect(verdictOf('Thus $x = 2k\\pi$, where $k$ is an integer.', 'x = 2k\\pi, k \\in \\mathbb{Z}')).toBe('equal');
    expect(verdictOf('Thus $x = k\\pi$, where $k$ is an integer.', 'x = 2k\\pi, k \\in \\mathbb{Z}')).toBe('different');
    expect(verdictOf('So $g(x) = ax^2$ for some $a > 0$.', 'g(x) = ax^2, a > 0')).toBe('equal');
    expect(verdictOf('So $g(x) = ax^2$ for some $a < 0$.', 'g(x) = ax^2, a > 0')).toBe('different');
  });

  it('leaves out a segment that words keep apart', () => {
    expect(extractAnswer('We solve it.\n\nSince $m = 3$ and $n = 7$, we get $m + n = 10$.')).toBe('m + n = 10');
  });
});

describe('a remark after an unannounced answer', () => {
  it('is not the answer: the value the sentence states is, and a wrong reference in the remark is different', () => {
    // The last math of the paragraph was read: the remark's value was graded equal, the stated one different.
    const remarks: ReadonlyArray<readonly [string, string, string]> = [
      ['The minimum value is $1$, which is attained at $x = 0$.', '1', '0'],
      ['Therefore the minimum is $1$ (attained at $x=0$).', '1', '0'],
      ['Hence the minimum of $f$ is $1$, reached at $x=0$.', '1', '0'],
      ['So $\\min f = 1$, with equality when $x = 0$.', '1', '0'],
      ['There are $8$ ways in total (we counted $4$ for each of the $2$ cases).', '8', '2'],
      ['Thus the value of $k$ is $2$ (and $k=-2$ is rejected since $k>0$).', '2', '-2'],
      ['Since $n$ is odd, the only possibility is $n = 5$, for which $2^5 - 1 = 31$ is prime.', '5', '31'],
      ['So $n=6$, because $6! = 720$.', '6', '720'],
      ['The volume is $64$ cubic units, where the side is $4$.', '64', '4'],
      ['The volume is $64$ cubic units; the side is $4$.', '64', '4'],
      ['The volume is $64$, using $s = 4$.', '64', '4'],
      ['The volume is $64$ — the side being $4$.', '64', '4'],
      ['The count is $9$. Indeed, checking small cases, $n=1$ gives $1$.', '9', '1'],
      ['The count is $9$.\nNote: for $n=1$ we get $1$.', '9', '1'],
      ['**Final answer:** the minimum is $1$, attained only at $x=0$.', '1', '0'],
    ];
    for (const [response, right, wrong] of remarks) {
      expect([response, verdictOf(response, right)]).toEqual([response, 'equal']);
      expect([response, verdictOf(response, wrong)]).toEqual([response, 'different']);
    }
  });

  it('is cut in the other languages whose announcements are read', () => {
    // The value where the extremum is reached was read: 3 graded equal, 15 different.
    for (const response of ['Donc le minimum vaut $15$, atteint pour $n=3$.', 'Portanto, o valor mínimo é $15$, atingido em $n=3$.', 'Por tanto, el mínimo es $15$, alcanzado en $n=3$.', '所以最小值为 $15$，此时 $n=3$。', '所以最小值为 $15$（当 $n=3$ 时取得）。']) {
      expect([response, verdictOf(response, '15'), verdictOf(response, '3')]).toEqual([response, 'equal', 'different']);
    }
  });

  it('keeps what leads to the answer or belongs to it', () => {
    expect(verdictOf('Let $x$ be the number. Then $x + 5 = 17$, so $x = 12$.', '12')).toBe('equal');
    expect(verdictOf('The maximum is attained when $a=b=c$, giving $2$.', '2')).toBe('equal');
    expect(verdictOf('We find $x = 3$ and so $y = 4$, and the product is $xy = 12$.', '12')).toBe('equal');
    expect(verdictOf('Adding, we get $1+2$, which is $3$.', '3')).toBe('equal');
    // An aside closed before the last math, or a consequence after the opener, leads on to the value.
    expect(verdictOf('We get $a+b$ (since $a=5$, $b=7$), that is $12$.', '12')).toBe('equal');
    expect(verdictOf('The volume is $V$, where $s=4$, so $V = 64$.', '64')).toBe('equal');
    expect(verdictOf('We use $a=5$ (from the first equation), and then $a + 7 = 12$.', '5')).toBe('different');
    expect(verdictOf('Dividing, we get: $$\\frac{a}{b} = 4.$$ Hence, we get $a = 4b$, so $b = 2$.', '2')).toBe('equal');
    // A clause that gives another answer, or one in words closed by its comma, is no remark: its value was dropped,
    // and a wrong reference 5 or 1 graded equal, sure of it; "which is" after a remark's clause leads on to the value.
    expect(verdictOf('The solutions are $x = 5$, as well as $x = 7$.', '5')).not.toBe('equal');
    expect(verdictOf('So $x = 1$ is a solution, as is $x = -1$.', '1')).not.toBe('equal');
    expect(verdictOf('The solutions are $x = 1$ and, since the equation is symmetric, $x = -1$.', '1')).not.toBe('equal');
    expect(verdictOf('We get $a+b$, since $a=5$ and $b=7$, which is $12$.', '12')).toBe('equal');
    expect(verdictOf('The maximum is $10$, attained when, for instance, $a = b = c$.', '10')).toBe('equal');
    expect(verdictOf('The minimum is $1$, as is easily checked at $x = 0$.', '1')).toBe('equal');
  });
});

describe('a value given in words after the mathematics that names it', () => {
  it('reads the number or the bold answer that closes the last paragraph', () => {
    // The last math segment was the answer: "n", different from 3 and sure of it.
    expect(extractAnswer('We check each case.\n\nThus the smallest such $n$ is 3.')).toBe('3');
    expect(verdictOf('We check each case.\n\nThus the smallest such $n$ is 3.', '3')).toBe('equal');
    expect(verdictOf('Therefore the value of $a+b$ is 17.', '17')).toBe('equal');
    expect(verdictOf('Therefore $a + b$ equals 17.', '17')).toBe('equal');
    expect(verdictOf('Hence the maximum of $f$ on $[0,1]$ is therefore **17**.', '17')).toBe('equal');
    expect(verdictOf('Hence, for $n=4$ the value is 3.5.', '3')).toBe('different');
    // With no mathematics at all, a bold answer was none: the reply had no answer.
    expect(extractAnswer('We check each case.\n\nThus the smallest such n is **3**.')).toBe('3');
  });

  it('reads no number in passing, nor one a reply cut at the window leaves without its full stop', () => {
    expect(extractAnswer('For $k = 3$ we get 17 cases, which we list.')).toBe('k = 3');
    expect(extractAnswer('We check each case.\n\nThe number of ways to choose the first element is 5')).toBeNull();
  });

  it('reads the value in other languages: a bold number closing the paragraph, a number 是 gives, a counter after it', () => {
    expect(verdictOf('小明先读了8页，又读了4页。所以他一共读了 **12页**。', '12')).toBe('equal');
    expect(verdictOf('小明先读了8页，又读了4页。所以他一共读了 **13页**。', '12')).toBe('different');
    expect(verdictOf('所以，箱子的总重量是48公斤。', '48')).toBe('equal');
    expect(verdictOf('إذن، مجموع العددين هو **15**.', '15')).toBe('equal');
    expect(verdictOf('Donc la part de Marie est de **40%**.', '40\\%')).toBe('equal');
    expect(gradeAnswer('7 яблок', '7').verdict).toBe('equal');
    expect(extractAnswer('We treat **Case 2** last.')).not.toBe('2');
  });

  it('reads a concluding sentence after the last math that states another number, not the formula before it', () => {
    const count = 'Each divisor $k$ of 60 gives the step $s = \\frac{60}{k}$. Therefore, there are 12 such progressions. I hope it is correct.';
    expect(verdictOf(count, '12')).toBe('equal');
    expect(verdictOf(count, '13')).toBe('different');
    expect(verdictOf('The ratio is $$\\frac{v_2}{v_1} = 3.$$ Therefore, the speed increases by 200%.', '200\\%')).toBe('unsure');
    expect(verdictOf('Hence $n = 5$. So we need 5 steps in total.', '5')).toBe('equal');
    // A math that states a value of its own, then a count: either may be the answer.
    const remark = 'So the sum is $45$. Hence there are 2 cases where it fails.';
    expect(verdictOf(remark, '45')).toBe('unsure');
    expect(verdictOf(remark, '2')).toBe('unsure');
  });

  it('reads a bold fraction in math as the fraction', () => {
    // \mathbf around a group was kept, so the answer was different from 1/3.
    expect(verdictOf('So the probability is $\\mathbf{\\frac{1}{3}}$.', '\\frac13')).toBe('equal');
    expect(verdictOf('So the probability is $\\mathbf{\\frac{1}{3}}$.', '\\frac12')).toBe('different');
  });
});

describe('a reply cut at the window inside its box', () => {
  it('is unsure, since what the box holds may be the start of a longer answer', () => {
    // "\boxed{12" graded equal to 12, sure of it, though the reply may have gone on to 120.
    const cut = 'Adding the two counts, the answer is $\\boxed{12';
    expect(extractAnswer(cut)).toBe('12');
    expect(verdictOf(cut, '12')).toBe('unsure');
    expect(verdictOf(cut, '120')).toBe('unsure');
    expect(verdictOf('Adding the two counts, the answer is $\\boxed{12}$.', '12')).toBe('equal');
    // A box left open inside the reasoning does not make the closed final one unsure.
    expect(verdictOf('<think>maybe \\boxed{7</think>\n\nThe answer is $\\boxed{12}$.', '12')).toBe('equal');
  });
});

describe('a box that is only part of the value written around it', () => {
  it('is unsure, since the reply states another value than the box holds', () => {
    // Each graded equal to 5, sure of it: the box's content was the answer, the value around it was lost.
    for (const reply of ['So the answer is $\\boxed{5}\\sqrt{2}$.', 'So the answer is $-\\boxed{5}$.', 'So the answer is $\\frac{\\boxed{5}}{2}$.', 'So the answer is $\\boxed{5} \\times 10^3$.', 'The answer is $\\boxed{5}$ thousand.']) {
      expect(verdictOf(reply, '5'), reply).toBe('unsure');
    }
  });

  it('leaves a label, a unit, a degree mark or a percent sign around the box as they were', () => {
    for (const reply of ['So $x = \\boxed{5}$.', 'So the answer is $\\boxed{5} \\text{ cm}$.', 'So the angle is $\\boxed{5}^\\circ$.', 'Hence $\\Rightarrow \\boxed{5}$', '\\[ \\text{Answer: } \\boxed{5} \\]']) {
      expect(verdictOf(reply, '5'), reply).toBe('equal');
    }
    expect(verdictOf('So the answer is $\\boxed{20}\\%$.', '20\\%')).toBe('equal');
  });
});
