/**
 * Function applications in LaTeX, as mathjs calls: `\sin^2 x`, `\log_2 8`,
 * `\sin(x)`, `\max(a, b)`, inverse functions written `\sin^{-1}`, and big
 * operators (`\sum`, `\prod`) read as uninterpreted functions of their body,
 * or written out when their limits are numbers.
 */
import { FUNCTIONS, INVERSES, identifierFragment } from './latex-commands.ts';
import { TranslateError } from './latex-cursor.ts';
import type { LatexGrammar } from './latex-grammar.ts';

/** Functions of an angle: "\sin 30^\circ" is the sine of 30 degrees. */
const TRIGONOMETRIC = new Set(['sin', 'cos', 'tan', 'sec', 'csc', 'cot']);

/** `\sin^2 x`, `\log_2 8`, `\sin(x)`, `\max(a, b)`: the function `\name` (already taken) and its arguments. */
export function readFunction(grammar: LatexGrammar, name: string): string {
  const cursor = grammar.cursor;
  let power: string | null = null;
  let base: string | null = null;
  for (;;) {
    if (cursor.isOp('^')) {
      cursor.skip();
      power = grammar.exponent();
    } else if (cursor.isOp('_')) {
      cursor.skip();
      base = grammar.argument();
    } else break;
  }
  const args = TRIGONOMETRIC.has(name) ? grammar.angle(() => readArguments(grammar)) : readArguments(grammar);
  const mathName = FUNCTIONS[name] ?? name;
  if (name === 'log' && base !== null) return wrapPower(`log(${args.join(', ')}, ${base})`, power);
  if (power !== null && /^\(?\(?-1\)?\)?$/.test(power.replace(/\s/g, '')) && name in INVERSES) {
    return `${INVERSES[name] ?? name}(${args.join(', ')})`;
  }
  return wrapPower(`${mathName}(${args.join(', ')})`, power);
}

/** A function's arguments: parenthesised, braced, or the juxtaposed factors after it. */
function readArguments(grammar: LatexGrammar): string[] {
  const cursor = grammar.cursor;
  if (cursor.isOp('(')) {
    cursor.skip();
    return grammar.argumentList(')');
  }
  if (cursor.isOp('{')) {
    cursor.skip();
    return [grammar.groupUntil('}')];
  }
  // "\sin 2x" is sin(2x): the argument runs over juxtaposed factors but
  // stops at the next function ("\sin x \cos y").
  let arg = grammar.factor();
  for (;;) {
    const tok = cursor.peek();
    if (tok === undefined || !grammar.startsFactor(tok)) break;
    if (tok.t === 'cmd' && (tok.v in FUNCTIONS || tok.v === 'frac')) break;
    arg = `(${arg} * ${grammar.factor()})`;
  }
  return [arg];
}

/** Most terms a sum or product with numbers for limits is written out to; a longer one stays unevaluated. */
const MAX_TERMS = 200;

/** Most characters of mathjs source a sum or product is written out to. */
const MAX_WRITTEN = 20_000;

/** "sum_k=1^10": a big operator's index and its limits when both limits are integers. */
const NUMERIC_LIMITS = /^(?:sum|prod)_([a-zA-Z])=(-?\d{1,6})\^(-?\d{1,6})$/;

/**
 * `\sum_{k=0}^{n} body`: an uninterpreted function of the body, keyed by its
 * limits, so that two sums compare by their limits and bodies. With integers
 * for limits ("\sum_{k=1}^{10} k") it is written out, so it has its value (55).
 */
export function readBigOperator(grammar: LatexGrammar, name: string): string {
  const cursor = grammar.cursor;
  let limits = name;
  for (;;) {
    if (cursor.isOp('_') || cursor.isOp('^')) {
      limits += cursor.next().v;
      const tok = cursor.next();
      limits += tok.t === 'op' && tok.v === '{' ? cursor.rawUntil('}') : tok.v;
    } else break;
  }
  const numeric = NUMERIC_LIMITS.exec(limits);
  if (numeric === null) return `${grammar.unknownFunction(limits)}(${readBody(grammar)})`;
  const [, letter = '', from = '0', to = '0'] = numeric;
  const body = grammar.boundIn(letter, () => readBody(grammar));
  const written = writtenOut(name, body, `v_${identifierFragment(letter)}`, Number(from), Number(to));
  grammar.spend(written.length);
  return written;
}

/** The factors after a big operator: its body. */
function readBody(grammar: LatexGrammar): string {
  const cursor = grammar.cursor;
  let body = grammar.factor();
  for (;;) {
    const tok = cursor.peek();
    if (tok === undefined || !grammar.startsFactor(tok)) break;
    body = `(${body} * ${grammar.factor()})`;
  }
  return body;
}

/** The terms of a sum or product over index `id` from `from` to `to`, written out. */
function writtenOut(name: string, body: string, id: string, from: number, to: number): string {
  if (to < from) return name === 'sum' ? '0' : '1';
  // A sum too long to write out is one the rule does not evaluate: the comparison says unsure.
  // A sum of sums multiplies their terms: the text written out is bounded too.
  if (to - from + 1 > MAX_TERMS || (to - from + 1) * body.length > MAX_WRITTEN) throw new TranslateError('sum too long to write out');
  const index = new RegExp(`\\b${id}\\b`, 'g');
  const terms: string[] = [];
  for (let k = from; k <= to; k += 1) terms.push(body.replace(index, `(${k})`));
  return `(${terms.join(name === 'sum' ? ' + ' : ' * ')})`;
}

function wrapPower(call: string, power: string | null): string {
  return power === null ? call : `(${call} ^ ${power})`;
}
