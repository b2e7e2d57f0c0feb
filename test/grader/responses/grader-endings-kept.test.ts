/**
 * Right answers that the rules for a response's ending (a value rejected, a
 * generalisation, a solution added, a conclusion after the box, a value
 * excluded, "for $…$" where a value is reached) must keep: whole endings a
 * reasoning model writes, where the words a rule looks for are about the
 * answer, not against it. Each was graded wrong or unsure by those rules
 * while the grader before them had it right; every case was written for this
 * project, beside a near miss.
 */
import { describe, expect, it } from 'vitest';
import { extractAnswer, gradeAnswer } from '../../../src/grader/index.ts';

/** The verdict a run gives a whole response: its extracted answer, graded with the response as context. */
function verdictOf(response: string, gold: string): string {
  return gradeAnswer(extractAnswer(response), gold, undefined, { response }).verdict;
}

/** Each ending is graded equal to `right` and different from `wrong`. */
function expectKept(endings: readonly string[], right: string, wrong: string): void {
  for (const response of endings) {
    expect(verdictOf(response, right), response).toBe('equal');
    expect(verdictOf(response, wrong), response).toBe('different');
  }
}

describe('a last sentence that speaks of failing, rejecting or discarding', () => {
  it('is the answer when it states the value it counts or leaves', () => {
    // Cut whole as a rejection, the answer was taken from an earlier sentence: different from the right value.
    const endings: Array<[string, string, string]> = [
      ['Squaring gives $x^2 - 2x - 3 = 0$, so $x = 3$ or $x = -1$. We reject $x = 3$ since it is extraneous, leaving $x = -1$.', '-1', '3'],
      ['There are $20$ values in total. After we discard $3$ duplicates, $17$ remain.', '17', '20'],
      ['There are $120$ arrangements and $84$ satisfy the condition. The number of arrangements that violate it is $36$.', '36', '84'],
      ['We test $n = 1, 2, 3, 4$ and they all work. The first $n$ for which the inequality fails is $n = 5$.', '5', '4'],
      ['Of the $2^{10} = 1024$ strings, $144$ are valid. The number of invalid strings is $1024 - 144 = 880$.', '880', '144'],
      // A clause after ", and" that speaks of failing about the answer's own value leaves that value in place.
      ['So the minimum is $4$, and removing any of the $4$ edges fails to disconnect it.', '4', '3'],
    ];
    for (const [response, right, wrong] of endings) expectKept([response], right, wrong);
  });
});

describe('"In general" after small cases', () => {
  it('is the answer that generalises them, and an aside after one value', () => {
    // Cut as an aside, the small cases were the answer: different from the right formula, sure of it.
    const endings = [
      'We compute $a_1 = 1$, $a_2 = 3$, $a_3 = 7$. In general, $a_n = 2^n - 1$.',
      'We compute $a_1 = 1$, $a_2 = 3$, $a_3 = 7$.\n\nIn general, $a_n = 2^n - 1$ for every $n \\ge 1$.',
      'For $n = 3$ there are $7$ sequences. More generally, the count is $2^n - 1$.',
    ];
    expectKept(endings, '2^n - 1', '7');
    expect(verdictOf('So there are $7$ sequences. In general the count is $2^n - 1$.', '7')).toBe('equal');
  });
});

describe('a last sentence that substitutes a value', () => {
  it('is the answer when it states a new value, and a check otherwise', () => {
    // Cut as a check, the value substituted was graded: different from the right 5, sure of it.
    const steps = [
      'We found $x = 2$. Substituting $x = 2$ into the second equation gives $y = 5$.',
      'From the first equation $x = 2$. Plugging in, $y = 2x + 1 = 5$.',
    ];
    expectKept(steps, '5', '2');
    expectKept(['Solving gives $y = 5$. Plugging $y = 5$ back in, $2y - 3 = 7$ holds.'], '5', '7');
  });
});

describe('"If … would" that sets the answer\'s own case', () => {
  it('is the answer, and a counterfactual in words stays an aside', () => {
    // Cut as a counterfactual, the equality case's value was lost: different from the right 3, sure of it.
    const endings = [
      'Equality holds when $a = b = c$. If $a = b = c = 1$, the expression would be $3$, so the minimum is $3$.',
      'The bound is $f \\ge 3$ with equality at $a = 1$. If we take $a = 1$, we would get exactly $3$.',
    ];
    expectKept(endings, '3', '1');
    expect(verdictOf('There are $3$ ways. If the board were $4 \\times 4$, the count would be $9$.', '3')).toBe('equal');
  });
});

describe('a sentence after the box that speaks of the answer', () => {
  it('leaves the box as it was', () => {
    // Read as adding a solution or concluding another value, each right box was graded unsure.
    const endings: Array<[string, string]> = [
      ['Therefore the answer is $\\boxed{3}$. We can check that $n = 3$ also satisfies the original congruence.', '3'],
      ['Therefore the answer is $\\boxed{6}$. This is also the number of roots of $p(x) = x^6 - 1$.', '6'],
      ['Hence the minimum value is $\\boxed{0}$. Moreover, the solution $x = y = z = 1$ attains it.', '0'],
      ['So $\\boxed{f(x) = x}$. It is easy to check that $f(x) = x$ also satisfies the equation.', 'f(x) = x'],
      ['The minimum is $\\boxed{5}$. Thus the minimum is attained at $x = 2$.', '5'],
      ['Hence $\\boxed{\\frac{1}{2}}$. Therefore, each of the $2$ players wins with equal chance.', '\\frac{1}{2}'],
      ['The number of nontrivial solutions is $\\boxed{12}$ (excluding the trivial solution $x = 0$).', '12'],
      ['The minimum is $\\boxed{5}$. Hence $f(x) \\ge 5$ for all $x$.', '5'],
      ['The answer is $\\boxed{5}$. Therefore $n \\ne 4$.', '5'],
      ['The answer is $\\boxed{7}$.\n\nThus for $n = 7$ the construction works, and it fails for every smaller $n$.', '7'],
      ['The answer is $\\boxed{7}$.\n\nTherefore, the minimum value $7$ is attained when $x = y = 1$.', '7'],
      ['Therefore the answer is $\\boxed{7}$.\n\n**Verification:** Plugging in $n = 7$: $7^2 = 49 \\equiv 1 \\pmod{8}$, which also satisfies the second condition.', '7'],
    ];
    for (const [response, right] of endings) expect(verdictOf(response, right), response).toBe('equal');
    // A sentence that does add a solution, or concludes another value, still leaves it to a reader.
    expect(verdictOf('The answer is $\\boxed{3}$. It is also true that $x = 5$ is a root.', '3')).toBe('unsure');
    expect(verdictOf('Hence $\\boxed{5}$. So there are $6$ paths in total.', '5')).toBe('unsure');
    expect(verdictOf('Hence $\\boxed{5}$. So the count is $6$ for $n = 4$.', '5')).toBe('unsure');
    expect(verdictOf('Hence $\\boxed{5}$. So with $n = 4$ there are $6$ paths.', '5')).toBe('unsure');
  });
});

describe('"for $…$" or "since" after a value and a joining word', () => {
  it('is where the answer holds or why the next value follows, not a remark on the value before', () => {
    // Cut as a remark at "for", the first value alone was graded equal to a wrong reference 2, sure of it.
    const response = 'The equation holds not only for $x = 2$ but also for $x = 3$.';
    expect(verdictOf(response, '2')).not.toBe('equal');
    expect(verdictOf('It holds for $x = 2$ and for $x = 3$.', '2')).not.toBe('equal');
    expect(verdictOf('Hence the count is $4$ for $n = 3$.', '4')).toBe('equal');
    // Cut at "since", the value before it was the answer: equal to a wrong reference 2, sure of it.
    expect(verdictOf('We get $x = 2$, and since $x > 0$, $y = 4$.', '2')).not.toBe('equal');
    expect(verdictOf('Solving gives $z = 7$ because $4 \\cdot 7 = 28$.', '7')).toBe('equal');
  });
});

describe('a sentence after the answer that gives examples or larger values that also work', () => {
  it('adds no solution to a yes or a no, nor to a least or greatest value', () => {
    // Read as adding a solution, each right answer was graded unsure.
    const endings: Array<[string, string]> = [
      ['**Final Answer**\n\\[\n\\boxed{\\text{Yes}}\n\\]\n\nFor instance, $n = 6$ works, and $n = 10$ works as well.', '\\text{Yes}'],
      ['The answer is $\\boxed{\\text{No}}$. Another example that works is $n = 10$.', '\\text{No}'],
      ['**Answer:** Yes. The pair $(2, 3)$ works, and $(3, 5)$ is another solution.', '\\text{Yes}'],
      ['The smallest such $n$ is $\\boxed{6}$. Larger values such as $n = 12$ also work, but we want the smallest.', '6'],
      ['The answer is $\\boxed{6}$. Of course $n = 12$ also works, but $6$ is the least.', '6'],
    ];
    for (const [response, right] of endings) expect(verdictOf(response, right), response).toBe('equal');
    expect(verdictOf('The answer is $\\boxed{\\text{No}}$. Another example that works is $n = 10$.', '\\text{Yes}')).toBe('different');
    // A value added to a value, without setting it below or above the answer, still leaves it to a reader.
    expect(verdictOf('The answer is $\\boxed{6}$. Also $n = 12$ works.', '6')).toBe('unsure');
    expect(verdictOf('The answer is $\\boxed{1}$. Another root is $x = 5$, the larger one.', '1')).toBe('unsure');
  });
});

describe('words after the answer that name no value of their own', () => {
  it('leave the answer: an exclusion said in words, a letter the answer ranges', () => {
    // Kept as part of the answer, the count it excludes (2) was graded as the answer: different from the right 10.
    expect(verdictOf('The count is $10$ (excluding the $2$ degenerate cases).', '10')).toBe('equal');
    expect(verdictOf('The count is $10$ (excluding the $2$ degenerate cases).', '2')).toBe('different');
    expect(verdictOf('So $1 \\le k \\le 20$ (excluding $k = 11$).', '11')).not.toBe('equal');
    // Read as adding the solution $c$, the right family was graded different, or unsure after its box.
    expect(verdictOf('Hence $\\boxed{f(x) = cx}$. These also satisfy the original equation for every $c$.', 'f(x) = cx')).toBe('equal');
    expect(verdictOf('Hence all solutions are $f(x) = cx$. These also satisfy the original equation for every $c$.', 'f(x) = cx')).not.toBe('different');
    expect(verdictOf('So $x = 1$. Also $x = 2$ works for every $c$.', '1')).not.toBe('equal');
  });
});

describe('a check that says "this also works" of the answer', () => {
  it('adds no solution: its arithmetic is no other answer', () => {
    // Read as adding 4 (and 21) as solutions: "4, 7", different from the right 7, or unsure after the box.
    const check = 'Check: $7 \\cdot 3 = 21$, which is not divisible by $4$, so this also works.';
    for (const body of ['Hence $n = 7$.', 'So the smallest such $n$ is $7$.', 'Therefore $\\boxed{7}$.', 'Thus the answer is $n = 7$.\n\n']) {
      expect(verdictOf(`We analyse the residues modulo $8$. ${body} ${check}`, '7'), body).toBe('equal');
      expect(verdictOf(`We analyse the residues modulo $8$. ${body} ${check}`, '4'), body).toBe('different');
    }
    // A value under a letter that "it also" solves for is still another answer.
    expect(verdictOf('So $x = 1$. It also works for $x = 2$.', '1')).not.toBe('equal');
  });
});

describe('a conclusion after the box about its value or a letter', () => {
  it('is no second answer', () => {
    // Read as concluding another answer (the 0 of a_0, or the equation 4 = 2^2), each right box was graded unsure.
    for (const after of ['Thus the answer does not depend on the starting position $a_0$.', 'Thus, because $4 = 2^2$, the answer is a perfect square.']) {
      for (const head of ['The minimum number of moves is $\\boxed{4}$.', '**Final Answer**\n\\[\n\\boxed{4}\n\\]']) {
        expect(verdictOf(`${head}\n\n${after}`, '4'), after).toBe('equal');
        expect(verdictOf(`${head}\n\n${after}`, '3'), after).toBe('different');
      }
    }
    expect(verdictOf('The minimum number of moves is $\\boxed{4}$.\n\nThus $a_0 = 5$.', '4')).toBe('unsure');
  });
});

describe('an exclusion followed by its reason', () => {
  it('sets the excluded value against the answer, as without the reason', () => {
    // Read as words after the exclusion, the whole sentence was the answer: different from the right 4, sure of it.
    for (const response of ['The answer is $n = 4$, excluding $n = 5$ which is extraneous.', 'So $n = 4$, excluding $n = 5$, since it is too large.']) {
      expect(verdictOf(response, '4'), response).toBe('equal');
      expect(verdictOf(response, '5'), response).toBe('different');
    }
  });
});

describe('a sentence that checks the unannounced answer before it', () => {
  it('adds nothing to it', () => {
    // Joined to the answer as an added solution, its arithmetic made the right function different, sure of it.
    const response = 'Therefore $f(x) = 2x$. Conversely, $f(x) = 2x$ also satisfies the equation, since $2(x+y) = 2x + 2y$.';
    expect(verdictOf(response, 'f(x) = 2x')).toBe('equal');
    expect(verdictOf(response, 'f(x) = x')).toBe('different');
    expect(verdictOf('So $x = 1$. Also $x = 2$ works.', '1, 2')).toBe('equal');
  });
});
