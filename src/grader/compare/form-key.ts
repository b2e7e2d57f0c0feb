/**
 * The written form of an answer, as a key: two answers with the same key
 * are written the same way up to what no question asks about (spacing,
 * `\dfrac` or `/`, the order of the terms of a sum and of the factors of a
 * product, where a minus sign stands, brackets that change nothing, braces
 * around a list, a label "x =", a unit). Values are never computed: `(x-1)(x+2)` and `x^2+x-2`,
 * `\frac24` and `\frac12`, `0.5` and `\frac12`, `x \le 3` and
 * `(-\infty, 3]` have different keys. So an equal key is a sound "same
 * form", and a different key only says the forms may differ.
 */
import type { MathNode } from 'mathjs';
import { isLabel } from '../parse/labels.ts';
import { bigMath, compileLatex } from '../math/mathjs-env.ts';
import type { Answer } from '../parse/types.ts';

/** A key with its sign apart, so that `-2x`, `-(2x)` and `2(-x)` meet. */
interface Signed {
  negative: boolean;
  key: string;
}

const sorted = (keys: string[]): string => [...keys].sort().join(',');

function argsOf(node: MathNode): MathNode[] {
  return 'args' in node && Array.isArray(node.args) ? node.args : [];
}

function nameOf(node: MathNode): string {
  if ('fn' in node) {
    const fn: unknown = node.fn;
    if (typeof fn === 'string') return fn;
    if (typeof fn === 'object' && fn !== null && 'name' in fn) return String(fn.name);
  }
  return 'name' in node ? String(node.name) : node.type;
}

function withSign(signed: Signed): string {
  return signed.negative ? `-${signed.key}` : signed.key;
}

/** The terms of a sum, each with its sign: `a - (b - c)` is a, -b, c. */
function terms(node: MathNode, negative: boolean, out: Signed[]): void {
  const inner = node.type === 'ParenthesisNode' && 'content' in node ? (node.content as MathNode) : node;
  const name = inner.type === 'OperatorNode' ? nameOf(inner) : '';
  const [a, b] = argsOf(inner);
  if ((name === 'add' || name === 'subtract') && a !== undefined && b !== undefined) {
    terms(a, negative, out);
    terms(b, name === 'subtract' ? !negative : negative, out);
    return;
  }
  if (name === 'unaryMinus' && a !== undefined) return terms(a, !negative, out);
  const term = signedKey(inner);
  out.push({ negative: term.negative !== negative, key: term.key });
}

/**
 * The factors of a product, with the signs of all of them pulled out; with `below`, those of the fractions in it
 * go to their numerator (`out`) and denominator (`below`), so that `\frac{1}{3}\sqrt{3}` and `\frac{\sqrt{3}}{3}` meet.
 */
function factors(node: MathNode, out: Signed[], below?: Signed[]): void {
  // "{\frac{1}{n}}4": a group in braces may reach here as parentheses in parentheses.
  let inner = node;
  while (inner.type === 'ParenthesisNode' && 'content' in inner) inner = inner.content as MathNode;
  const [a, b] = argsOf(inner);
  const name = inner.type === 'OperatorNode' ? nameOf(inner) : '';
  if (name === 'multiply' && a !== undefined && b !== undefined) {
    factors(a, out, below);
    factors(b, out, below);
    return;
  }
  if (name === 'divide' && below !== undefined && a !== undefined && b !== undefined) {
    factors(a, out, below);
    factors(b, below);
    return;
  }
  out.push(signedKey(inner));
}

/** The key of some factors: one alone, several without order; a 1 beside others changes nothing. */
function productKey(keys: readonly string[]): string {
  const kept = keys.length > 1 ? keys.filter((key) => key !== '1') : [...keys];
  if (kept.length === 0) return '1';
  return kept.length === 1 ? (kept[0] ?? '1') : `*[${sorted([...kept])}]`;
}

/**
 * A product or a quotient: `*[…]` without a fraction in it, else `/[numerator,denominator]` over all its fractions.
 * "\frac{3}{4}\sqrt{3}" against "\frac{3\sqrt{3}}{4}" under "simplest radical form": told apart, a right answer was unsure.
 */
function fractionKey(node: MathNode): Signed {
  const out: Signed[] = [];
  const below: Signed[] = [];
  factors(node, out, below);
  const negative = [...out, ...below].filter((f) => f.negative).length % 2 === 1;
  if (below.length === 0) return { negative, key: `*[${sorted(out.map((f) => f.key))}]` };
  return { negative, key: `/[${productKey(out.map((f) => f.key))},${productKey(below.map((f) => f.key))}]` };
}

function signedKey(node: MathNode): Signed {
  if (node.type === 'ParenthesisNode' && 'content' in node) return signedKey(node.content as MathNode);
  if (node.type === 'ConstantNode' && 'value' in node) return { negative: false, key: String(node.value) };
  if (node.type === 'SymbolNode') return { negative: false, key: nameOf(node) };
  const name = nameOf(node);
  const args = argsOf(node);
  if (node.type === 'OperatorNode') {
    if (name === 'add' || name === 'subtract') {
      const out: Signed[] = [];
      terms(node, false, out);
      return { negative: false, key: `+[${sorted(out.map(withSign))}]` };
    }
    if (name === 'multiply' || name === 'divide') return fractionKey(node);
    if (name === 'unaryMinus' || name === 'unaryPlus') {
      const inner = signedKey(args[0] ?? node);
      return { negative: inner.negative !== (name === 'unaryMinus'), key: inner.key };
    }
  }
  // Powers, roots, functions: in order, each argument with its sign.
  return { negative: false, key: `${name}(${args.map((arg) => withSign(signedKey(arg))).join(',')})` };
}

/** The key of one expression in cleaned LaTeX; its text without spaces when the translator cannot read it. */
function expressionKey(tex: string): string {
  const compiled = compileLatex(tex.trim());
  if (compiled === null) return tex.replace(/\s+/g, '');
  try {
    return withSign(signedKey(bigMath().parse(compiled.code)));
  } catch {
    return tex.replace(/\s+/g, '');
  }
}

/** The value a labelled equation states ("x = 5", "f(x) = 2x", "x \in [-2, 7]"): the label is not the form. */
function unlabelled(answer: Answer): Answer {
  if (answer.kind !== 'relation' || answer.ops.length !== 1 || (answer.ops[0] !== '=' && answer.ops[0] !== '\\in')) return answer;
  const [lhs, rhs] = answer.parts;
  return lhs?.kind === 'expr' && rhs !== undefined && isLabel(lhs.tex) ? rhs : answer;
}

/** The form key of a parsed answer: sets, lists and unions without order, tuples and intervals with it. */
export function formKey(input: Answer): string {
  const answer = unlabelled(input);
  switch (answer.kind) {
    case 'expr':
      return expressionKey(answer.tex) + (answer.percent ? '%' : '');
    case 'text':
      return `text(${answer.text.toLowerCase().replace(/\s+/g, ' ').trim()})`;
    case 'tuple':
      return `${answer.open}${answer.items.map(formKey).join(',')}${answer.close}`;
    // "\{1, 3, 5\}" and "1, 3, 5": braces around the values are no form a question asks for. Told apart, a right set
    // was unsure against a list where the question's statement named a form ("the prime factorization of $n$").
    case 'set':
    case 'list':
      return `list[${sorted([...new Set(answer.items.map(formKey))])}]`;
    case 'union':
      return `union[${sorted(answer.parts.map(formKey))}]`;
    case 'relation':
      return `rel[${answer.parts.map(formKey).reduce((acc, part, k) => `${acc}${answer.ops[k - 1] ?? ''}${part}`)}]`;
    case 'cases':
      return `cases[${answer.label ?? ''};${sorted(answer.items.map((c) => `${c.when}:${formKey(c.value)}`))}]`;
  }
}
