/**
 * Canonical printing of parsed answers, for majority voting and reports.
 * Numbers print by value (so "0.5", "\frac12" and "\dfrac{2}{4}" all print
 * "0.5", "\frac13" prints "1/3", and "\sqrt{12}" and "2\sqrt3" both print
 * "3.464101615"); sets and unordered lists print sorted; expressions with
 * variables print in tidied notation only, so "2(x+1)" and "2x+2" stay
 * apart (grading, not printing, decides that they are equal).
 */
import { compileLatex, math } from './mathjs-env.ts';
import type { Answer, RelationOp } from './types.ts';
import { isLabel } from './labels.ts';

/** p/q with q ≤ 10000 when x is that rational to within rounding error. */
function asFraction(x: number): string | null {
  if (!Number.isFinite(x)) return null;
  let h0 = 0;
  let h1 = 1;
  let k0 = 1;
  let k1 = 0;
  let rest = x;
  for (let step = 0; step < 30; step += 1) {
    const a = Math.floor(rest);
    [h0, h1] = [h1, a * h1 + h0];
    [k0, k1] = [k1, a * k1 + k0];
    if (k1 > 10_000) return null;
    if (Math.abs(h1 / k1 - x) <= 1e-12 * Math.max(1, Math.abs(x))) return k1 === 1 ? String(h1) : `${h1}/${k1}`;
    const frac = rest - a;
    if (frac < 1e-15) return null;
    rest = 1 / frac;
  }
  return null;
}

function printNumber(x: number, hasFloat: boolean): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'oo' : '-oo';
  const value = hasFloat ? Number(x.toFixed(6)) : x;
  if (Math.abs(value) < 1e15 && Number.isInteger(Math.round(value)) && Math.abs(value - Math.round(value)) <= 1e-9 * Math.max(1, Math.abs(value))) {
    return String(Math.round(value));
  }
  // A rational prints as the decimal when that terminates within six places
  // ("0.5", "2.74"), else as a fraction ("1/3"): the same string whichever
  // way the answer was written.
  const scaled = value * 1e6;
  if (Math.abs(scaled) < 1e15 && Math.abs(scaled - Math.round(scaled)) <= 1e-9 * Math.max(1, Math.abs(scaled))) {
    return String(Number(value.toFixed(6)));
  }
  const fraction = asFraction(value);
  if (fraction !== null) return fraction;
  return String(Number(value.toPrecision(10)));
}

function printValue(v: unknown, hasFloat: boolean): string | null {
  if (typeof v === 'number') return printNumber(v, hasFloat);
  if (typeof v === 'object' && v !== null) {
    if ('toArray' in v && typeof v.toArray === 'function') {
      const arr: unknown = v.toArray();
      return printValue(arr, hasFloat);
    }
    if (Array.isArray(v)) {
      const items = v.map((x: unknown) => printValue(x, hasFloat));
      return items.some((x) => x === null) ? null : `[${items.join(', ')}]`;
    }
    if ('re' in v && 'im' in v && typeof v.re === 'number' && typeof v.im === 'number') {
      const im = printNumber(Math.abs(v.im), hasFloat);
      return `${printNumber(v.re, hasFloat)} ${v.im < 0 ? '-' : '+'} ${im}i`;
    }
  }
  return null;
}

/** mathjs identifiers back to readable names: v_x → x, uf_f → f. */
function readable(code: string): string {
  return code.replace(/\b(?:v|uf)_([A-Za-z0-9_]+)/g, '$1');
}

function printExpr(tex: string): string {
  const trimmed = tex.trim();
  if (/^\d+$/.test(trimmed)) return trimmed.replace(/^0+(?=\d)/, '');
  const c = compileLatex(trimmed);
  if (c === null) return trimmed.replace(/\s+/g, ' ');
  if (c.vars.length === 0 && c.funcs.length === 0) {
    try {
      const printed = printValue(c.fn.evaluate(new Map()), c.hasFloat);
      if (printed !== null) return printed;
    } catch {
      // Falls through to the symbolic form.
    }
  }
  // mathjs's simplify() and rationalize() would make "2(x+1)" and "2x+2"
  // print alike, but cost 1 to 20 ms per call, too much for a per-candidate
  // key; the parsed form only tidies notation.
  try {
    return readable(math.parse(c.code).toString({ parenthesis: 'auto' }));
  } catch {
    return readable(c.code);
  }
}

const OP_TEXT: Record<RelationOp, string> = {
  '=': '=', '<': '<', '>': '>', '\\le': '<=', '\\ge': '>=', '\\ne': '!=', '\\in': 'in', '\\to': '->',
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
      return `{${sorted(answer.items.map(printAnswer)).join(', ')}}`;
    case 'list':
      return sorted(answer.items.map(printAnswer)).join(', ');
    case 'union':
      return sorted(answer.parts.map(printAnswer)).join(' U ');
    case 'relation': {
      const [lhs, rhs] = answer.parts;
      // "x = 5" grades equal to "5", so it prints the same.
      if (answer.ops.length === 1 && (answer.ops[0] === '=' || answer.ops[0] === '\\in') && lhs?.kind === 'expr' && rhs !== undefined && isLabel(lhs.tex)) {
        return printAnswer(rhs);
      }
      return answer.parts
        .map(printAnswer)
        .reduce((acc, part, k) => `${acc} ${OP_TEXT[answer.ops[k - 1] ?? '=']} ${part}`);
    }
  }
}
