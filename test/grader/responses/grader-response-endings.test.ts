/**
 * How the grader reads the endings of whole responses that a reasoning model
 * writes after its answer: a second value joined by words, a hedge, a value
 * rejected or where the answer is reached, a clause about its letters; and
 * answers written with words around their mathematics (a bound and the
 * points it leaves out, a family whose "for" bounds its parameter, a
 * constant said to be arbitrary, a set of pairs by a condition). Every case
 * was written for this project, each beside near misses.
 */
import { describe, expect, it } from 'vitest';
import { extractAnswer, gradeAnswer } from '../../../src/grader/index.ts';

/** The verdict a run gives a whole response: its extracted answer, graded with the response as context. */
function verdictOf(response: string, gold: string): string {
  return gradeAnswer(extractAnswer(response), gold, undefined, { response }).verdict;
}

/** Unannounced endings written for this project: a constant value, then a clause about its letters. */
describe('a clause after a value that states a constant', () => {
  it('is a remark when it is about the letters the value settles', () => {
    // Read as the answer, the clause was graded different from the right value, sure of it.
    expect(verdictOf('Therefore $p+q=20$, where $p=8$ and $q=12$.', '20')).toBe('equal');
    expect(verdictOf('Therefore $p+q=20$, where $p=8$ and $q=12$.', '8')).toBe('different');
    expect(verdictOf('So $t = 9$, with $t > 0$.', '9')).toBe('equal');
    expect(verdictOf('So $t = 9$, with $t > 0$.', '-9')).toBe('different');
    // After an announcement the clause was kept as a qualifier: unsure.
    expect(verdictOf('The final answer is $p+q=20$, where $p=8$ and $q=12$.', '20')).toBe('equal');
    expect(verdictOf('The answer is $r = 4$, where $r$ is the inradius.', '4')).toBe('equal');
    expect(verdictOf('The answer is $r = 4$, where $r$ is the inradius.', '5')).toBe('different');
    // A letter the value leaves free is still ranged by the clause.
    expect(verdictOf('Thus $x = 2k\\pi$, where $k$ is an integer.', '2k\\pi, k \\in \\mathbb{Z}')).toBe('equal');
    // A function's argument is never settled: the clause is a case of it.
    expect(extractAnswer('Hence $g(t) = 0$, where $t < 0$.')).toContain('t < 0');
  });

  it('gives a second coordinate when "with" alone sets another letter', () => {
    // Cut as a remark, the first coordinate alone was graded equal to a wrong reference 5, and (5, 6) different.
    expect(verdictOf('The solution is $u=5$, with $v=6$.', '5')).not.toBe('equal');
    expect(verdictOf('The solution is $u=5$, with $v=6$.', '(5, 6)')).toBe('equal');
    expect(verdictOf('The solution is $u=5$, with $v=6$.', '(5, 7)')).toBe('different');
    // "with" and words before the math is a remark as before.
    expect(verdictOf('Hence $m=5$, with equality when $x=1$.', '5')).toBe('equal');
  });
});

/** Responses written for this project that add a second answer with words rather than a comma or "and". */
describe('an answer that "as well as", "and also" or "together with" extends', () => {
  it('keeps the value it adds, announced or not', () => {
    // Read as the first value alone: a wrong reference 4 or 6 was graded equal, sure of it.
    expect(verdictOf('The answer is $y=4$, as well as $y=9$.', '4')).not.toBe('equal');
    expect(verdictOf('The answer is $y=4$, as well as $y=9$.', '4, 9')).toBe('equal');
    expect(verdictOf('**Final answer:** $t = 6$, and also $t = -1$.', '6')).not.toBe('equal');
    expect(verdictOf('**Final answer:** $t = 6$, and also $t = -1$.', '-1, 6')).toBe('equal');
    expect(verdictOf('The roots are $z = 0$ together with $z = 8$.', '0')).not.toBe('equal');
    expect(verdictOf('The roots are $z = 0$ together with $z = 8$.', '0, 8')).toBe('equal');
    expect(verdictOf('The answer is $z = 0$, together with $z = 8$.', '0, 8')).toBe('equal');
    expect(verdictOf('So the solutions are $m = 2$, along with $m = 11$.', '11')).not.toBe('equal');
    // A reason after the answer still ends it.
    expect(verdictOf('The answer is $y=4$, as we showed above with $y=9$ excluded.', '4')).toBe('equal');
  });
});

/** Unannounced endings written for this project that hedge between two values. */
describe('an unannounced value offered as an alternative to the one before it', () => {
  it('is graded neither as the answer nor as the only one', () => {
    // The hedge's value was read as the answer: a wrong reference 21 was graded equal, sure of it.
    for (const response of [
      'Hence we get $20$ (or possibly $21$).',
      'So we get $20$, or perhaps $21$.',
      'Therefore it is $20$, though it could be $21$.',
      'Thus the total is $20$ (maybe $21$).',
    ]) {
      expect(verdictOf(response, '21')).not.toBe('equal');
      expect(verdictOf(response, '20')).not.toBe('equal');
    }
    // A restatement, or a plain "or" between two answers, is no hedge.
    expect(verdictOf('Hence we get $20$ (or equivalently $\\frac{40}{2}$).', '20')).toBe('equal');
    expect(verdictOf('Thus $x = 20$ or $x = 21$.', '20, 21')).toBe('equal');
  });
});

/** Unannounced endings written for this project that set a rejected value, or where it is reached, after the answer. */
describe('a value set against the unannounced answer, or the point where it is reached', () => {
  it('is cut as a remark', () => {
    // Read as the last math, the rejected value was the answer: a wrong reference 9 or 3 was graded equal, sure of it.
    for (const response of ['So $y = -9$, not $9$.', 'So $y = -9$ rather than $9$.', 'Therefore $y = -9$ instead of $y = 9$.']) {
      expect(verdictOf(response, '-9')).toBe('equal');
      expect(verdictOf(response, '9')).toBe('different');
    }
    // "whereas", "while", "but not", "and not" set a value against the answer as well.
    for (const response of ['We get $y = -9$, whereas $y = 9$ fails.', 'We get $y = -9$, while $y = 9$ fails.', 'We get $y = -9$ but not $y = 9$.', 'So $y=-9$ and not $y = 9$.']) {
      expect(verdictOf(response, '-9')).toBe('equal');
      expect(verdictOf(response, '9')).toBe('different');
    }
    expect(verdictOf('The largest value is $5$, when $t = 3$.', '5')).toBe('equal');
    expect(verdictOf('The largest value is $5$, when $t = 3$.', '3')).toBe('different');
    expect(verdictOf('The largest value is $5$, attained when $t = 3$.', '3')).toBe('different');
    // "when" that ranges the value's own letter belongs to it.
    expect(extractAnswer('Hence $g(t) = 0$, when $t < 0$.')).toContain('t < 0');
  });

  it('cuts a reason without a comma, and a sentence that checks the answer', () => {
    // Read as the last math, the reason's "4 \\cdot 7 = 28" was the answer: a wrong reference 28 was graded equal, sure of it.
    const endings = [
      'Solving gives $z = 7$ because $4 \\cdot 7 = 28$.',
      'Solving gives $z = 7$. This is because $4 \\cdot 7 = 28$.',
      'Solving gives $z = 7$. This works since $4 \\cdot 7 = 28$.',
      'Solving gives $z = 7$. Plugging in: $4 \\cdot 7 = 28$.',
      'Solving gives $z = 7$. Substituting back, $4(7) = 28$.',
    ];
    for (const response of endings) {
      expect(verdictOf(response, '7'), response).toBe('equal');
      expect(verdictOf(response, '28'), response).toBe('different');
    }
    // Announced, a reason in parentheses left the answer unread: unsure against the right 7.
    expect(verdictOf('Answer: 7 (since 4 * 7 = 28).', '7')).toBe('equal');
    // A sentence that opens on "Since" and concludes is the answer.
    expect(verdictOf('We know $w = 2$. Since $w = 2$, we get $z = 7$.', '7')).toBe('equal');
  });

  it('cuts a check after a comma or a semicolon', () => {
    // Read as the last math, the check "6^2 = 36" was the answer: a wrong reference 36 was graded equal, sure of it.
    for (const response of ['So $w = 6$, and indeed $6^2 = 36$.', 'So $w = 6$; indeed, $6^2 = 36$.', 'So $w = 6$; as a check, $6^2 = 36$.']) {
      expect(verdictOf(response, '6'), response).toBe('equal');
      expect(verdictOf(response, '36'), response).toBe('different');
    }
  });
});

/** Endings written for this project that deny a value, in a sentence or a clause of their own. */
describe('a value the reply denies or rejects', () => {
  it('is never its answer', () => {
    // Read as the last math, the denied value was the answer: a wrong reference 6 was graded equal, sure of it.
    for (const response of ['The total is $15$. It is not $6$.', 'Hence the total equals $15$. This is not $6$, as one might guess.', "So the total is $15$. It isn't $6$.", 'The total cannot be $6$; it is $15$.']) {
      expect(verdictOf(response, '15'), response).toBe('equal');
      expect(verdictOf(response, '6'), response).toBe('different');
    }
    // In the other languages read: "nicht", "non", "et non", "não" before the value deny it as "not" does.
    for (const response of ['Also ist die Antwort $15$, nicht $6$.', 'Quindi il totale è $15$, non $6$.', 'Donc le total vaut $15$, et non $6$.', 'Portanto o total é $15$, não $6$.', 'Значит, сумма равна $15$. Она не равна $6$.']) {
      expect(verdictOf(response, '15'), response).toBe('equal');
      expect(verdictOf(response, '6'), response).toBe('different');
    }
    // A denial alone states no value: never equal to the value it denies.
    expect(verdictOf('So $m$ is not $6$.', '6')).not.toBe('equal');
    expect(verdictOf('Thus $m$ is never equal to $6$.', '6')).not.toBe('equal');
    // "not less than" is a bound, "not only" keeps its value.
    expect(verdictOf('So $m$ is not less than $6$.', '6')).not.toBe('different');
    // "not just … but also" keeps its value as "not only" does: read as denied, 7 alone was equal to a wrong 7.
    expect(verdictOf('The solutions are not just $m = 6$ but also $m = 7$.', '6, 7')).toBe('equal');
    expect(verdictOf('The solutions are not just $m = 6$ but also $m = 7$.', '7')).toBe('different');
  });

  it('takes out a last sentence or clause that rejects the value it names', () => {
    // Read as the last math, the rejected value was the answer: a wrong reference 9 was graded equal, sure of it.
    for (const response of ['Hence $q = 4$. The case $q = 9$ fails.', 'Thus $q = 4$ is the only solution; $q = 9$ is rejected.', 'So $q = 4$. We discard $q = 9$ because $q < 5$.', 'Hence $q=4$. For $q = 9$ this does not work.']) {
      expect(verdictOf(response, '4'), response).toBe('equal');
      expect(verdictOf(response, '9'), response).toBe('different');
    }
    // A value the sentence rejects before the one it leaves, or an extraneous one in an aside, is not the answer, nor an added one.
    expect(verdictOf('We reject $q = 9$ since it is extraneous, leaving $q = 4$.', '4')).toBe('equal');
    expect(verdictOf('We reject $q = 9$ since it is extraneous, leaving $q = 4$.', '9')).toBe('different');
    expect(verdictOf('The answer is $q = 4$ (the other root $q = 9$ is extraneous).', '4')).toBe('equal');
    // Named with the answer first, the rejected value was read with it, or alone once the reason was cut: equal to 9, sure of it.
    for (const response of ['The roots are $q = 4$ and $q = 9$, but $q = 9$ is rejected since $q < 5$.', 'The roots are $q = 4$ and $q = 9$; $q = 9$ is rejected since $q < 5$.']) {
      expect(verdictOf(response, '4'), response).toBe('equal');
      expect(verdictOf(response, '9'), response).toBe('different');
    }
    // A clause after ", and" or ", but" that rejects its value, "does not" alone included: 9 was graded equal, sure of it.
    for (const response of ['So $q = 4$ works, and $q = 9$ does not work since $9 > 5$.', 'So $q = 4$ works, but $q = 9$ does not.', 'The condition holds for $q = 4$, but fails for $q = 9$.']) {
      expect(verdictOf(response, '4'), response).toBe('equal');
      expect(verdictOf(response, '9'), response).toBe('different');
    }
    // A sentence that concludes, though it speaks of failing, is the answer.
    expect(verdictOf('The case $q = 3$ fails. Thus $q = 4$ is the least value for which it never fails.', '4')).toBe('equal');
    expect(verdictOf('We showed $q = 3$ works. So the least $q$ that fails is $q = 4$.', '4')).toBe('equal');
  });
});

/** Endings written for this project that exclude a value from the answer before it. */
describe('a value the reply excludes after its answer', () => {
  it('is set against one value, and taken out of a set or a list', () => {
    // Read as the last math, the excluded value was the answer: a wrong reference 7 was graded equal, sure of it.
    for (const response of ['The solutions are $m = 6$, excluding $m = 7$.', 'Thus $m = 6$, except $m = 7$.', 'Final answer: $m = 6$, other than $m = 7$', 'Hence $m = 6$ (excluding $m = 7$).']) {
      expect(verdictOf(response, '6'), response).toBe('equal');
      expect(verdictOf(response, '7'), response).toBe('different');
    }
    // After a set, the answer is what is left: [2, 9] whole was graded equal, sure of it.
    for (const response of ['Hence $2 \\le m \\le 9$, excluding $m = 7$.', 'The answer is $m \\in [2, 9]$ (except $m = 7$).']) {
      expect(verdictOf(response, '[2, 7) \\cup (7, 9]'), response).toBe('equal');
      expect(verdictOf(response, '[2, 9]'), response).not.toBe('equal');
      expect(verdictOf(response, '7'), response).not.toBe('equal');
    }
    expect(verdictOf('So $y = 1, 3, 5$, excluding $y = 3$.', '1, 5')).toBe('equal');
    expect(verdictOf('So $y = 1, 3, 5$, excluding $y = 3$.', '1, 3, 5')).toBe('different');
    // After words or a box, the sentence or the box holds more than the value: never the excluded value alone.
    expect(verdictOf('Every $m$ from $2$ to $9$ works, except $m = 7$.', '7')).not.toBe('equal');
    expect(verdictOf('So $\\boxed{2 \\le m \\le 9}$, excluding $m = 7$.', '[2, 9]')).toBe('unsure');
  });
});

/** Endings written for this project whose last sentence adds a solution to the answer before it. */
describe('a solution the reply adds after its answer', () => {
  it('joins an unannounced answer, and leaves a declared one to a reader', () => {
    // Read as the last math, the added value alone was the answer: a wrong reference 8 was graded equal, sure of it.
    for (const response of ['So $t = 3$. Also $t = 8$ works.', 'Hence $t=3$. Another solution is $t = 8$.', 'The root is $t = 3$. Note that $t = 8$ also satisfies the equation.', 'Not only $t = 3$ but also $t = 8$.']) {
      expect(verdictOf(response, '3, 8'), response).toBe('equal');
      expect(verdictOf(response, '8'), response).toBe('different');
      expect(verdictOf(response, '3'), response).toBe('different');
    }
    // Boxed or announced, the first value was graded equal to a reference that holds it alone.
    for (const response of ['The answer is $t = 3$. Also $t = 8$ works.', 'So $\\boxed{3}$. Also, $t = 8$ is a solution.', 'So $\\boxed{3}$, and $t = 8$ is another root.']) {
      expect(verdictOf(response, '3'), response).toBe('unsure');
      expect(verdictOf(response, '3, 8'), response).not.toBe('equal');
    }
    // A sentence after the box that adds no solution leaves it as it was.
    expect(verdictOf('The answer is $\\boxed{3}$. This is also the least value of $t$.', '3')).toBe('equal');
  });
});

/** Endings written for this project that conclude again after the box. */
describe('a conclusion after the last box', () => {
  it('is another final answer when it states another value', () => {
    // Read as a restatement, the second value was never seen: the box was graded equal, sure of it.
    for (const response of ['Hence $\\boxed{21}$. So there are $22$ paths in total.', 'Hence $\\boxed{21}$. Therefore, there are 22 paths.']) {
      expect(verdictOf(response, '21'), response).toBe('unsure');
      expect(verdictOf(response, '22'), response).toBe('unsure');
    }
    for (const response of ['Hence $\\boxed{21}$. So there are $21$ paths in total.', 'Hence $\\boxed{21}$. Therefore, there are 21 paths.', 'Hence $\\boxed{21}$. Thus $p = 21$, which is $3 \\cdot 7$.']) {
      expect(verdictOf(response, '21'), response).toBe('equal');
      expect(verdictOf(response, '22'), response).toBe('different');
    }
  });
});

/** Endings written for this project that leave the question for a general case or a counterfactual one. */
describe('a generalisation or a counterfactual after the answer', () => {
  it('is an aside, in its sentence or its paragraph', () => {
    // Read as the last math, the aside's value was the answer: a wrong reference 30 or k(k-1) was graded equal, sure of it.
    const endings = [
      'The number of ways is $15$. If order mattered, it would be $30$.',
      'There are $15$ ways. Without the restriction there would be $30$.',
      'So there are $15$ ways. In general the count is $k(k-1)/2$.',
      'So there are $15$ ways.\n\nMore generally, for $k$ people the count is $k(k-1)/2$.',
    ];
    for (const response of endings) {
      expect(verdictOf(response, '15'), response).toBe('equal');
      expect(verdictOf(response, '30'), response).not.toBe('equal');
      expect(verdictOf(response, 'k(k-1)/2'), response).not.toBe('equal');
    }
    // A case of the answer opens on "If" too: it stays.
    expect(verdictOf('For even $m$ we get $0$. If $m$ is odd, we get $1$.', '0')).not.toBe('equal');
  });
});

/** Endings written for this project whose second clause hedges, adds a value, or says where the answer is reached. */
describe('a second clause after the answer', () => {
  it('keeps a value it hedges with or adds, and cuts where the value is reached', () => {
    // Announced with a case and then another, the first value alone was the answer: equal to a reference 6, sure of it.
    for (const response of ['So the answer is $6$ for $m \\ge 3$ and $2$ for $m < 3$.', 'Final answer: $6$ for $m$ even, otherwise $2$']) {
      expect(verdictOf(response, '6'), response).toBe('unsure');
      expect(verdictOf(response, '2'), response).toBe('unsure');
    }
    expect(verdictOf('So the answer is $6$ for $m = 3$.', '6')).toBe('equal');
    // Unannounced, the last case's value was the answer (equal to a reference 2), and a lone case's value was (3).
    expect(verdictOf('Hence the count is $6$ for $m \\ge 3$ and $2$ for $m < 3$.', '2')).toBe('unsure');
    expect(verdictOf('Hence the count is $6$ for $m = 3$.', '6')).toBe('equal');
    expect(verdictOf('Hence the count is $6$ for $m = 3$.', '3')).toBe('different');
    // A bare "for" that ranges a letter of the value belongs to it: read alone, the range was the answer.
    expect(verdictOf('So $y = 2k\\pi$ for $k \\in \\mathbb{Z}$.', '2k\\pi')).not.toBe('different');
    // Cut as an aside, the hedge left 30 alone: equal to a reference 30, sure of it.
    expect(verdictOf('So we obtain $30$; possibly $31$.', '30')).not.toBe('equal');
    expect(verdictOf('So we obtain $30$; possibly $31$.', '31')).not.toBe('equal');
    // Announced, the added value was dropped: equal to a wrong reference 4.
    expect(verdictOf('The answer is $z=4$; moreover $z=6$ is also a solution.', '4')).not.toBe('equal');
    // Read as the last math, the point was the answer: equal to a wrong reference 3.
    expect(verdictOf('The maximum value is $8$ and is attained at $y = 3$.', '8')).toBe('equal');
    expect(verdictOf('The maximum value is $8$ and is attained at $y = 3$.', '3')).toBe('different');
  });
});

/** Sets of reals written for this project as one bound and the points it leaves out, after commas. */
describe('an inequality listed with the points it excludes', () => {
  it('is the set of reals where all of them hold', () => {
    // Read as a list of two answers, the right set was graded different, sure of it.
    expect(gradeAnswer('y > -\\frac52, y \\ne 1', '(-\\frac52, 1) \\cup (1, \\infty)').verdict).toBe('equal');
    expect(gradeAnswer('t \\le 7, t \\neq 0', '(-\\infty, 0) \\cup (0, 7]').verdict).toBe('equal');
    expect(gradeAnswer('t \\le 7, t \\neq 0, t \\ne -2', '(-\\infty,-2)\\cup(-2, 0) \\cup (0, 7]').verdict).toBe('equal');
    // Near misses: another excluded point, an open bound for a closed one, the point not excluded.
    expect(gradeAnswer('y > -\\frac52, y \\ne 2', '(-\\frac52, 1) \\cup (1, \\infty)').verdict).toBe('different');
    expect(gradeAnswer('t < 7, t \\neq 0', '(-\\infty, 0) \\cup (0, 7]').verdict).toBe('different');
    expect(gradeAnswer('y > -\\frac52, y \\ne 1', '(-\\frac52, \\infty)').verdict).toBe('different');
    // Points alone, or two bounds, are read as before.
    expect(gradeAnswer('y \\ne 1, y \\ne 2', 'y \\ne 1').verdict).toBe('different');
  });
});

/** Families written for this project with "for" and a bound on their parameter. */
describe('a bare "for" that bounds the parameter of a family', () => {
  it('ranges the parameter as a comma does', () => {
    // Read as a domain and dropped, the family was 3^j alone: different from "all powers of 3", sure of it.
    expect(gradeAnswer('m = 3^j \\text{ for } j \\geq 0', 'all powers of 3').verdict).toBe('equal');
    expect(gradeAnswer('m = 3^j for j \\ge 1', '3^j, j \\ge 1').verdict).toBe('equal');
    expect(gradeAnswer('3^t \\text{ for } t \\ge 0', 'all powers of 3').verdict).toBe('equal');
    // Near misses: another start, another base.
    expect(gradeAnswer('m = 3^j \\text{ for } j \\geq 1', 'all powers of 3').verdict).toBe('different');
    expect(gradeAnswer('m = 5^j \\text{ for } j \\geq 0', 'all powers of 3').verdict).toBe('different');
    // The argument of a function bounded is its domain, as before.
    expect(gradeAnswer('g(n) = 2n \\text{ for } n \\ge 1', 'g(n) = 2n').verdict).toBe('equal');
  });
});

/** Function answers written for this project that say their constant is arbitrary without "is". */
describe('a constant said to be any real without "is"', () => {
  it('is the constant of the family, as "where c is any real constant" is', () => {
    // The words were read as part of the answer: unsure against the family.
    expect(gradeAnswer('g(t) = kt^2, with k any real constant', 'g(t) = kt^2').verdict).toBe('equal');
    expect(gradeAnswer('g(t) = kt^2, with k being an arbitrary constant', 'g(t) = kt^2').verdict).toBe('equal');
    expect(gradeAnswer('g(t) = kt^2, k an arbitrary real number', 'g(t) = kt^2').verdict).toBe('equal');
    // Near misses: another power, a shift.
    expect(gradeAnswer('g(t) = kt^3, with k any real constant', 'g(t) = kt^2').verdict).toBe('different');
    expect(gradeAnswer('g(t) = kt^2 + 1, with k any real constant', 'g(t) = kt^2').verdict).toBe('different');
  });
});

/** Sets of pairs written for this project by a condition on their letters. */
describe('a set of tuples by a condition on their letters', () => {
  it('is the condition, compared as a relation', () => {
    // Its ":" was read as a ratio and the set as one tuple: the condition was graded different, sure of it.
    expect(gradeAnswer('pq \\ge e^2', '\\{(p,q) : pq \\ge e^2\\}').verdict).toBe('equal');
    expect(gradeAnswer('u < 2v', '\\{(u, v) \\mid u < 2v\\}').verdict).toBe('equal');
    // Near misses: strict for non-strict, another bound, another expression.
    expect(gradeAnswer('pq > e^2', '\\{(p,q) : pq \\ge e^2\\}').verdict).toBe('different');
    expect(gradeAnswer('pq \\ge e^3', '\\{(p,q) : pq \\ge e^2\\}').verdict).toBe('different');
    expect(gradeAnswer('p + q \\ge e^2', '\\{(p,q) : pq \\ge e^2\\}').verdict).toBe('different');
    // A set of listed pairs is read as before.
    expect(gradeAnswer('(1, 2), (3, 4)', '\\{(1,2), (3,4)\\}').verdict).toBe('equal');
  });
});

describe('a set of tuples whose letters are out of alphabetical order', () => {
  it('is not read as the bare relation, whose coordinates are in that order', () => {
    expect(gradeAnswer('u < 2v', '\\{(v, u) \\mid u < 2v\\}').verdict).not.toBe('equal');
  });
});

/** Sets of pairs written for this project that one parameter runs through, against the same set written otherwise. */
describe('a set of tuples that one parameter runs through', () => {
  it('equals the same set by a condition, by a parameter, or as a tuple in one letter', () => {
    // Read as a ratio, one tuple or a value of one letter, each was graded different from the others, sure of it.
    const line = '\\{(u, v) : v = 3u\\}';
    for (const pred of ['\\{(s, 3s) : s \\in \\mathbb{R}\\}', '(w, 3w)', 'v = 3u', '\\{(u, v) \\mid 3u = v\\}']) {
      expect(gradeAnswer(pred, line).verdict, pred).toBe('equal');
    }
    expect(verdictOf('The set is all pairs $(u, 3u)$.', line)).toBe('equal');
    // Near misses: another slope, a sign, a shift: different where both are graphs over the same coordinate.
    for (const pred of ['\\{(s, -3s) : s \\in \\mathbb{R}\\}', '(w, 3w + 1)', 'v = 3u + 1', '(w, 2w)']) {
      expect(gradeAnswer(pred, line).verdict, pred).toBe('different');
    }
    // The same set under another parameter may be: a reader decides.
    expect(gradeAnswer('\\{(2s, 6s) : s \\in \\mathbb{R}\\}', line).verdict).toBe('unsure');
    expect(gradeAnswer('(w, 3w, 0)', line).verdict).toBe('different');
  });
});
