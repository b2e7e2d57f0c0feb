/**
 * Which candidates give the same answer, for a majority vote: two answers are
 * one when the grader finds them equal, the same rule that grades each against
 * the reference. Keyed by the answers' normal forms, the vote counted as one
 * answer two that grade apart (`30 cm` and `30 mm` both print `30`, `f(1) = 2`
 * and `f(2) = 2` both `2`) and as two answers one that the grade reads alike
 * (`50\%` and `0.5`, `2 hours` and `120 minutes`, `(C) 12` and `12`): a vote's
 * winner could hold answers graded otherwise than it, or lose to a split.
 */
import { gradeAnswer } from '../grader/index.ts';

/** Verdicts already reached, by the pair's texts: a pool's answers meet again at every iteration and draw. */
const sameBefore = new Map<string, boolean>();

/** Pairs kept at most: the oldest goes first, so memory stays bounded over a run of any length. */
const PAIRS_KEPT = 20_000;

/** Whether `answer` is the answer `representative` is: the grader finds it equal, read as graded against it. */
function sameAnswer(representative: string, answer: string): boolean {
  if (representative === answer) return true;
  const pair = `${representative}\u0000${answer}`;
  const known = sameBefore.get(pair);
  if (known !== undefined) return known;
  const same = gradeAnswer(answer, representative).verdict === 'equal';
  if (sameBefore.size >= PAIRS_KEPT) sameBefore.delete(sameBefore.keys().next().value as string);
  sameBefore.set(pair, same);
  return same;
}

/**
 * Each item's answer class, as a key a vote counts by (null for an item without an answer). The grader's
 * equality is not transitive (`30` equals `30 cm` and `30 mm`, which differ), so the classes depend on which
 * answers are taken as their firsts: taking them in the samples' order made a vote change with that order
 * (30 cm, 30 mm, 30 mm, 30 tied 30 cm against 30 mm; reversed, all four were one answer). The distinct answers
 * are taken most frequent first, then in code-unit order: each joins the first class whose first answer it
 * equals, else opens its own, whatever order the samples came in.
 */
export function answerClasses<T>(items: readonly T[], answerOf: (item: T) => string | null): Map<T, string | null> {
  const answers = new Map<T, string | null>();
  const counts = new Map<string, number>();
  for (const item of items) {
    const answer = answerOf(item)?.trim() ?? null;
    answers.set(item, answer);
    if (answer !== null) counts.set(answer, (counts.get(answer) ?? 0) + 1);
  }
  const byFrequency = [...counts].sort(([a, m], [b, n]) => n - m || (a < b ? -1 : a > b ? 1 : 0)).map(([answer]) => answer);
  const classes: string[] = [];
  const classOfText = new Map<string, string>();
  for (const answer of byFrequency) {
    const found = classes.findIndex((representative) => sameAnswer(representative, answer));
    classOfText.set(answer, String(found === -1 ? classes.push(answer) - 1 : found));
  }
  const keys = new Map<T, string | null>();
  for (const [item, answer] of answers) keys.set(item, answer === null ? null : (classOfText.get(answer) ?? null));
  return keys;
}
