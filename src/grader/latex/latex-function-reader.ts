/**
 * Function applications in LaTeX, as mathjs calls: `\sin^2 x`, `\log_2 8`,
 * `\sin(x)`, `\max(a, b)`, inverse functions written `\sin^{-1}`, and big
 * operators (`\sum`, `\prod`) read as uninterpreted functions of their body.
 */
import { FUNCTIONS, INVERSES } from './latex-commands.ts';
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

/** `\sum_{k=0}^{n} body`: an uninterpreted function of the body, keyed by its limits. */
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
  let body = grammar.factor();
  for (;;) {
    const tok = cursor.peek();
    if (tok === undefined || !grammar.startsFactor(tok)) break;
    body = `(${body} * ${grammar.factor()})`;
  }
  return `${grammar.unknownFunction(limits)}(${body})`;
}

function wrapPower(call: string, power: string | null): string {
  return power === null ? call : `(${call} ^ ${power})`;
}
