/**
 * Ranges of a family's parameter: "x = 2k\pi, k \in \mathbb{Z}" states the
 * formula and that k is an integer (words.ts writes "for some integer k"
 * and "where k is an integer" so). The range is part of the answer: the
 * bare "x = 2k\pi" leaves k open, so the two are not known to be equal.
 */
import type { Answer } from './types.ts';
import { mathLetters, renameMathLetter } from '../latex/math-letters.ts';

/** The integers and their signed parts, as the sets a parameter may range over. */
const INTEGER_SET = /^\\mathbb\s*\{?\s*[ZN]\s*\}?(?:\s*(?:\^\s*\{?\+\}?|_\s*\{?\s*(?:>|\\ge)\s*0\s*\}?|_\s*0))?$/;

/** A parameter's range item ("k \in \mathbb{Z}"): its letter and set; null for any other item. */
function rangeOf(item: Answer): { letter: string; set: string } | null {
  if (item.kind !== 'relation' || item.ops.length !== 1 || item.ops[0] !== '\\in') return null;
  const [lhs, rhs] = item.parts;
  if (lhs?.kind !== 'expr' || rhs?.kind !== 'expr' || !/^[a-zA-Z]$/.test(lhs.tex.trim())) return null;
  const set = rhs.tex.replace(/\s+/g, '');
  return INTEGER_SET.test(set) ? { letter: lhs.tex.trim(), set } : null;
}

/** An answer split from its parameter ranges: the ranges' sets (sorted; the letters do not matter) and their letters in order. */
export interface ParameterSplit {
  core: Answer;
  ranges: string;
  letters: string[];
}

/** The answer without its parameter ranges, and the ranges. */
export function splitParameterRanges(answer: Answer): ParameterSplit {
  if (answer.kind !== 'list') return { core: answer, ranges: '', letters: [] };
  const ranges = answer.items.map(rangeOf);
  const rest = answer.items.filter((_, k) => ranges[k] === null);
  if (rest.length === answer.items.length || rest.length === 0) return { core: answer, ranges: '', letters: [] };
  const core: Answer = rest.length === 1 && rest[0] !== undefined ? rest[0] : { kind: 'list', items: rest };
  const stated = ranges.filter((r) => r !== null);
  return { core, ranges: stated.map((r) => r.set).sort().join(';'), letters: stated.map((r) => r.letter) };
}

/** `answer` with `change` applied to the text of each of its expressions. */
function mapTex(answer: Answer, change: (tex: string) => string): Answer {
  switch (answer.kind) {
    case 'expr':
      return { ...answer, tex: change(answer.tex) };
    case 'text':
      return answer;
    case 'cases':
      return { ...answer, items: answer.items.map((item) => ({ ...item, value: mapTex(item.value, change) })) };
    case 'union':
    case 'relation':
      return { ...answer, parts: answer.parts.map((part) => mapTex(part, change)) } as Answer;
    default:
      return { ...answer, items: answer.items.map((item) => mapTex(item, change)) } as Answer;
  }
}

/** The letters of an answer's expressions ("x" and "k" of "x = 2k\pi"). */
function lettersOf(answer: Answer): Set<string> {
  const letters = new Set<string>();
  mapTex(answer, (tex) => {
    for (const letter of mathLetters(tex)) letters.add(letter);
    return tex;
  });
  return letters;
}

/** A side's parameter: the letter it ranges, or, on a side that ranges none, its one letter the other side does not use. */
function parameterOf(side: ParameterSplit, other: ParameterSplit): string | undefined {
  if (side.letters.length > 0) return side.letters.length === 1 ? side.letters[0] : undefined;
  const others = lettersOf(other.core);
  const own = [...lettersOf(side.core)].filter((letter) => !others.has(letter));
  return own.length === 1 ? own[0] : undefined;
}

/**
 * pred's core with its parameter written as gold's: "x = \frac{\pi}{4} + n\pi,
 * n \in \mathbb{Z}" states the same family as "… + k\pi, k \in \mathbb{Z}", a
 * ranged parameter being a bound letter whatever it is called (it was graded
 * different, sure of it; against a bare "\frac{\pi}{4} + k\pi", whose k is
 * taken to be the parameter, the caller is unsure, as for any range stated
 * on one side only). One parameter a side, and only where gold's letter is
 * not already one of pred's: else pred's core as it is.
 */
export function coreInGoldParameter(gold: ParameterSplit, pred: ParameterSplit): Answer {
  const [from, to] = [parameterOf(pred, gold), parameterOf(gold, pred)];
  if (from === undefined || to === undefined || from === to) return pred.core;
  // gold's letter already free in pred ("k\pi + n\pi, n \in \mathbb{Z}"): renaming would merge two letters.
  if (lettersOf(pred.core).has(to)) return pred.core;
  return mapTex(pred.core, (tex) => renameMathLetter(tex, from, to));
}
