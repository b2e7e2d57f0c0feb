/**
 * Ranges of a family's parameter: "x = 2k\pi, k \in \mathbb{Z}" states the
 * formula and that k is an integer (words.ts writes "for some integer k"
 * and "where k is an integer" so). The range is part of the answer: the
 * bare "x = 2k\pi" leaves k open, so the two are not known to be equal.
 */
import type { Answer } from './types.ts';

/** The integers and their signed parts, as the sets a parameter may range over. */
const INTEGER_SET = /^\\mathbb\s*\{?\s*[ZN]\s*\}?(?:\s*(?:\^\s*\{?\+\}?|_\s*\{?\s*(?:>|\\ge)\s*0\s*\}?|_\s*0))?$/;

function rangeOf(item: Answer): string | null {
  if (item.kind !== 'relation' || item.ops.length !== 1 || item.ops[0] !== '\\in') return null;
  const [lhs, rhs] = item.parts;
  if (lhs?.kind !== 'expr' || rhs?.kind !== 'expr' || !/^[a-zA-Z]$/.test(lhs.tex.trim())) return null;
  const set = rhs.tex.replace(/\s+/g, '');
  return INTEGER_SET.test(set) ? set : null;
}

/** The answer without its parameter ranges, and the ranges (the sets, sorted; the letters do not matter). */
export function splitParameterRanges(answer: Answer): { core: Answer; ranges: string } {
  if (answer.kind !== 'list') return { core: answer, ranges: '' };
  const ranges = answer.items.map(rangeOf);
  const rest = answer.items.filter((_, k) => ranges[k] === null);
  if (rest.length === answer.items.length || rest.length === 0) return { core: answer, ranges: '' };
  const core: Answer = rest.length === 1 && rest[0] !== undefined ? rest[0] : { kind: 'list', items: rest };
  return { core, ranges: ranges.filter((r) => r !== null).sort().join(';') };
}
