/**
 * Exact evaluation of a constant expression when its value is rational:
 * integers, fractions, decimals, integer powers, factorials, binomials, and
 * roots that come out rational. Floating point calls 2^{30} and 2^{30}+1
 * equal; this does not. Anything else (π, √2, a variable) has no exact value
 * here and is compared numerically.
 */
import type { MathNode } from 'mathjs';
import { bigMath, type Compiled } from './mathjs-env.ts';
import * as Q from './rational.ts';

const cache = new WeakMap<Compiled, Q.Rational | null>();

function constantOf(node: MathNode): Q.Rational | null {
  if (!('value' in node)) return null;
  const v: unknown = node.value;
  if (bigMath().isBigNumber(v)) return Q.parseDecimal(v.toFixed());
  if (typeof v === 'number' && Number.isFinite(v)) return Q.parseDecimal(String(v));
  return null;
}

function argsOf(node: MathNode): MathNode[] {
  return 'args' in node && Array.isArray(node.args) ? node.args : [];
}

function evaluate(node: MathNode): Q.Rational | null {
  switch (node.type) {
    case 'ConstantNode':
      return constantOf(node);
    case 'ParenthesisNode':
      return 'content' in node ? evaluate(node.content as MathNode) : null;
    case 'OperatorNode':
      return operator('fn' in node ? String(node.fn) : '', argsOf(node).map(evaluate));
    case 'FunctionNode':
      return call('fn' in node && typeof node.fn === 'object' && node.fn !== null && 'name' in node.fn ? String(node.fn.name) : '', argsOf(node).map(evaluate));
    default:
      return null;
  }
}

function operator(fn: string, args: Array<Q.Rational | null>): Q.Rational | null {
  if (args.some((a) => a === null)) return null;
  const [a, b] = args as Q.Rational[];
  if (a === undefined) return null;
  switch (fn) {
    case 'unaryMinus':
      return Q.rational(-a.p, a.q);
    case 'unaryPlus':
      return a;
    case 'add':
      return b === undefined ? null : Q.add(a, b);
    case 'subtract':
      return b === undefined ? null : Q.sub(a, b);
    case 'multiply':
      return b === undefined ? null : Q.mul(a, b);
    case 'divide':
      return b === undefined || b.p === 0n ? null : Q.div(a, b);
    case 'pow':
      return b === undefined ? null : powOrRoot(a, b);
    default:
      return null;
  }
}

/** a^b with b an integer, or a rational b = m/n when a has an exact n-th root. */
function powOrRoot(a: Q.Rational, b: Q.Rational): Q.Rational | null {
  if (Q.isInteger(b)) return Q.pow(a, b);
  const r = Q.root(a, Q.rational(b.q));
  return r === null ? null : Q.pow(r, Q.rational(b.p));
}

function call(name: string, args: Array<Q.Rational | null>): Q.Rational | null {
  if (args.some((a) => a === null)) return null;
  const [a, b] = args as Q.Rational[];
  if (a === undefined) return null;
  switch (name) {
    case 'factorial':
      return Q.factorial(a);
    case 'gamma':
      return Q.factorial(Q.sub(a, Q.rational(1n)));
    case 'dfact':
      return Q.doubleFactorial(a);
    case 'binom':
      return b === undefined ? null : Q.binomial(a, b);
    case 'sqrt':
      return Q.root(a, Q.rational(2n));
    case 'nthRoot':
      return b === undefined ? null : Q.root(a, b);
    case 'abs':
      return a.p < 0n ? Q.rational(-a.p, a.q) : a;
    case 'floor':
      return Q.floor(a);
    case 'ceil':
      return Q.rational(-Q.floor(Q.rational(-a.p, a.q)).p);
    default:
      return null;
  }
}

/** The exact rational value of a compiled constant expression, or null. Cached per compiled expression. */
export function exactValue(c: Compiled): Q.Rational | null {
  if (c.vars.length > 0 || c.funcs.length > 0) return null;
  const hit = cache.get(c);
  if (hit !== undefined || cache.has(c)) return hit ?? null;
  let value: Q.Rational | null = null;
  try {
    value = evaluate(bigMath().parse(c.code));
  } catch {
    value = null;
  }
  cache.set(c, value);
  return value;
}
