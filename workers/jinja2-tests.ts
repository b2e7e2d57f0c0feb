/**
 * jinja2's tests (`x is string`, `x is in list`, `n is divisibleby 3`,
 * `x is sameas false`, `n is gt(2)`) read and told as jinja2 reads and tells
 * them.
 *
 * `@huggingface/jinja` parses a test without an argument only: `x is in
 * names`, which upstream chat templates write, did not parse, and the
 * template was refused. Its tests are JavaScript's: `true is number` was
 * false (Python: a bool is a number), `'123' is lower` true (Python: no cased
 * letter, false), `true is odd` failed. Here the tokens of a test with an
 * argument are rewritten before the library parses them into a filter call of
 * a name no template can write, which `testNodesOf` turns into a test node
 * with its arguments; and every test node is told by `pyTest`, as jinja2's
 * tests.py tells it.
 */
import { pyEquals, pyStr, type RuntimeValue } from './python-str.ts';
import { OPENERS, pastGroup, rewriteSegments, type Token } from './jinja2-token-groups.ts';

/** What begins a filter name that stands for a test with arguments: a name no template can write. */
const TEST_MARK = 'is:';

/** Tokens that begin a test's argument written without parentheses (jinja2's parse_test). */
const ARGUMENT_STARTS = new Set(['Identifier', 'StringLiteral', 'NumericLiteral', 'OpenParen', 'OpenSquareBracket', 'OpenCurlyBracket']);
/** Names that end a test rather than begin its argument. */
const NOT_ARGUMENTS = new Set(['else', 'or', 'and']);

/** The index just past a test's argument at `start`: a name, a literal or a bracketed group, then its lookups and calls. */
function pastArgument(tokens: readonly Token[], start: number): number {
  const first = tokens[start] as Token;
  let at = OPENERS.has(first.type) ? pastGroup(tokens, start) : start + 1;
  // Adjacent strings are one: 'a' 'b' is 'ab'.
  while (first.type === 'StringLiteral' && tokens[at]?.type === 'StringLiteral') at++;
  for (;;) {
    const type = tokens[at]?.type;
    if (type === 'Dot' && ['Identifier', 'NumericLiteral'].includes(tokens[at + 1]?.type ?? '')) at += 2;
    else if (type === 'OpenSquareBracket' || type === 'OpenParen') at = pastGroup(tokens, at);
    else return at;
  }
}

/** The test at `is` (tokens[start]) with its arguments as a marked filter call, and where it ends; null for a test without arguments. */
function testCall(tokens: readonly Token[], start: number): { call: Token[]; end: number } | null {
  let at = start + 1;
  const negate = tokens[at]?.type === 'Identifier' && tokens[at]?.value === 'not';
  if (negate) at++;
  const name = tokens[at];
  const next = tokens[at + 1];
  if (name?.type !== 'Identifier' || next === undefined) return null;
  let args: Token[];
  let end: number;
  if (next.type === 'OpenParen') {
    end = pastGroup(tokens, at + 1);
    args = tokens.slice(at + 2, end - 1);
  } else if (ARGUMENT_STARTS.has(next.type) && !(next.type === 'Identifier' && NOT_ARGUMENTS.has(next.value))) {
    end = pastArgument(tokens, at + 1);
    args = tokens.slice(at + 1, end);
  } else {
    // A test without arguments is marked so too: a filter after it (`x is defined | string`) then applies to its
    // result, as in jinja2, whose tests are read with the filters; the library's parser failed on that pipe.
    args = [];
    end = at + 1;
  }
  const marked = `${TEST_MARK}${negate ? 'not ' : ''}${name.value}`;
  return { call: [{ type: 'Pipe', value: '|' }, { type: 'Identifier', value: marked }, { type: 'OpenParen', value: '(' }, ...args, { type: 'CloseParen', value: ')' }], end };
}

/** `tokens` with each test that has arguments written as a marked filter call, which the library parses. */
export function withTestArguments(tokens: readonly Token[]): Token[] {
  const out: Token[] = [];
  for (let at = 0; at < tokens.length; at++) {
    const token = tokens[at] as Token;
    const test = token.type === 'Identifier' && token.value === 'is' ? testCall(tokens, at) : null;
    if (test === null) {
      out.push(token);
      continue;
    }
    out.push(...test.call);
    at = test.end - 1;
  }
  return out;
}

/** Tokens that end a chain of comparisons: jinja2's operators below them, and what separates expressions. */
const CHAIN_ENDS = new Set(['Comma', 'Colon', 'Equals', 'OpenStatement', 'CloseStatement', 'OpenExpression', 'CloseExpression', 'Text', 'Comment']);
const CHAIN_END_NAMES = new Set(['and', 'or', 'not', 'if', 'else', 'for']);

/**
 * Whether `token` (between `previous` and `next`) ends a chain: `not` does, but not where it begins the operator
 * `not in` or follows `is`. A test (`x is defined`, `x is not none`) binds tighter than a comparison in jinja2, so it
 * stays in its operand: `a is string < b in c` was split at `is`, and did not parse.
 */
function endsChain(token: Token, next: Token | undefined, previous: Token | undefined): boolean {
  const named = (candidate: Token | undefined, name: string) => candidate?.type === 'Identifier' && candidate.value === name;
  if (named(token, 'not') && (named(next, 'in') || named(previous, 'is'))) return false;
  return CHAIN_ENDS.has(token.type) || (token.type === 'Identifier' && CHAIN_END_NAMES.has(token.value));
}

/** Whether the part at `index` of a segment is a comparison: `==`, `<`, … or `in` (`not in` is `not` before `in`). */
function isComparison(segment: readonly Token[][], index: number): boolean {
  const [token, ...rest] = segment[index] as Token[];
  if (rest.length > 0 || token === undefined) return false;
  if (token.type === 'ComparisonBinaryOperator') return true;
  if (token.type !== 'Identifier') return false;
  const next = segment[index + 1];
  return token.value === 'in' || (token.value === 'not' && next?.length === 1 && next[0]?.type === 'Identifier' && next[0].value === 'in');
}

/** A segment of one depth written with its chained comparisons apart: `a < b < c` as `((a < b) and (b < c))`, and `a in b == c` so, as jinja2 reads it. */
function unchained(segment: Token[][]): Token[] {
  const operands: Token[][] = [[]];
  const operators: Token[][] = [];
  for (let index = 0; index < segment.length; index++) {
    const part = segment[index] as Token[];
    if (!isComparison(segment, index)) {
      (operands.at(-1) as Token[]).push(...part);
      continue;
    }
    // `not in` is one operator of two tokens.
    const operator = (part[0] as Token).value === 'not' ? [...part, ...(segment[++index] as Token[])] : part;
    operators.push(operator);
    operands.push([]);
  }
  if (operators.length < 2) return segment.flat();
  const open = { type: 'OpenParen', value: '(' };
  const close = { type: 'CloseParen', value: ')' };
  const pairs = operators.map((operator, i) => [open, ...(operands[i] as Token[]), ...operator, ...(operands[i + 1] as Token[]), close]);
  return [open, ...pairs.flatMap((pair, i) => (i === 0 ? pair : [{ type: 'Identifier', value: 'and' }, ...pair])), close];
}

/**
 * `tokens` with every chain of comparisons written as jinja2 reads it: the library read `0 < n < 3` as
 * `(0 < n) < 3`, a bool compared with 3, and `(a == b) != (c == d)`, which chat templates write, is no chain.
 */
export function withUnchainedComparisons(tokens: readonly Token[]): Token[] {
  return rewriteSegments(tokens, endsChain, unchained);
}

interface Node {
  type: string;
  [field: string]: unknown;
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

/** The parsed template with each marked filter call made a test node with its arguments (`args`), in place. */
export function testNodesOf<T>(root: T): T {
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (!isNode(value)) return;
    for (const child of Object.values(value)) walk(child);
    const filter = value.filter as { callee?: { value?: unknown }; args?: unknown[] } | undefined;
    const name = value.type === 'FilterExpression' ? filter?.callee?.value : undefined;
    if (typeof name !== 'string' || !name.startsWith(TEST_MARK)) return;
    const [negate, test] = name.startsWith(`${TEST_MARK}not `) ? [true, name.slice(TEST_MARK.length + 4)] : [false, name.slice(TEST_MARK.length)];
    const operand = value.operand;
    for (const key of Object.keys(value)) delete value[key];
    Object.assign(value, { type: 'TestExpression', operand, negate, test: { type: 'Identifier', value: test }, args: filter?.args ?? [] });
  };
  walk(root);
  return root;
}

const NUMBERS = new Set(['IntegerValue', 'FloatValue', 'BooleanValue']);

/** Python's type name of a value, for its error messages. */
export function pyType(value: RuntimeValue): string {
  const names: Record<string, string> = { IntegerValue: 'int', FloatValue: 'float', BooleanValue: 'bool', StringValue: 'str', NullValue: 'NoneType', ArrayValue: 'list', TupleValue: 'tuple', ObjectValue: 'dict', UndefinedValue: 'Undefined' };
  return names[value.type] ?? value.type;
}

/**
 * Python's `a < b` (-1), `==` (0), `>` (1) of numbers, of texts (by code point) or of two lists or two tuples (at
 * their first unequal items, else by length); a TypeError like Python's for other pairs.
 */
export function pyCompare(a: RuntimeValue, b: RuntimeValue, operator: string): number {
  if (NUMBERS.has(a.type) && NUMBERS.has(b.type)) return Math.sign(Number(a.value) - Number(b.value));
  if (a.type === 'StringValue' && b.type === 'StringValue') {
    const [x, y] = [Array.from(String(a.value), (c) => c.codePointAt(0) ?? 0), Array.from(String(b.value), (c) => c.codePointAt(0) ?? 0)];
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return Math.sign((x[i] as number) - (y[i] as number));
    return Math.sign(x.length - y.length);
  }
  if ((a.type === 'ArrayValue' || a.type === 'TupleValue') && a.type === b.type) {
    const [x, y] = [a.value as RuntimeValue[], b.value as RuntimeValue[]];
    const unequal = x.findIndex((item, index) => index < y.length && !pyEquals(item, y[index] as RuntimeValue));
    return unequal >= 0 ? pyCompare(x[unequal] as RuntimeValue, y[unequal] as RuntimeValue, operator) : Math.sign(x.length - y.length);
  }
  throw new TypeError(`'${operator}' not supported between instances of '${pyType(a)}' and '${pyType(b)}'`);
}

/** Python's `item in container`: a list's or tuple's items by ==, a text's substrings, a record's keys; nothing is in an undefined value. */
export function pyContains(container: RuntimeValue, item: RuntimeValue): boolean {
  if (container.type === 'ArrayValue' || container.type === 'TupleValue') return (container.value as RuntimeValue[]).some((member) => pyEquals(item, member));
  if (container.type === 'StringValue') {
    if (item.type !== 'StringValue') throw new TypeError(`'in <string>' requires string as left operand, not ${pyType(item)}`);
    return String(container.value).includes(String(item.value));
  }
  if (container.value instanceof Map) return [...container.value.keys()].some((key) => (item.type === 'StringValue' || typeof key === 'number') && item.value === key);
  if (container.type === 'UndefinedValue') return false;
  throw new TypeError(`argument of type '${pyType(container)}' is not iterable`);
}

/** Python's str.islower() or isupper() of a value's str(): a cased letter at least, and every one in that case. */
function inCase(value: RuntimeValue, lower: boolean): boolean {
  const letters = Array.from(pyStr(value)).filter((char) => char.toLowerCase() !== char.toUpperCase());
  return letters.length > 0 && letters.every((char) => char === (lower ? char.toLowerCase() : char.toUpperCase()));
}

/** Python's `%` of numbers, for odd, even and divisibleby. */
function remainder(value: RuntimeValue, divisor: number): number {
  if (!NUMBERS.has(value.type)) throw new TypeError(`unsupported operand type(s) for %: '${pyType(value)}' and 'int'`);
  const mod = Number(value.value) % divisor;
  return mod !== 0 && Math.sign(mod) !== Math.sign(divisor) ? mod + divisor : mod;
}

type Test = (value: RuntimeValue, args: RuntimeValue[]) => boolean;

const ORDER: Readonly<Record<string, [string, (sign: number) => boolean]>> = {
  lt: ['<', (s) => s < 0],
  le: ['<=', (s) => s <= 0],
  gt: ['>', (s) => s > 0],
  ge: ['>=', (s) => s >= 0],
};
const ALIASES: Readonly<Record<string, string>> = { '<': 'lt', lessthan: 'lt', '<=': 'le', '>': 'gt', greaterthan: 'gt', '>=': 'ge', '==': 'eq', equalto: 'eq', '!=': 'ne' };

/** jinja2's tests, as its tests.py tells them. */
const TESTS: Readonly<Record<string, Test>> = {
  defined: (v) => v.type !== 'UndefinedValue',
  undefined: (v) => v.type === 'UndefinedValue',
  none: (v) => v.type === 'NullValue',
  boolean: (v) => v.type === 'BooleanValue',
  true: (v) => v.type === 'BooleanValue' && v.value === true,
  false: (v) => v.type === 'BooleanValue' && v.value === false,
  integer: (v) => v.type === 'IntegerValue',
  float: (v) => v.type === 'FloatValue',
  number: (v) => NUMBERS.has(v.type),
  string: (v) => v.type === 'StringValue',
  mapping: (v) => v.type === 'ObjectValue' || v.type === 'KeywordArgumentsValue',
  sequence: (v) => ['StringValue', 'ArrayValue', 'TupleValue', 'ObjectValue', 'UndefinedValue'].includes(v.type),
  iterable: (v) => ['StringValue', 'ArrayValue', 'TupleValue', 'ObjectValue', 'UndefinedValue'].includes(v.type),
  callable: (v) => v.type === 'FunctionValue',
  escaped: () => false,
  lower: (v) => inCase(v, true),
  upper: (v) => inCase(v, false),
  odd: (v) => remainder(v, 2) === 1,
  even: (v) => remainder(v, 2) === 0,
  divisibleby: (v, [n]) => remainder(v, Number(n?.value)) === 0,
  eq: (v, [other]) => pyEquals(v, other as RuntimeValue),
  ne: (v, [other]) => !pyEquals(v, other as RuntimeValue),
  in: (v, [container]) => pyContains(container as RuntimeValue, v),
  // Python's identity: one object, or (as CPython keeps them) the same small number, text, None or bool.
  sameas: (v, [other]) => other?.type === v.type && other.value === v.value,
};

/** Whether jinja2 has the test `name`. */
export function isPyTest(name: string): boolean {
  const canonical = ALIASES[name] ?? name;
  return Object.hasOwn(TESTS, canonical) || Object.hasOwn(ORDER, canonical);
}

/** `value is name(args)` as jinja2 tells it; throws naming the test when jinja2 has none so named. */
export function pyTest(name: string, value: RuntimeValue, args: RuntimeValue[]): boolean {
  const canonical = ALIASES[name] ?? name;
  const order = ORDER[canonical];
  if (order !== undefined) return order[1](pyCompare(value, args[0] as RuntimeValue, order[0]));
  const test = TESTS[canonical];
  if (test === undefined) throw new Error(`No test named '${name}'`);
  if (['divisibleby', 'eq', 'ne', 'in', 'sameas'].includes(canonical) && args.length === 0) throw new TypeError(`the test '${name}' takes an argument`);
  return test(value, args);
}
