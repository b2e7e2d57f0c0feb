/**
 * How a reply closes, read as a reader reads it: cases whose conditions come
 * first, over one sentence or two; a closing list; a count and its list; a
 * word of doubt; and a family whose parameter the reply names its own way. Each rule is shown with its near misses
 * (another value, the cases swapped) and with innocent uses of its trigger
 * words ("if", "for", "when", "otherwise") that must leave the answer as it
 * was. Every case was written for this project.
 */
import { describe, expect, it } from 'vitest';
import { askedAnswer, extractAnswer, gradeAnswer, type Verdict } from '../../../src/grader/index.ts';
import { verdictOf, verdictOfReply } from '../grader-verdicts.ts';

/** The verdict a run gives a reply to `question`. */
function verdictAsked(response: string, gold: string, question: string): Verdict {
  return gradeAnswer(extractAnswer(response), gold, undefined, { response, question }).verdict;
}

/** Grades one reply against each reference, expecting its verdict. */
function expectVerdicts(response: string, verdicts: Readonly<Record<string, Verdict>>): void {
  for (const [gold, verdict] of Object.entries(verdicts)) expect(verdictOfReply(response, gold), `${response} against ${gold}`).toBe(verdict);
}

const PARITY = String.raw`0 \text{ if } n \text{ even}, 1 \text{ if } n \text{ odd}`;
const PARITY_SWAPPED = String.raw`1 \text{ if } n \text{ even}, 0 \text{ if } n \text{ odd}`;

describe('cases whose conditions come before their values', () => {
  const endings = [
    'We split on parity.\n\nIf $n$ is even, the answer is $0$. If $n$ is odd, the answer is $1$.',
    'We split on parity.\n\nIf $n$ is even, the answer is $0$; if $n$ is odd, it is $1$.',
    'We split on parity.\n\nWhen $n$ is even the count is $0$, and when $n$ is odd it is $1$.',
    'We split on parity.\n\nFor even $n$ the count is $0$. For odd $n$ the count is $1$.',
    'We split on parity.\n\nIf $n$ is even, there are $0$ ways. Otherwise, there is $1$ way.',
    'So:\n- If $n$ is even: $0$\n- If $n$ is odd: $1$',
    'So:\n- **If $n$ is even**, the answer is $0$.\n- **If $n$ is odd**, the answer is $1$.',
  ];

  it('are the answer by cases, never the last case alone', () => {
    // Read as its last math, the last case's value was the answer: a reference 1 was graded equal, sure of it.
    for (const response of endings) expectVerdicts(response, { [PARITY]: 'equal', [PARITY_SWAPPED]: 'different', 1: 'unsure', 0: 'unsure' });
  });

  it('are checks of the answer before them where each names one value of a letter', () => {
    // Read as the last case, 36 (or 21 with a semicolon) was the answer, graded equal to that reference, sure of it.
    for (const response of [
      'Thus $n = 7$.\n\nIf $n = 6$, the sum is $21$; if $n = 8$, the sum is $36$.',
      'Thus $n = 7$.\n\nFor $n = 6$ the sum is $21$. For $n = 8$ the sum is $36$.',
      'The maximum is $n+1$. For $n = 2$ it is $3$, and for $n = 3$ it is $4$.',
    ]) {
      expectVerdicts(response, { 21: 'different', 36: 'different', 4: 'different' });
    }
    expectVerdicts('Thus $n = 7$.\n\nFor $n = 6$ the sum is $21$. For $n = 8$ the sum is $36$.', { 7: 'equal' });
    expectVerdicts('The maximum is $n+1$. For $n = 2$ it is $3$, and for $n = 3$ it is $4$.', { 'n+1': 'equal', 'n+2': 'different' });
    // "For $b$ we get $3$": a letter names what a sentence is about, no condition.
    expectVerdicts('So $a = 2$. For $b$ we get $3$. For $c$ we get $4$.', { 4: 'equal', 3: 'different' });
  });

  it('that agree give their one value, boxed or not', () => {
    expectVerdicts('If $n$ is even, we get $\\boxed{4}$. If $n$ is odd, we also get $4$.', { 4: 'equal', 5: 'different' });
    expectVerdicts('So.\n\nIf $n$ is even, the answer is $4$. If $n$ is odd, the answer is also $4$.', { 4: 'equal', 5: 'different' });
    expectVerdicts('So.\n\nIf $n$ is even, the answer is $4$. If $n$ is odd, the answer is $5$.', { 4: 'unsure', 5: 'unsure' });
  });

  it('leave steps of one argument that open on conditions to their last value', () => {
    // Read as cases, each right last value was graded unsure (main before them read it, equal).
    const steps: Array<[string, string, string]> = [
      // A condition that restates the value before it: a chain, not two cases.
      ["We maximize the area.\n\nIf $A'(t) = 0$, then $t = 2$. When $t = 2$, the area is $8$.", '8', '2'],
      ['If $x = 2$, then $y = 3$. When $y = 3$, we get $z = 5$.', '5', '3'],
      // The same condition twice, and a condition that quantifies.
      ['Let me verify. If $k = 3$, then $4k = 12$. For $k = 3$ the constraint $k^2 < 10$ holds, so the answer is $12$.', '12', '3'],
      ['For each $k$, the sum of the first $k$ terms is $k(k+1)/2$. When $k = 3$, this equals $6$.', '6', '3'],
      // A value that solves for the letter the conditions are about.
      ['If $x \\neq 5$, then $f(x) \\neq 0$. Otherwise, $f(x) = 0$, so the root is $x = 5$.', '5', '0'],
      ['If $a + b = 10$ and $ab = 21$, then $a$ and $b$ are $3$ and $7$. For $a > b$, we get $a = \\boxed{7}$.', '7', '3'],
      // Cases whose values agree once their left sides are set aside.
      ['If we plug in $x = 1$, we get $f(1) = 4$. If we plug in $x = -1$, we get $f(-1) = 4$ as well.', '4', '5'],
    ];
    for (const [response, right, wrong] of steps) expectVerdicts(response, { [right]: 'equal', [wrong]: 'different' });
  });

  it('read a condition whose mathematics holds a comma whole', () => {
    const response = 'If $n \\in \\{1, 2\\}$, the answer is $3$. If $n \\ge 3$, the answer is $2$.';
    expectVerdicts(response, { 2: 'unsure', 3: 'unsure' });
  });

  it('leave an answer alone where "if", "for" or "when" opens one sentence only, or a sentence that states no value', () => {
    const innocent: Array<[string, string, string]> = [
      ['We try $n = 3$. If $n$ is odd, the sum is even.\n\nHence the answer is $5$.', '5', '4'],
      ['Hence the answer is $n = 5$. If $n$ were larger, the sum would exceed $100$.', '5', '100'],
      ['Thus the answer is $7$. If in doubt, one can check it: for $n = 7$ it is $49$.', '7', '49'],
      ['If $n = 1$, it is trivial. For all $n \\ge 2$, the value is $3$.', '3', '1'],
      ['If $n$ is even, we get $4$. If $n$ is odd, we also get $4$. In both cases the answer is $4$.', '4', '0'],
      ['So the answer is $0$ if $n$ is even and $1$ if $n$ is odd.', PARITY, PARITY_SWAPPED],
    ];
    for (const [response, right, wrong] of innocent) expectVerdicts(response, { [right]: 'equal', [wrong]: 'different' });
  });
});

describe('a reply that closes on a list', () => {
  it('answers with every value its list gives, never the last item alone', () => {
    // Read as its last math, the last item was the answer: a reference 5 was graded equal, sure of it.
    const endings = [
      'Checking small cases.\n\nThe solutions are:\n- $n = 1$\n- $n = 2$\n- $n = 5$',
      'Checking small cases.\n\nSummary of solutions:\n1. $n=1$\n2. $n=2$\n3. $n=5$\n',
      'Thus the solutions are\n\n* $1$\n\n* $2$\n\n* $5$.',
    ];
    for (const response of endings) expectVerdicts(response, { '1, 2, 5': 'equal', 5: 'different', '1, 2': 'different', '1, 2, 5, 7': 'different' });
    expectVerdicts('The pairs are:\n- $(1, 2)$\n- $(3, 4)$.', { '(1, 2), (3, 4)': 'equal', '(3, 4)': 'different' });
  });

  it('reads a summary of labelled lines as a restatement of the answer before it', () => {
    const summary = 'The minimum number of moves is $4$.\n\n- Number of moves: $4$\n- Parity argument: excludes $3$\n- Construction: explicit';
    expectVerdicts(summary, { 4: 'equal', 3: 'different' });
    const headed = 'Thus $p = 17$.\n\n**Summary:**\n- smallest prime: $17$\n- next: $257$';
    expectVerdicts(headed, { 17: 'equal', 257: 'different' });
  });

  it('keeps a remark in parentheses out of a value, and leaves values each with its verdict to a reader', () => {
    expectVerdicts('The valid values are:\n\n1. $n=1$ (trivial)\n2. $n=2$\n3. $n=5$', { '1, 2, 5': 'equal', 5: 'different' });
    // Read as its last item, "$n = 5$ works" was graded equal to a reference 5, sure of it.
    expectVerdicts('We found:\n- $n = 1$ fails\n- $n = 5$ works', { 5: 'unsure', 1: 'unsure' });
  });

  it('reads a last item that sums up the others as the answer, and checks after an answer as checks', () => {
    // Read as a summary with nothing before it, or as values each with a remark, the right 12 was graded unsure.
    expectVerdicts('Adding up the cases:\n- Case A: $5$\n- Case B: $7$\n- Total: $12$', { 12: 'equal', 7: 'different' });
    expectVerdicts('Adding up:\n- $5$ from case A\n- $7$ from case B\n- $12$ in total', { 12: 'equal', 7: 'different' });
    // Lines labelled by a value checked: the answer before them stands (read as the list, 5 was graded different).
    expectVerdicts('Therefore the smallest such $n$ is $5$.\n\n- $n = 1$: $2$, no\n- $n = 5$: $26$, yes', { 5: 'equal', 26: 'different' });
  });

  it('leaves a list of steps in sentences to its own conclusion, and an announced list as it was', () => {
    const steps = 'We proceed.\n\n1. First, $a = 2$.\n2. Then $b = a + 3$.\n3. Hence $b = 5$.';
    expectVerdicts(steps, { 5: 'equal', 2: 'different' });
    const announced = 'The answer is:\n- $n = 1$\n- $n = 2$';
    expectVerdicts(announced, { '1, 2': 'equal', 2: 'different' });
  });
});

describe('a count followed by the things it counts', () => {
  const HOW_MANY = 'How many positive integers $n$ satisfy the condition?';
  const WHICH = 'Find all positive integers $n$ such that $n^2 + 4$ divides $n^5 + 8$.';
  const endings = [
    'We check.\n\nThere are $3$ such $n$: $1, 2, 5$.',
    'We check.\n\nHence there are $3$ such $n$: $n = 1, 2, 5$.',
    'So there are exactly $3$ values, namely $n=1$, $n=2$ and $n=5$.',
    'Therefore there are three such integers: $1$, $2$, and $5$.',
  ];

  it('answers the count where the question asks how many, the list where it asks which', () => {
    // Read as the list alone, the right count was graded different, sure of it.
    for (const response of endings) {
      expect(verdictAsked(response, '3', HOW_MANY), response).toBe('equal');
      expect(verdictAsked(response, '4', HOW_MANY), response).toBe('different');
      expect(verdictAsked(response, '1, 2, 5', HOW_MANY), response).toBe('different');
      expect(verdictAsked(response, '1, 2, 5', WHICH), response).toBe('equal');
      expect(verdictAsked(response, '3', WHICH), response).toBe('different');
      // Without a question, which was asked a reader decides.
      expectVerdicts(response, { 3: 'unsure', 4: 'different', '1, 2, 5': 'equal', '1, 2': 'different' });
    }
  });

  it('shows and votes on what it grades: the count under "how many", the list under "which"', () => {
    // results.jsonl's answer and the majority vote read askedAnswer; shown as the list, a right count looked wrong.
    const response = endings[0] as string;
    const extracted = extractAnswer(response);
    expect(askedAnswer(extracted, { question: HOW_MANY, response })).toBe('3');
    expect(askedAnswer(extracted, { question: WHICH, response })).toBe(extracted);
    // The grade gives the reading it compared, so that a result line takes it from the grade, not from a second reading.
    expect(gradeAnswer(extracted, '3', undefined, { question: HOW_MANY, response }).answer).toBe('3');
    expect(gradeAnswer(extracted, '3', undefined, { question: WHICH, response }).answer).toBe(extracted);
    expect(gradeAnswer(null, '3', undefined, { question: HOW_MANY, response }).answer).toBeNull();
  });

  it('leaves alone a sentence whose count is of cases or of remarks', () => {
    expect(verdictAsked('There are $2$ cases: $n$ odd and $n$ even. In both the answer is $5$.', '2', 'How many?')).toBe('different');
    const remark = 'The answer is $3$. There is one subtlety: $n = 0$.';
    expect(verdictAsked(remark, '3', 'How many solutions?')).toBe('equal');
    expect(verdictAsked(remark, '1', 'How many solutions?')).toBe('different');
  });
});

describe('an answer given with a word of doubt', () => {
  it('is its value: a hedge doubts the claim, it gives no other value', () => {
    // Before, "probably $4$" was a text graded different from a right 4, and ", but I'm not sure" took the answer back.
    const hedged = [
      'Hard.\n\nThe answer is probably $4$.',
      'Hard.\n\nI think the answer is $4$, but I\'m not sure.',
      'Hard.\n\nThe answer is most likely $4$, but I could be wrong.',
      'Final answer: probably 4',
      'The answer is $4$, but I am not sure the bound is attained.',
    ];
    for (const response of hedged) expectVerdicts(response, { 4: 'equal', 5: 'different', '-4': 'different' });
  });

  it('keeps a negation, a value taken back, a supposed answer and an alternative', () => {
    // "probably not $4$" was read as 4, graded equal to a reference 4.
    expectVerdicts('Hard.\n\nThe answer is probably not $4$.', { 4: 'different' });
    expectVerdicts('The answer is $4$, but that misses a case: it is $5$.', { 4: 'different' });
    expectVerdicts('One might think the answer is $4$, but I\'m not sure.', { 4: 'different' });
    expectVerdicts('The answer is probably $4$, or maybe $5$.', { 4: 'different', 5: 'different' });
    expectVerdicts('The answer is clearly $4$.', { 4: 'equal', 3: 'different' });
  });

  it('takes the answer back where the doubt goes on to name another value', () => {
    // Kept as the answer, 4 was graded equal, sure of it ("…; it could be $3$"); or, cut at its semicolon, "but I could
    // be wrong" named no value, and 4 was graded equal too. Main before the hedge rule read no answer in either.
    for (const response of ["The answer is $4$, but I'm not sure it is minimal; it could be $3$.", 'The answer is $4$, but I could be wrong; it might be $5$.']) {
      expect(verdictOfReply(response, '4'), response).not.toBe('equal');
    }
  });
});

describe('a family of tuples whose parameter is renamed', () => {
  it('is the same family, and a near miss in any coordinate is not', () => {
    // Compared as tuples, t and s differed: a right family was graded different, sure of it.
    const renamed: Array<[string, string]> = [
      ['(t, 2t)', '(s, 2s)'],
      ['(a, a, a)', '(t, t, t)'],
      ['(k, k+1)', '(n, n+1)'],
      ['(t, 2t), (t, -2t)', '(s, -2s), (s, 2s)'],
    ];
    for (const [gold, pred] of renamed) {
      expect(verdictOf(pred, gold), `${pred} against ${gold}`).toBe('equal');
    }
    const nearMisses: Array<[string, string]> = [
      ['(t, 2t)', '(s, 3s)'],
      ['(t, 2t)', '(s, 2s+1)'],
      ['(a, a, a)', '(t, t, 2t)'],
      ['(k, k+1)', '(n, n-1)'],
      ['(t, 2t), (t, -2t)', '(s, 2s)'],
      ['(t, 2t), (t, -2t)', '(s, 2s), (s, -2s), (0, 1)'],
      ['(t, 2t)', '(2, 4)'],
    ];
    for (const [gold, pred] of nearMisses) {
      expect(verdictOf(pred, gold), `${pred} against ${gold}`).not.toBe('equal');
    }
    expectVerdicts('Hence all solutions are the triples $(t, t, t)$.', { '(a, a, a)': 'equal', '(a, a, 2a)': 'different' });
  });
  it('is no renaming where the question gives the letter as a constant of its problem', () => {
    // The question's b is not a parameter: "(b, 2b)" was graded equal to "(a, 2a)", sure of it.
    const given = 'Let $a$ and $b$ be distinct positive reals with $b = 2a$. Find the vertex of $y = (x-a)^2 + 2a$.';
    expect(verdictAsked('The vertex is $(b, 2b)$.', '(a, 2a)', given)).not.toBe('equal');
    expect(verdictAsked('The vertex is $(a, 2a)$.', '(a, 2a)', given)).toBe('equal');
    const side = 'A square has side $s$. Find all pairs $(x, y)$ on its diagonals through the origin.';
    expect(verdictAsked('They are $(s, 2s), (s, -2s)$.', '(t, 2t), (t, -2t)', side)).not.toBe('equal');
    expect(verdictAsked('All pairs $(s, 2s)$.', '(t, 2t)', 'Find all pairs $(x, y)$ of reals with $y = 2x$.')).toBe('equal');
  });
});

describe('letters side by side in the last mathematics', () => {
  it('are a product, not words to reduce to a number', () => {
    // "$ax^2+bx$" was read as the prose "ax", "bx" and reduced to its last number, 2: a right answer graded different.
    expectVerdicts('So all solutions are $f(x)=ax^2+bx$.', { 'f(x) = ax^2 + bx': 'equal', 'f(x) = ax^2 - bx': 'different', 2: 'different' });
    expectVerdicts('The solution is $ax^2+bx$.', { 'ax^2 + bx': 'equal', 'ax^2 + b': 'different', 2: 'different' });
    expectVerdicts('The area of the region is $2xy + 3yz$.', { '2xy + 3yz': 'equal', 3: 'different' });
  });

  it('still reduces words written inside the mathematics to the value they state', () => {
    expectVerdicts('We add them up: $\\text{the total is } 12$.', { 12: 'equal', 13: 'different' });
  });
});

describe('a proviso or an exception after the value', () => {
  it('belongs to the answer: its own mathematics is never the answer', () => {
    // Read alone, the proviso's n = 1 (or y = 3) was the answer, graded equal to a reference 1 (or 3), sure of it.
    expectVerdicts('So the count is $2$ unless $n = 1$.', { 1: 'unsure', 2: 'unsure' });
    expectVerdicts('So the count is $2$, unless $n = 1$, in which case it is $1$.', { 1: 'unsure' });
    expectVerdicts('The answer is $2$, unless $n = 1$, in which case it is $1$.', { 1: 'unsure', 2: 'unsure' });
    expectVerdicts('Thus $x = 5$ whenever $y = 3$.', { 3: 'unsure' });
    expectVerdicts('Thus $n = 2$, unless $m = 0$, in which case $n = 1$.', { 0: 'unsure' });
    expectVerdicts('Hence the maximum is $10$ and it occurs only if $a = 3$.', { 10: 'equal', 3: 'different' });
  });

  it('is as unsure where the proviso is an inequality as where it is an equation', () => {
    // Read as the relation "3 as long as n" ≠ 0, a right 3 was graded different, sure of it (9479306: equal).
    expectVerdicts('The answer is $3$ as long as $n \\neq 0$.', { 3: 'unsure' });
    expectVerdicts('So the limit is $0$ as long as $|r| < 1$.', { 0: 'unsure' });
    expectVerdicts('The sum is $6$ provided $n \\geq 1$.', { 6: 'unsure' });
    expect(verdictOf('6 whenever n > 1', '6')).toBe('unsure');
  });

  it('reads "if and only if" after an equation as what solves it', () => {
    // Read as a proviso, the right 3 (or 2) was graded unsure; a value before "only if" keeps its proviso.
    expectVerdicts('We have $f(x) = 0$ if and only if $x = 3$.', { 3: 'equal', 0: 'different' });
    expectVerdicts('Thus $n^2 - 4n + 3 < 0$ only if $n = 2$.', { 2: 'equal', 3: 'different' });
    expectVerdicts('Hence the maximum is $10$ only if $a = 3$.', { 3: 'unsure' });
  });

  it('leaves where a value is reached, and a chain of equalities, as they were', () => {
    expectVerdicts('Hence the maximum is $10$, achieved when $a = 3$.', { 10: 'equal', 3: 'different' });
    expectVerdicts('So the total is $x = \\frac{6}{2} = 3$.', { 3: 'equal', 2: 'different' });
    expect(verdictOf('a = b = 3', '3')).toBe('equal');
    // Words between two equalities make a sentence, not a chain whose last side is the value.
    expect(verdictOf('x = 5 whenever y = 3', '3')).toBe('unsure');
  });
});
