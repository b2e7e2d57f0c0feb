import { describe, expect, test } from 'vitest';
import { createMetricsCollector } from '../../../src/observers/metrics-collector.ts';
import { scoreIteration } from '../../../src/observers/metrics.ts';
import { majorityOverDraws } from '../../../src/observers/majority-draws.ts';
import { createProblemTable, runTotals } from '../../../src/observers/metrics-run.ts';
import type { CandidateResult, Envelope, Message } from '../../../src/kernel/protocol.ts';

/** A candidate with an answer, a rule-based grade, an optional judge and a score. */
function candidate(index: number, answer: string | null, correct: boolean | null, options: { verdicts?: Array<boolean | null>; score?: number | null } = {}): CandidateResult {
  const verdicts = options.verdicts;
  const parsed = verdicts?.filter((v): v is boolean => v !== null) ?? [];
  return {
    candidate: index,
    source: 'normal',
    answer,
    verificationScores: [],
    summary: '',
    summaryScore: options.score === undefined ? 0.5 : options.score,
    correct,
    judge: verdicts ? { verdicts } : null,
    correctJudge: verdicts ? (parsed.length === 0 ? null : parsed.filter(Boolean).length / parsed.length) : null,
    failures: [],
  };
}

let seq = 0;
function envelope(message: Message, at = seq * 10): Envelope {
  seq++;
  return { seq, at, from: 'log', to: 'log', message };
}

function completed(problem: string, iteration: number, candidates: CandidateResult[], at?: number): Envelope {
  return envelope({ type: 'iteration.completed', run: 'r', problem, iteration, correlation: `${problem}/${iteration}/iteration/0`, candidates }, at);
}

/** Majority answer right (two of three say "4") or wrong (two of three say "5"). */
function iterationWith(right: boolean): CandidateResult[] {
  return right
    ? [candidate(0, '4', true), candidate(1, '4', true), candidate(2, '5', false)]
    : [candidate(0, '5', false), candidate(1, '5', false), candidate(2, '4', true)];
}

describe('metrics on hand-built results with known answers', () => {
  test('Pass@1, majority, best-verified and pass@N of one iteration', () => {
    const figures = scoreIteration([candidate(0, '4', true, { score: 0.2 }), candidate(1, '5', false, { score: 0.9 }), candidate(2, '5', false, { score: 0.1 })]);
    expect(figures.pass1).toBeCloseTo(1 / 3);
    expect(figures.majority).toBe(false);
    expect(figures.bestVerified).toBe(false);
    expect(figures.oracle).toBe(true);
    expect(figures.answer).toBe('5');
  });

  test('the figures of an iteration do not depend on the order its problems finished in (a resumed run logs them in another)', () => {
    // Pass@1 of 1/3, 2/3, 2/3, 2/3: summed in these two orders, the float means differ in their last bit.
    const right = (n: number, score: number) => [0, 1, 2].map((i) => candidate(i, i < n ? '4' : '5', i < n, { score: score + i / 3 }));
    const problems: Array<[string, CandidateResult[]]> = [['p1', right(1, 0.1)], ['p2', right(2, 0.7)], ['p3', right(2, 0.3)], ['p4', right(2, 0.9)]];
    const figures = (order: Array<[string, CandidateResult[]]>) => {
      const metrics = createMetricsCollector();
      for (const [problem, candidates] of order) metrics.observe(completed(problem, 0, candidates, 0));
      const [it] = metrics.iterations();
      return JSON.stringify({ pass1: it?.pass1, pass1Rule: it?.pass1Rule, meanScore: it?.meanScore });
    };
    expect(figures([...problems].reverse())).toBe(figures(problems));
  });

  test('flips count right→wrong and wrong→right of the majority answer between consecutive iterations of a problem', () => {
    const metrics = createMetricsCollector();
    // p1: right, wrong, right, right → one right→wrong at 1, one wrong→right at 2.
    // p2: wrong, wrong, right, wrong → one wrong→right at 2, one right→wrong at 3.
    const p1 = [true, false, true, true];
    const p2 = [false, false, true, false];
    for (let t = 0; t < 4; t++) {
      metrics.observe(completed('p1', t, iterationWith(p1[t] ?? false)));
      metrics.observe(completed('p2', t, iterationWith(p2[t] ?? false)));
    }
    const flips = metrics.iterations().map((it) => it.flips.majority);
    expect(flips).toEqual([
      { rightToWrong: 0, wrongToRight: 0 },
      { rightToWrong: 1, wrongToRight: 0 },
      { rightToWrong: 0, wrongToRight: 2 },
      { rightToWrong: 1, wrongToRight: 0 },
    ]);
    expect(runTotals(metrics.iterations()).flips.majority).toEqual({ rightToWrong: 2, wrongToRight: 2 });

    const table = createProblemTable();
    for (let t = 0; t < 4; t++) table.add({ problem: 'p1', iteration: t, candidates: iterationWith(p1[t] ?? false) });
    expect(table.rows()[0]?.flips).toEqual({ rightToWrong: 1, wrongToRight: 1 });
  });

  test('with a judge, Pass@1 is the mean over candidates × passes and disagreements with the rule are counted', () => {
    const candidates = [
      // Rule: right; judge: 2 of 2 → agrees.
      candidate(0, '4', true, { verdicts: [true, true] }),
      // Rule: right; judge: 0 of 2 → disagrees.
      candidate(1, '2+2', true, { verdicts: [false, false] }),
      // Rule: wrong; judge: 2 of 2 → disagrees.
      candidate(2, '5', false, { verdicts: [true, true] }),
      // Rule: wrong; judge: 0 of 2 → agrees.
      candidate(3, '6', false, { verdicts: [false, false] }),
      // Rule: wrong; judge: 1 of 2, a tie, is not "equivalent" → agrees.
      candidate(4, '7', false, { verdicts: [true, false] }),
    ];
    const figures = scoreIteration(candidates);
    expect(figures.pass1Judge).toBeCloseTo(5 / 10);
    expect(figures.pass1).toBeCloseTo(5 / 10);
    expect(figures.pass1Rule).toBeCloseTo(2 / 5);
    expect(figures.judged).toBe(5);
    expect(figures.disagreements).toBe(2);

    const metrics = createMetricsCollector();
    metrics.observe(completed('p1', 0, candidates));
    metrics.observe(completed('p2', 0, [candidate(0, '4', true, { verdicts: [true, true] }), candidate(1, '4', true, { verdicts: [true, null] })]));
    const [it] = metrics.iterations();
    expect(it?.pass1Judge).toBeCloseTo((0.5 + 1) / 2);
    expect(it?.pass1Rule).toBeCloseTo((0.4 + 1) / 2);
    expect(it?.disagreements).toBe(2);
    expect(it?.judged).toBe(7);
  });

  test('the vote counts as one answer what the grader finds equal, and apart what it tells apart, whatever their printed forms', () => {
    // `30 cm` and `30 mm` both print 30, yet grade apart: two answers of one vote each, and `3 cm` (= 30 mm) makes two.
    const units = scoreIteration([candidate(0, '30 \\text{ cm}', false), candidate(1, '30 \\text{ mm}', true), candidate(2, '3 \\text{ cm}', true)]);
    expect(units.majority).toBe(true);
    expect(units.answer).toBe('30 \\text{ mm}');
    // `50\%`, `0.5` and `\frac{1}{2}` grade equal and print two ways: one answer of three votes, not one of two and one of one against 0.4's two.
    const split = scoreIteration([candidate(0, '0.4', false), candidate(1, '0.4', false), candidate(2, '50\\%', true), candidate(3, '0.5', true), candidate(4, '\\frac{1}{2}', true)]);
    expect(split.majority).toBe(true);
    // The same in MV@k's draws of 3 of these 4: the two draws with both 0.4s vote wrong, the two with 50% and 0.5 right.
    expect(majorityOverDraws([candidate(0, '0.4', false), candidate(1, '0.4', false), candidate(2, '50\\%', true), candidate(3, '0.5', true)], 3, 1)).toBe(0.5);
    // Equality is not transitive (30 equals 30 cm and 30 mm): the vote must not hang on which sample came first.
    // Before, 30 cm first tied 30 cm (with 30) against 30 mm and voted 30 cm (wrong); reversed, all four were one answer.
    const samples: Array<[string, boolean]> = [['30 \\text{ cm}', false], ['30 \\text{ mm}', true], ['30 \\text{ mm}', true], ['30', true]];
    for (const order of [samples, [...samples].reverse()]) expect(scoreIteration(order.map(([answer, right], i) => candidate(i, answer, right))).majority).toBe(true);
  });

  test('with a judge, the majority answer is graded by the verdicts on every candidate that gave it', () => {
    // "4" wins the vote; its first candidate alone is a tie, but over both candidates 3 of 4 passes say equivalent.
    const figures = scoreIteration([
      candidate(0, '4', true, { verdicts: [true, false] }),
      candidate(1, '4', true, { verdicts: [true, true] }),
      candidate(2, '5', false, { verdicts: [false, false] }),
    ]);
    expect(figures.majority).toBe(true);
    // And the other way round: a lone lucky pass does not make a wrong majority answer right.
    const wrong = scoreIteration([
      candidate(0, '5', false, { verdicts: [true, true] }),
      candidate(1, '5', false, { verdicts: [false, false] }),
      candidate(2, '5', false, { verdicts: [false, false] }),
    ]);
    expect(wrong.majority).toBe(false);
    expect(wrong.oracle).toBe(false);
  });

  test('best-verified is null where no usable verification score picked the candidate, and over the problems a score picked on', () => {
    const unscored = [candidate(0, '4', true, { score: null }), candidate(1, '5', false, { score: null })];
    expect(scoreIteration(unscored).bestVerified).toBeNull();
    // A score ranks only the candidates it scored: the unscored right answer is not the verifier's pick.
    expect(scoreIteration([candidate(0, '4', true, { score: null }), candidate(1, '5', false, { score: 0.2 })]).bestVerified).toBe(false);
    // Only a candidate without an answer was scored: no score ranked an answer, so nothing was picked (not a miss).
    expect(scoreIteration([candidate(0, '4', true, { score: null }), candidate(1, null, false, { score: 0.8 })]).bestVerified).toBeNull();

    const metrics = createMetricsCollector();
    metrics.observe(completed('p1', 0, unscored));
    metrics.observe(completed('p2', 0, unscored));
    const [none] = metrics.iterations();
    expect(none?.bestVerified).toBeNull();
    expect(none?.pass1).toBeCloseTo(0.5);
    expect(runTotals(metrics.iterations()).final?.bestVerified).toBeNull();

    const mixed = createMetricsCollector();
    mixed.observe(completed('p1', 0, unscored));
    mixed.observe(completed('p2', 0, [candidate(0, '4', true, { score: 0.9 }), candidate(1, '5', false, { score: 0.1 })]));
    expect(mixed.iterations()[0]?.bestVerified).toBe(1);
  });

  test('a problem without any grade has no Pass@1 and is left out of the averages', () => {
    const metrics = createMetricsCollector();
    metrics.observe(completed('p1', 0, [candidate(0, '4', true), candidate(1, '5', false)]));
    metrics.observe(completed('p2', 0, [candidate(0, '4', null), candidate(1, '5', null)]));
    const [it] = metrics.iterations();
    expect(it?.problems).toBe(2);
    expect(it?.graded).toBe(1);
    expect(it?.pass1).toBeCloseTo(0.5);
  });

  test('tokens, calls and wall time fold per iteration; run totals give tokens per solved problem', () => {
    const metrics = createMetricsCollector();
    const call = (tokens: number) => ({ key: 'k', usage: { promptTokens: tokens, completionTokens: tokens / 2 }, finishReason: 'stop' });
    metrics.observe(envelope({ type: 'solution.completed', run: 'r', problem: 'p1', iteration: 0, correlation: 'c', candidate: 0, source: 'normal', text: '', answer: '4', call: call(100) }, 1000));
    metrics.observe(envelope({ type: 'judge.completed', run: 'r', problem: 'p1', iteration: 0, correlation: 'c', candidate: 0, pass: 0, verdict: true, call: call(40) }, 1500));
    metrics.observe(completed('p1', 0, iterationWith(true), 4000));
    const iterations = metrics.iterations();
    expect(iterations[0]?.tokens).toEqual({ solution: { prompt: 100, completion: 50 }, judge: { prompt: 40, completion: 20 } });
    expect(iterations[0]?.calls).toBe(2);
    expect(iterations[0]?.wallSeconds).toBeCloseTo(3);
    expect(iterations[0]?.problemSeconds).toBeCloseTo(3);
    const totals = runTotals(iterations, { retries: 3 });
    expect(totals.tokens.total).toBe(210);
    expect(totals.solved).toBe(1);
    expect(totals.tokensPerSolved).toBe(210);
    expect(totals.retries).toBe(3);
  });

  test('the exploit prompts\' mean prompt tokens per iteration show how much of the window the banks take', () => {
    const metrics = createMetricsCollector();
    const call = (tokens: number) => ({ key: 'k', usage: { promptTokens: tokens, completionTokens: 10 }, finishReason: 'stop' });
    const solution = (iteration: number, source: 'normal' | 'experience' | 'guideline', tokens: number) =>
      envelope({ type: 'solution.completed', run: 'r', problem: 'p1', iteration, correlation: 'c', candidate: 0, source, text: 'x', answer: '4', call: call(tokens) });
    metrics.observe(solution(0, 'normal', 100));
    metrics.observe(completed('p1', 0, iterationWith(true)));
    metrics.observe(solution(1, 'experience', 3000));
    metrics.observe(solution(1, 'experience', 5000));
    metrics.observe(solution(1, 'guideline', 400));
    metrics.observe(completed('p1', 1, iterationWith(true)));
    expect(metrics.iterations().map((it) => it.exploitPromptTokens)).toEqual([null, 4000]);
  });

  test('a judged problem whose judge gave no verdict has no Pass@1: it is not replaced by its rule grade', () => {
    const metrics = createMetricsCollector();
    metrics.observe(completed('p1', 0, [candidate(0, '4', true, { verdicts: [true] }), candidate(1, '5', false, { verdicts: [false] })]));
    metrics.observe(completed('p2', 0, [candidate(0, '4', true, { verdicts: [null] }), candidate(1, '4', true, { verdicts: [null] })]));
    const [it] = metrics.iterations();
    expect(it?.grade).toBe('judge');
    expect(it?.graded).toBe(1);
    expect(it?.pass1).toBeCloseTo(0.5);
    expect(it?.judgeCoverage).toBeCloseTo(0.5);
  });
});

describe('MV@k as the mean vote over draws of k of a pool of samples', () => {
  // Candidate 0 says B (wrong), 1 and 2 say A (right); equal scores, so a tie goes to the lower index.
  const pool = [candidate(0, 'B', false), candidate(1, 'A', true), candidate(2, 'A', true)];

  test('every draw counted once when they are few: by hand, k = 2 of 3 is right in 1 of the 3 pairs, k = 1 in 2 of 3, k = 3 is the vote over all', () => {
    // {0,1} and {0,2} tie 1-1 and go to candidate 0 (B, wrong); {1,2} votes A.
    expect(majorityOverDraws(pool, 2, 1)).toBeCloseTo(1 / 3, 12);
    expect(majorityOverDraws(pool, 1, 1)).toBeCloseTo(2 / 3, 12);
    expect(majorityOverDraws(pool, 3, 1)).toBe(1);
    expect(majorityOverDraws(pool, 64, 1)).toBe(scoreIteration(pool).majority ? 1 : 0);
    expect(majorityOverDraws([candidate(0, 'A', null)], 1, 1)).toBeNull();
  });

  test('under the judge, a draw\'s answer is graded by the verdicts on the drawn candidates that gave it', () => {
    // A twice (verdicts 1/2 and 2/2), B once (0/1). {0,1}: A, 3 of 4 verdicts say yes: right. {0,2}: a tie to
    // candidate 0, whose A has 1 of 2: not right. {1,2}: a tie to candidate 1, 2 of 2: right.
    const judged = [candidate(0, 'A', true, { verdicts: [true, false] }), candidate(1, 'A', true, { verdicts: [true, true] }), candidate(2, 'B', false, { verdicts: [false] })];
    expect(majorityOverDraws(judged, 2, 1)).toBeCloseTo(2 / 3, 12);
  });

  test('random draws when the subsets are many: seeded, and near the exact hypergeometric mean', () => {
    // 20 of 30 samples right (A), 10 wrong (B); MV@5 is right when 3 or more of 5 drawn say A.
    const many = Array.from({ length: 30 }, (_, i) => (i % 3 === 2 ? candidate(i, 'B', false) : candidate(i, 'A', true)));
    const choose = (n: number, k: number): number => (k === 0 ? 1 : (choose(n - 1, k - 1) * n) / k);
    const exact = [3, 4, 5].reduce((sum, x) => sum + choose(20, x) * choose(10, 5 - x), 0) / choose(30, 5);
    expect(exact).toBeCloseTo(0.8088, 4);
    const value = majorityOverDraws(many, 5, 7) ?? 0;
    expect(Math.abs(value - exact)).toBeLessThan(0.04);
    expect(majorityOverDraws(many, 5, 7)).toBe(value);
  });
});

