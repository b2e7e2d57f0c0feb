/**
 * Canonical printing of parsed answers, for majority voting and reports.
 * Numbers print by exact value (so "0.5", "\frac12" and "\dfrac{2}{4}" all
 * print "0.5", "\frac13" prints "1/3", "2^{40}" prints its digits) and
 * irrational ones to ten digits ("\sqrt{12}" and "2\sqrt3" both print
 * "3.464101615"); sets and unordered lists print sorted; expressions with
 * variables print as their LaTeX with uniform spacing, so "2(x+1)" and
 * "2x+2" stay apart (grading, not printing, decides that they are equal).
 * Every printed form is LaTeX the grader reads back as an equal answer.
 */
import { OTHERWISE } from '../parse/cases.ts';
import { exactValue } from '../math/exact.ts';
import { compileLatex } from '../math/mathjs-env.ts';
import * as Q from '../math/rational.ts';
import type { Answer, RelationOp } from '../parse/types.ts';
import { isLabel } from '../parse/labels.ts';
import { numeralBase } from './numeral-base.ts';

/**
 * A rational exactly: as a decimal when it terminates within twelve places
 * ("0.5", "0.0000005"), else as p/q ("1/3"); null when it would be too long
 * to be a useful key (the caller prints the expression instead).
 */
function printRational(r: Q.Rational): string | null {
  const sign = r.p < 0n ? '-' : '';
  const p = r.p < 0n ? -r.p : r.p;
  if (p.toString().length + r.q.toString().length > 400) return null;
  if (r.q === 1n) return `${sign}${p}`;
  for (let places = 1; places <= 12; places += 1) {
    const scale = 10n ** BigInt(places);
    if ((p * scale) % r.q === 0n) {
      const digits = ((p * scale) / r.q).toString().padStart(places + 1, '0');
      return `${sign}${digits.slice(0, -places)}.${digits.slice(-places)}`;
    }
  }
  return `${sign}${p}/${r.q}`;
}

/** An irrational (or complex) value to ten significant digits: equal to the exact form under the rounding rule. */
function printNumber(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '\\infty' : '-\\infty';
  return String(Number(x.toPrecision(10)));
}

/** A matrix (rows of entries) or a vector as a pmatrix, which reads back as the same matrix. */
function printMatrix(rows: unknown[]): string | null {
  const lines = rows.map((row) => (Array.isArray(row) ? row.map((x: unknown) => printValue(x)) : [printValue(row)]));
  if (lines.some((line) => line.some((x) => x === null))) return null;
  return `\\begin{pmatrix} ${lines.map((line) => line.join(' & ')).join(' \\\\ ')} \\end{pmatrix}`;
}

function printValue(v: unknown): string | null {
  if (typeof v === 'number') return Number.isFinite(v) && Math.abs(v) >= 1e15 ? null : printNumber(v);
  if (typeof v === 'object' && v !== null) {
    if ('toArray' in v && typeof v.toArray === 'function') {
      const arr: unknown = v.toArray();
      return printValue(arr);
    }
    if (Array.isArray(v)) return printMatrix(v);
    if ('re' in v && 'im' in v && typeof v.re === 'number' && typeof v.im === 'number') {
      const im = printNumber(Math.abs(v.im));
      return `${printNumber(v.re)} ${v.im < 0 ? '-' : '+'} ${im}i`;
    }
  }
  return null;
}

/** LaTeX with spacing made uniform: what an expression with variables prints as (it re-parses to itself). */
function tidy(tex: string): string {
  return tex.replace(/\s+/g, ' ').replace(/ ?([-+=^_{}()[\],*/]) ?/g, '$1').trim();
}

function printExpr(tex: string): string {
  const trimmed = tex.trim();
  if (/^\d+$/.test(trimmed)) return trimmed.replace(/^0+(?=\d)/, '');
  // "204_5" prints in its base, which a question that asks for it needs: 54 does not answer it.
  const base = numeralBase(trimmed);
  if (base !== null) return `${trimmed.replace(/_.*$/, '').replace(/^0[xbo]/, '')}_{${base}}`;
  const c = compileLatex(trimmed);
  if (c === null || c.vars.length > 0 || c.funcs.length > 0) return tidy(trimmed);
  const exact = exactValue(c);
  if (exact !== null) return printRational(exact) ?? tidy(trimmed);
  try {
    return printValue(c.fn.evaluate(new Map())) ?? tidy(trimmed);
  } catch {
    return tidy(trimmed);
  }
}

const OP_TEXT: Record<RelationOp, string> = {
  '=': '=', '<': '<', '>': '>', '\\le': '\\le', '\\ge': '\\ge', '\\ne': '\\ne', '\\in': '\\in', '\\to': '\\to',
};

/** Distinct items, numbers in numeric order first, then the rest as text. */
const sorted = (items: string[]): string[] =>
  [...new Set(items)].sort((a, b) => {
    const x = Number(a);
    const y = Number(b);
    if (!Number.isNaN(x) && !Number.isNaN(y)) return x - y;
    if (!Number.isNaN(x)) return -1;
    if (!Number.isNaN(y)) return 1;
    return a < b ? -1 : a > b ? 1 : 0;
  });

/** Canonical string of a parsed answer. */
export function printAnswer(answer: Answer): string {
  switch (answer.kind) {
    case 'expr':
      return printExpr(answer.tex) + (answer.percent ? '%' : '');
    case 'text':
      return answer.text.toLowerCase().replace(/\s+/g, ' ').replace(/^\(([a-z])\)$/, '$1');
    case 'tuple':
      return `${answer.open}${answer.items.map(printAnswer).join(', ')}${answer.close}`;
    case 'set':
      return `\\{${sorted(answer.items.map(printAnswer)).join(', ')}\\}`;
    case 'list':
      // "a = 1, b = 2" is read in order against "1, 2": it prints in order, labels kept.
      if (answer.items.some((i) => i.kind === 'relation')) return answer.items.map(printRelation).join(answer.all === true ? ' \\text{ and } ' : ', ');
      return sorted(answer.items.map(printAnswer)).join(', ');
    case 'union':
      return sorted(answer.parts.map(printAnswer)).join(' \\cup ');
    case 'relation': {
      const [lhs, rhs] = answer.parts;
      // "x = 5" grades equal to "5", so it prints the same.
      if (answer.ops.length === 1 && (answer.ops[0] === '=' || answer.ops[0] === '\\in') && lhs?.kind === 'expr' && rhs !== undefined && isLabel(lhs.tex)) {
        return printAnswer(rhs);
      }
      return printRelation(answer);
    }
    case 'cases':
      // Sorted by condition; each condition is already in the one spelling cases.ts reads back.
      return (answer.label === null ? '' : `${answer.label} = `) + [...answer.items]
        .sort((a, b) => (a.when < b.when ? -1 : a.when > b.when ? 1 : 0))
        .map((c) => `${printAnswer(c.value)} \\text{ ${c.when === OTHERWISE ? OTHERWISE : `if ${c.when}`}}`)
        .join('; ');
  }
}

/** A relation with every side ("a = s+t"); other answers as usual. */
function printRelation(answer: Answer): string {
  if (answer.kind !== 'relation') return printAnswer(answer);
  // "x \\ne \\pm 1" holds a list as a side: braced, so that it reads back as one side.
  const side = (part: Answer): string => (part.kind === 'list' ? `\\{${printAnswer(part)}\\}` : printAnswer(part));
  return answer.parts.map(side).reduce((acc, part, k) => `${acc} ${OP_TEXT[answer.ops[k - 1] ?? '=']} ${part}`);
}
