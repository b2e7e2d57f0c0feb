/**
 * Answers given by cases: "1 if n is odd, 0 otherwise", "0 for even n and 1
 * for odd n", "if n is odd, 1; otherwise 0", or a `cases` environment. Each
 * case is a value and a condition; conditions on residues are read as sets
 * of integers, so that "otherwise" becomes the integers no other case
 * covers and two answers that split the integers the same way compare case
 * by case. Other conditions keep their words (without articles).
 */
import { complementOf, expandCongruences, residueItem, residueKey, unionOf, type ResidueSet } from './residues.ts';
import { splitTopLevel } from '../extract/scan.ts';
import type { Answer } from './types.ts';

/** One case: the value as LaTeX and its condition's one spelling. */
export interface CaseText {
  value: string;
  when: string;
}

/** The cases of an answer, and the function they define when a value names it ("T(p,q,r) = 0 if ..."). */
export interface CasesText {
  label: string | null;
  items: CaseText[];
}

/** "T(p,q,r) = v": a function's name and arguments before a case's value. */
const LABELLED = /^([A-Za-z](?:_\{?\w+\}?)?'*\s*\([^()]*\))\s*=\s*(.+)$/s;

/** The condition of a case that no other case's condition names. */
export const OTHERWISE = 'otherwise';

const CONDITION = /^(.*?)\s*\b(?:if|when|whenever|for)\b\s+(.+)$/i;
const LEADING_CONDITION = /^(?:if|when|whenever|for)\s+(.+)$/i;
const DEFAULT = /^(?:otherwise|else|in\s+all\s+other\s+cases)\s*,?\s*(.+)$|^(.+?)\s*,?\s*(?:otherwise|else|in\s+all\s+other\s+cases)$/i;
const CONDITION_WORD = /\b(?:if|when|whenever|otherwise|else|unless)\b/i;

/** A `cases` environment as "v if c" clauses. */
function fromEnvironment(text: string): string {
  const env = /^(?:[^=]*=\s*)?\\begin\{cases\}(.*)\\end\{cases\}$/s.exec(text.trim());
  if (env?.[1] === undefined) return text;
  return env[1]
    .split(/\\\\/)
    .map((row) => row.trim())
    .filter((row) => row !== '')
    .map((row) => {
      // "1, & \text{if } n \text{ odd}": the comma before the column ends the value.
      const [value, condition] = row.split('&').map((c) => c.trim().replace(/[,;]$/, '').trim());
      if (condition === undefined || condition === '') return value ?? '';
      return /^(?:if|when|for|otherwise|else)\b/i.test(condition) ? `${value} ${condition}` : `${value} if ${condition}`;
    })
    .join('; ');
}

/** A condition's words without the "all" and articles that do not change it. */
function conditionWords(condition: string): string {
  return condition
    .toLowerCase()
    .replace(/\b(?:all|the|a|an)\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

interface Clause {
  value: string;
  /** null: the case that takes what the others leave. */
  condition: string | null;
}

function clauses(text: string): Clause[] | null {
  const pieces = splitTopLevel(text, [',', ';', 'and']).map((p) => p.trim()).filter((p) => p !== '');
  const out: Clause[] = [];
  let pending: string | null = null;
  for (const piece of pieces) {
    const fallback = DEFAULT.exec(piece);
    const leading = LEADING_CONDITION.exec(piece);
    const conditional = CONDITION.exec(piece);
    if (fallback !== null) out.push({ value: (fallback[1] ?? fallback[2] ?? '').trim(), condition: null });
    else if (leading?.[1] !== undefined) pending = leading[1];
    else if (conditional?.[1] !== undefined && conditional[2] !== undefined && conditional[1] !== '') out.push({ value: conditional[1], condition: conditional[2] });
    else {
      out.push({ value: piece, condition: pending });
      pending = null;
    }
  }
  if (pending !== null) return null;
  return out;
}

/**
 * The cases of an answer, each with its condition's one spelling; null when
 * the answer is not a case distinction (fewer than two cases, no explicit
 * condition, two fallbacks, words left in a value, two function names).
 */
export function caseTexts(text: string): CasesText | null {
  if (!CONDITION_WORD.test(text) && !/\\begin\{cases\}/.test(text) && !/\bfor\b.*(?:[,;]|\band\b).*\bfor\b/i.test(text)) return null;
  const found = clauses(expandCongruences(fromEnvironment(text)));
  if (found === null || found.length < 2) return null;
  // The function's name may stand before any value; it must be one name with one argument list.
  const labels = new Set<string>();
  for (const c of found) {
    const m = LABELLED.exec(c.value);
    if (m?.[1] === undefined || m[2] === undefined) continue;
    labels.add(m[1].replace(/\s+/g, ''));
    c.value = m[2].trim();
  }
  if (labels.size > 1) return null;
  const fallbacks = found.filter((c) => c.condition === null);
  if (fallbacks.length > 1 || fallbacks.length === found.length) return null;
  // Words or a comparison left in a value: a condition was split, not read.
  if (found.some((c) => c.value === '' || CONDITION_WORD.test(c.value) || /\bfor\b|[<>]|\\(?:le|ge|ne)(?![a-zA-Z])/i.test(c.value))) return null;
  const residues = found.map((c) => (c.condition === null ? null : residueItem(c.condition.replace(/^all\s+/i, ''))));
  const explicit = residues.filter((r, k): r is ResidueSet => found[k]?.condition !== null && r !== null);
  const allResidues = explicit.length === found.length - fallbacks.length;
  const rest = allResidues && fallbacks.length === 1 ? unionOf(explicit) : null;
  const otherwise = rest === null ? null : complementOf(rest);
  if (otherwise !== null && otherwise.values.length === 0) return null;
  const items = found.map((c, k) => {
    const residue = residues[k];
    if (c.condition === null) return { value: c.value, when: otherwise === null ? OTHERWISE : residueKey(otherwise) };
    return { value: c.value, when: residue == null ? conditionWords(c.condition) : residueKey(residue) };
  });
  return { label: [...labels][0] ?? null, items };
}

/**
 * Two answers by cases meet case by case when their conditions and function
 * names are the same; against other conditions, or against a single value
 * (the question may restrict the variable), nobody here can say.
 */
export function casesVerdict(gold: Answer, pred: Answer, valuesEqual: (a: Answer, b: Answer) => boolean): 'equal' | 'different' | 'unsure' {
  if (gold.kind !== 'cases' || pred.kind !== 'cases') return 'unsure';
  const whens = (a: typeof gold): string => [...new Set(a.items.map((c) => c.when))].sort().join('|');
  // "T(q,p,r) = ..." against "T(p,q,r) = ...": the arguments bind the values' letters differently.
  const labelsDiffer = gold.label !== null && pred.label !== null && gold.label !== pred.label;
  if (labelsDiffer || gold.items.length !== pred.items.length || whens(gold) !== whens(pred)) return 'unsure';
  return gold.items.every((g) => pred.items.some((p) => p.when === g.when && valuesEqual(g.value, p.value))) ? 'equal' : 'different';
}
