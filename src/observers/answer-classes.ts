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
 * Each item's answer class, as a key a vote counts by (null for an item without an answer): the index of the first
 * class, in the items' order, whose first answer the item's answer equals, else a class of its own.
 */
export function answerClasses<T>(items: readonly T[], answerOf: (item: T) => string | null): Map<T, string | null> {
  const classes: string[] = [];
  const classOfText = new Map<string, string>();
  const keys = new Map<T, string | null>();
  for (const item of items) {
    const answer = answerOf(item)?.trim() ?? null;
    if (answer === null) {
      keys.set(item, null);
      continue;
    }
    let key = classOfText.get(answer);
    if (key === undefined) {
      const found = classes.findIndex((representative) => sameAnswer(representative, answer));
      key = String(found === -1 ? classes.push(answer) - 1 : found);
      classOfText.set(answer, key);
    }
    keys.set(item, key);
  }
  return keys;
}
