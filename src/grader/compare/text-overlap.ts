/**
 * Two answers in words where one only adds words to the other: a name and
 * the sentence about it, which only a reader can tell apart or together.
 */
import type { Answer } from '../parse/types.ts';

/** Words that turn a statement into its opposite: "prime" and "not prime" stay different. */
const NEGATION = /^(?:not|no|non|never|neither|nor|cannot|can't|isn't|doesn't|don't|without)$/;

/**
 * "Alice" against "Alice wins", "first player" against "the first player
 * wins": every word of one text is in the other, which adds words that do
 * not negate it. A name and the sentence about it may be one answer; only a
 * reader can say.
 */
export function oneSaysMore(gold: Answer, pred: Answer): boolean {
  if (gold.kind !== 'text' || pred.kind !== 'text') return false;
  const words = (a: { text: string }): string[] => a.text.toLowerCase().split(/[^\p{L}\d']+/u).filter((w) => w !== '');
  const [g, p] = [words(gold), words(pred)];
  const [short, long] = g.length <= p.length ? [g, p] : [p, g];
  if (short.length === 0 || short.length === long.length || !short.every((w) => long.includes(w))) return false;
  return !long.some((w) => !short.includes(w) && NEGATION.test(w));
}
