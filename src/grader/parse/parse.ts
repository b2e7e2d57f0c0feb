/**
 * Parsing a cleaned answer into its structure: lists, sets, tuples and
 * intervals, unions, relation chains, and the expressions or words at the
 * leaves. Expressions stay LaTeX here; they are evaluated only when compared.
 */
import { fixedArguments, functionArguments, isLabel } from './labels.ts';
import { isWrapped, splitTopLevel, splitTopLevelWith } from '../extract/scan.ts';
import type { Answer, RelationOp } from './types.ts';
import { splitQuantity } from '../math/units.ts';
import { mathLetters } from '../latex/math-letters.ts';

const LIST_SEPARATORS = [',', 'and', 'or'];
const RELATION_SEPARATORS = ['\\le', '\\ge', '\\ne', '\\in', '\\approx', '\\to', '=', '<', '>'];

/** Relation separators as operators; "\approx" has been resolved before this is used. */
const RELATION_OPS: Readonly<Record<string, RelationOp>> = {
  '\\le': '\\le', '\\ge': '\\ge', '\\ne': '\\ne', '\\in': '\\in', '\\to': '\\to', '=': '=', '<': '<', '>': '>', '\\approx': '=',
};

/** Words that are mathematics, not prose, when deciding whether an answer is text. */
const MATH_WORDS = /^(?:sin|cos|tan|sec|csc|cot|arcsin|arccos|arctan|sinh|cosh|tanh|log|ln|exp|sqrt|abs|max|min|gcd|lcm|det|mod|pi)$/;

/** True for answers written in words ("odd", "Evelyn", "n is prime"). */
function isProse(tex: string): boolean {
  const words =
    tex
      .replace(/\\(?:begin|end|operatorname|mathbb|mathcal|mathrm)\s*\{[^{}]*\}/g, ' ')
      .replace(/\\[a-zA-Z]+/g, ' ')
      .match(/[a-zA-Z]{3,}/g) ?? [];
  return words.some((w) => /[aeiouAEIOU]/.test(w) && !MATH_WORDS.test(w.toLowerCase()));
}

/** A word of prose standing alone ("Result", "Lösung", "Ответ"), not a variable or a function name. */
function isWordLabel(tex: string): boolean {
  const word = tex.replace(/^\\text\{([^{}]*)\}$/, '$1').trim();
  return /^\p{L}{3,}$/u.test(word) && (isProse(word) || /[^\x00-\x7F]/.test(word));
}

function textAnswer(tex: string): Answer {
  return { kind: 'text', text: tex.replace(/\\text\{([^{}]*)\}/g, '$1').replace(/\s+/g, ' ').trim() };
}

/** Items of a list answer, with nested plain lists (from "\pm") flattened. */
function flatten(items: Answer[]): Answer[] {
  return items.flatMap((item) => (item.kind === 'list' ? item.items : [item]));
}

/**
 * Signs expanded in one answer at most: each doubles the values, so an
 * answer with many (a model repeating "\pm 1" forty times) would take
 * time and memory exponential in them. Beyond this it stays as written.
 */
const MAX_PLUS_MINUS = 6;

/** Expands the first "\pm" / "\mp" into its two readings; null without one, or with too many. */
function expandPlusMinus(tex: string): [string, string] | null {
  const m = /\\(pm|mp)(?![a-zA-Z])/.exec(tex);
  if (m === null || (tex.match(/\\(?:pm|mp)(?![a-zA-Z])/g) ?? []).length > MAX_PLUS_MINUS) return null;
  const [first, second] = m[1] === 'pm' ? ['+', '-'] : ['-', '+'];
  const head = tex.slice(0, m.index);
  const tail = tex.slice(m.index + m[0].length);
  return [`${head}${first}${tail}`, `${head}${second}${tail}`];
}

/** Equation with a label on the left: the value it states. */
function labelledValue(answer: Answer): Answer | null {
  if (answer.kind !== 'relation' || answer.ops.length !== 1 || answer.ops[0] !== '=') return null;
  const [lhs, rhs] = answer.parts;
  if (lhs === undefined || rhs === undefined) return null;
  if ((lhs.kind === 'expr' || lhs.kind === 'tuple') && isLabel(printLabel(lhs))) return bindArguments(printLabel(lhs), rhs);
  return null;
}

/** The right side of "f(x) = rhs", knowing that x is bound in it. */
export function bindArguments(label: string, rhs: Answer): Answer {
  const args = functionArguments(label);
  return args === null || rhs.kind !== 'expr' ? rhs : { ...rhs, bound: args };
}

function printLabel(answer: Answer): string {
  if (answer.kind === 'expr') return answer.tex;
  if (answer.kind === 'tuple') return `(${answer.items.map(printLabel).join(',')})`;
  return '';
}

/**
 * A list of equations: "x = 1, x = 2" (one label) is the list of values;
 * "n = 1, 2, 3" is too. "a = 1, b = 2" (several labels) stays a list of
 * equations, which compares as a tuple against a bare "1, 2".
 */
function simplifyEquationList(items: Answer[]): Answer {
  const first = items[0];
  const firstValue = first === undefined ? null : labelledValue(first);
  if (firstValue !== null && items.slice(1).every((i) => i.kind !== 'relation')) {
    return { kind: 'list', items: flatten([firstValue, ...items.slice(1)]), oneUnknown: true };
  }
  const values = items.map(labelledValue);
  const lhsNames = items.map((i) => (i.kind === 'relation' && i.parts[0] !== undefined ? printLabel(i.parts[0]) : ''));
  if (items.length > 0 && values.every((v) => v !== null) && new Set(lhsNames.map(nameKey)).size === 1) {
    return { kind: 'list', items: flatten(values.filter((v): v is Answer => v !== null)), oneUnknown: true };
  }
  return { kind: 'list', items };
}

/** "W(x)" and "W(n)" name the same thing in a list of solutions; "f(1)" and "f(2)", or "P(2x)" and "P(x)", do not. */
function nameKey(label: string): string {
  const fixed = fixedArguments(label);
  return fixed !== null ? label.replace(/\s+/g, '') : label.replace(/\([^()]*\)/g, '()').replace(/\s+/g, '');
}

/** The one letter of an inequality ("a \le -1", "|x| > 2"); null for anything else or several letters. */
export function inequalityLetter(answer: Answer): string | null {
  if (answer.kind !== 'relation' || !answer.ops.every((op) => op === '<' || op === '>' || op === '\\le' || op === '\\ge' || op === '\\ne')) return null;
  const letters = new Set(answer.parts.flatMap((p) => (p.kind === 'expr' ? (p.tex.replace(/\\[a-zA-Z]+/g, ' ').match(/[a-zA-Z]/g) ?? []) : ['?'])));
  return letters.size === 1 ? ([...letters][0] ?? null) : null;
}

/** Inequalities in one and the same letter: pieces of one set of reals. */
export function inequalitiesInOneLetter(items: readonly Answer[]): boolean {
  const letters = new Set(items.map(inequalityLetter));
  return letters.size === 1 && !letters.has(null);
}

/** The letter and the constant of "x = \frac12"; null for any other answer. */
function pointOf(answer: Answer): { letter: string; value: Answer } | null {
  if (answer.kind !== 'relation' || answer.ops.length !== 1 || answer.ops[0] !== '=') return null;
  const [lhs, rhs] = answer.parts;
  const letters = (tex: string): string[] => tex.replace(/\\[a-zA-Z]+/g, ' ').match(/[a-zA-Z]/g) ?? [];
  if (lhs?.kind !== 'expr' || rhs?.kind !== 'expr' || !/^[a-zA-Z]$/.test(lhs.tex.trim()) || letters(rhs.tex).length > 0) return null;
  return { letter: lhs.tex.trim(), value: rhs };
}

/**
 * "x < 0 or x = \frac12", "x < 0, x = \frac12": points joined to inequalities in their letter (by "or" or commas, not
 * "and") are more pieces of one set, the union `(-\infty, 0) \cup \{\frac12\}`. Read as a list of two answers, the
 * right set was graded different, sure of it.
 */
function pointsJoined(items: readonly Answer[], found: readonly string[]): Answer[] | null {
  if (found.includes('and')) return null;
  const points = items.map(pointOf);
  const inequalities = items.filter((item, k) => points[k] === null);
  const letters = new Set([...inequalities.map(inequalityLetter), ...points.map((point) => point?.letter ?? null).filter((letter) => letter !== null)]);
  if (inequalities.length === 0 || inequalities.length === items.length || letters.size !== 1 || letters.has(null)) return null;
  return items.map((item, k) => {
    const point = points[k];
    return point === null || point === undefined ? item : { kind: 'set', items: [point.value] };
  });
}

/** "x \ge 0" as (x, ≥, 0); "0 \le x" flipped to the same; null unless one side is `letter` alone. */
function bound(item: Answer, letter: string): { op: RelationOp; value: Answer } | null {
  if (item.kind !== 'relation' || item.ops.length !== 1) return null;
  const [lhs, rhs] = item.parts;
  const op = item.ops[0];
  if (lhs === undefined || rhs === undefined || op === undefined) return null;
  const flipped: Partial<Record<RelationOp, RelationOp>> = { '<': '>', '>': '<', '\\le': '\\ge', '\\ge': '\\le' };
  if (lhs.kind === 'expr' && lhs.tex.trim() === letter) return { op, value: rhs };
  const back = flipped[op];
  return rhs.kind === 'expr' && rhs.tex.trim() === letter && back !== undefined ? { op: back, value: lhs } : null;
}

/** "a > 0 and a < 1" as the chain "0 < a < 1"; null unless it is one lower and one upper bound of one letter. */
function intersectionChain(items: readonly Answer[]): Answer | null {
  const first = items[0];
  const letter = first === undefined ? null : inequalityLetter(first);
  if (items.length !== 2 || letter === null || !inequalitiesInOneLetter(items)) return null;
  const bounds = items.map((i) => bound(i, letter));
  const lower = bounds.find((b) => b?.op === '>' || b?.op === '\\ge');
  const upper = bounds.find((b) => b?.op === '<' || b?.op === '\\le');
  if (lower == null || upper == null) return null;
  const variable: Answer = { kind: 'expr', tex: letter, percent: false, unit: null };
  return { kind: 'relation', parts: [lower.value, variable, upper.value], ops: [lower.op === '>' ? '<' : '\\le', upper.op] };
}

/**
 * "x < -\frac83, x \ne -4", "x \le 5, x \ne 2": one inequality and the points it leaves out, in one letter. Read as a
 * list of two answers, the set was graded different from (-\infty,-4)\cup(-4,-\frac83); a "\ne" beside a bound can only
 * exclude (as a union's part it would be almost every real), so all of them hold.
 */
function withExclusions(items: readonly Answer[]): boolean {
  const excludes = (item: Answer): boolean => item.kind === 'relation' && item.ops.length === 1 && item.ops[0] === '\\ne';
  return inequalitiesInOneLetter(items) && items.filter((item) => !excludes(item)).length === 1;
}

function parseCommaList(tex: string): Answer {
  const split = splitTopLevelWith(tex, LIST_SEPARATORS);
  const parts = split.parts.map((p) => p.trim()).filter((p) => p !== '');
  if (parts.length === 0) return textAnswer(tex);
  if (parts.length === 1) return parseItem(parts[0] ?? '');
  const items = parts.map(parseItem);
  // "a \le -1 or a \ge 1": inequalities in one letter joined by "or" are the union of their sets ("and" would be the intersection).
  if (split.found.every((sep) => sep === 'or') && inequalitiesInOneLetter(items)) return { kind: 'union', parts: items };
  const withPoints = pointsJoined(items, split.found);
  if (withPoints !== null) return { kind: 'union', parts: withPoints };
  const chain = split.found.every((sep) => sep === 'and') ? intersectionChain(items) : null;
  if (chain !== null) return chain;
  // "0 < x < 1 and x \ne \frac12": inequalities in one letter joined by "and" all hold.
  if (split.found.every((sep) => sep === 'and') && inequalitiesInOneLetter(items)) return { kind: 'list', items, all: true };
  if (withExclusions(items)) return { kind: 'list', items, all: true };
  return simplifyEquationList(flatten(items));
}

/** A value and then a word of proviso: "3 as long as n", "6 unless n", "2 provided that p". */
const PROVISO_AFTER_VALUE = /^[-+(\d.\\{}\s]*\d[^a-zA-Z]*\s(?:\\text\s*\{\s*)?(?:unless|whenever|provided|as\s+long\s+as|only\s+if|if\s+and\s+only\s+if|except\s+(?:when|if))\b/i;

function parseRelation(tex: string): Answer | null {
  const { parts, found } = splitTopLevelWith(tex, RELATION_SEPARATORS);
  if (found.length === 0) return null;
  let texts = parts.map((p) => p.trim());
  let ops = found.slice();
  // "x \approx 11" states the value; "1/3 \approx 0.33" only adds a rounding.
  const approx = ops.indexOf('\\approx');
  if (approx >= 0) {
    if (approx === 0 && ops.length === 1 && isLabel(texts[0] ?? '')) ops[0] = '=';
    else {
      texts = texts.slice(0, approx + 1);
      ops = ops.slice(0, approx);
    }
  }
  if (ops.length === 0) return parseItem(texts[0] ?? '');
  if (texts.some((t) => t === '')) return null;
  const items = texts.map(parseItem);
  // "x = 5 whenever y = 3": words between two relations make a sentence, not a chain; read as one, its last side,
  // 3, was the value, graded equal to a reference 3.
  if (items.slice(1, -1).some((item) => item.kind === 'text')) return textAnswer(tex);
  // "3 as long as n \ne 0", "6 provided n \ge 1": a value, then its proviso on one relation; read as a relation whose
  // left side was "3 as long as n", a right 3 was graded different, sure of it.
  if (PROVISO_AFTER_VALUE.test(texts[0] ?? '')) return textAnswer(tex);
  return { kind: 'relation', parts: items, ops: ops.map((op) => RELATION_OPS[op] ?? '=') };
}

/** "x = (0, 9) \\cup (9, 36)", "x \\in A \\cup B": a label names the whole union, not its first part. */
function labelsWhole(tex: string): boolean {
  const { parts, found } = splitTopLevelWith(tex, RELATION_SEPARATORS);
  return found.length === 1 && (found[0] === '=' || found[0] === '\\in') && isLabel(parts[0] ?? '');
}

/** "x \mid", "x :", "x \in \mathbb{R} |": a letter of the reals, then the condition on it. */
const SET_BUILDER = /^([a-zA-Z])\s*(?:\\in\s*\\mathbb\s*\{?\s*R\s*\}?\s*)?(?:\\mid|\||:)\s*(.+)$/;

/** "(a, b) :", "(x,y) \mid": a tuple of letters, then the condition on them. */
const TUPLE_BUILDER = /^\(\s*([a-zA-Z](?:\s*,\s*[a-zA-Z])+)\s*\)\s*(?:\\mid|\||:)\s*(.+)$/;

/**
 * "\{(a,b): ab \le e^3\}": the pairs where one relation in their letters holds, as that relation ("ab \le e^3"). Its ":"
 * was read as a ratio and the set as one tuple, different from the relation, sure of it. Null for another condition,
 * an equation ("x = y" reads as a value of y) or letters out of alphabetical order.
 */
function tupleCondition(letters: string, conditionTex: string): Answer | null {
  const order = letters.split(',').map((l) => l.trim());
  // A bare relation's letters are its coordinates in alphabetical order: "\{(b,a): …\}" names the pairs the other way round.
  if (order.join() !== [...order].sort().join()) return null;
  const own = new Set(order);
  const condition = parseTop(conditionTex);
  if (condition.kind !== 'relation' || condition.ops.some((op) => op === '=' || op === '\\in' || op === '\\to')) return null;
  const used = mathLetters(conditionTex);
  return used.every((l) => own.has(l) || l === 'e') ? condition : null;
}

/**
 * "\{x \mid x > 2\}", "\{x \in \mathbb{R} : x \ne 2\}": a set of reals by
 * a condition of inequalities on its letter, as the relation (or union of
 * them) that compares by membership; null for any other set.
 */
function realCondition(inner: string): Answer | null {
  const tuple = TUPLE_BUILDER.exec(inner);
  if (tuple?.[1] !== undefined && tuple[2] !== undefined) return tupleCondition(tuple[1], tuple[2]);
  const m = SET_BUILDER.exec(inner);
  if (m?.[1] === undefined || m[2] === undefined) return null;
  const condition = parseTop(m[2]);
  const pieces = condition.kind === 'union' ? condition.parts : [condition];
  return pieces.every((piece) => inequalityLetter(piece) === m[1]) ? condition : null;
}

/**
 * "\{k^2 : k \in \mathbb{Z}\}": the colon of a set-builder is its bar, not a ratio. Read as one, the set was the
 * tuple "(k^2, k) \in \mathbb{Z}", another set than "\{k^2 \mid k \in \mathbb{Z}\}", sure of it. Only where a
 * condition follows it (a relation or a membership); "\{3 : 4\}" keeps its ratio.
 */
function builderBar(inner: string): string {
  const parts = splitTopLevel(inner, [':']);
  const [head, condition] = parts;
  if (parts.length !== 2 || head === undefined || condition === undefined || head.trim() === '') return inner;
  return /\\(?:in|le|ge|leq|geq|ne|neq|mid)(?![a-zA-Z])|[<>=]/.test(condition) ? `${head.trim()} \\mid ${condition.trim()}` : inner;
}

/**
 * "\{k \mid k \in \mathbb{Z}\}", "\{x \mid x = 2\}": a builder whose formula is only the letter its condition
 * ranges or names is that membership or equation, whose name is dropped as any label's; kept as a formula,
 * \mathbb{Z} was another set, and \{x \mid x = 2\} against \{x \mid x = 3\} unsure.
 */
function bareLetterBuilder(inner: string): string {
  const m = /^([A-Za-z])\s*\\mid\s*([A-Za-z])\s*((?:\\in(?![a-zA-Z])|=).*)$/s.exec(inner);
  return m !== null && m[1] === m[2] ? `${m[2]} ${m[3] ?? ''}` : inner;
}

/** Parses one item of a list: no top-level commas remain. */
function parseItem(input: string): Answer {
  const tex = input.trim();
  if (tex === '') return textAnswer('');
  if (/^\\emptyset$/.test(tex)) return { kind: 'set', items: [] };
  const union = splitTopLevel(tex, ['\\cup']);
  if (union.length > 1 && !labelsWhole(tex)) return { kind: 'union', parts: union.map(parseItem) };
  const relation = parseRelation(tex);
  if (relation !== null) return relation;
  if (tex.startsWith('\\{') && isWrapped(tex)) {
    const inner = tex.slice(2, -2).trim();
    if (inner === '') return { kind: 'set', items: [] };
    const condition = realCondition(builderBar(inner));
    if (condition !== null) return condition;
    const list = parseCommaList(bareLetterBuilder(builderBar(inner)));
    return { kind: 'set', items: list.kind === 'list' ? list.items : [list] };
  }
  if ((tex.startsWith('(') || tex.startsWith('[')) && isWrapped(tex)) {
    const inner = tex.slice(1, -1);
    const parts = splitTopLevel(inner, [',', ';']).map((p) => p.trim());
    // "(\pm 1, 0)" is the two tuples (1, 0) and (-1, 0), not a tuple with a list inside.
    const pm = parts.length >= 2 ? expandPlusMinus(tex) : null;
    if (pm !== null) return { kind: 'list', items: flatten(pm.map(parseItem)) };
    const open = tex.startsWith('(') ? '(' : '[';
    const close = tex.endsWith(')') ? ')' : ']';
    if (parts.length >= 2) return { kind: 'tuple', items: parts.map(parseItem), open, close };
    if (open === '(' && close === ')') return parseItem(inner);
  }
  if (tex.startsWith('{') && isWrapped(tex)) return parseTop(tex.slice(1, -1));
  const ratio = splitTopLevel(tex, [':']);
  if (ratio.length === 2 && ratio.every((r) => r.trim() !== '')) {
    // "Result: 110", "Lösung: 110": a word before the colon labels the answer, as `x =` does, and is no term of
    // a ratio. Read as the pair (Result, 110), it was graded different from 110 and sure of it.
    if (isWordLabel(ratio[0] ?? '')) return parseItem(ratio[1] ?? '');
    return { kind: 'tuple', items: ratio.map(parseItem), open: '(', close: ')', ratio: true };
  }
  if (/^\\text\{[^{}]*\}$/.test(tex)) return textAnswer(tex);
  // "No", "NO": the word, as "Yes" is; read as the product of N and o, "no" was different from "No".
  if (/^no$/i.test(tex)) return textAnswer(tex);
  // "\mathbb{R} \setminus \{\pm 1\}" is one set, whose excluded set reads its own "\pm" (real-sets.ts): split
  // into "\mathbb{R} \setminus \{1\}" or "\mathbb{R} \setminus \{-1\}", it was another set than \mathbb{R} \setminus \{-1, 1\}.
  const pm = splitTopLevel(tex, ['\\setminus']).length > 1 ? null : expandPlusMinus(tex);
  if (pm !== null) return { kind: 'list', items: flatten(pm.map(parseItem)) };
  const quantity = splitQuantity(tex);
  if (quantity.tex === '') return textAnswer(tex);
  if (isProse(quantity.tex)) return textAnswer(tex);
  const value = quantity.tex.replace(/\\text\{([^{}]*)\}/g, '$1');
  return { kind: 'expr', tex: value, percent: quantity.percent, unit: quantity.unit, looseUnit: quantity.looseUnit };
}

/**
 * Parses a cleaned answer. Semicolons separate groups when commas also
 * occur ("p=5,q=2; p=7,q=2"); otherwise they are commas ("-12;-11;-10").
 */
export function parseTop(tex: string): Answer {
  const normalized = tex
    .replace(/\\text\{\s*(or|或)\s*\}/g, ' or ')
    .replace(/\\text\{\s*(and|und|et|y|и|和)\s*\}/g, ' and ')
    .replace(/\\(?:quad|qquad)(?![a-zA-Z])/g, ' ');
  const groups = splitTopLevel(normalized, [';']).map((g) => g.trim()).filter((g) => g !== '');
  if (groups.length > 1) {
    const hasCommas = groups.some((g) => splitTopLevel(g, [',']).length > 1);
    const items = groups.map(parseCommaList);
    return { kind: 'list', items: hasCommas ? items : flatten(items) };
  }
  return parseCommaList(groups[0] ?? normalized);
}
