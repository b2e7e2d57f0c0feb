/**
 * A user's template rendered as Python's jinja2 renders it, where
 * `@huggingface/jinja` would print or compare otherwise, and within a bound.
 *
 * The library writes a value as JavaScript does: `true`, `false`, nothing for
 * None, a list or record as JSON (`["a", "b"]`), 1e16 as 10000000000000000;
 * jinja2 writes Python's `str()`: `True`, `False`, `None`, `['a', 'b']`,
 * `1e+16`. So a prompt that printed a flag, a value that may be None or a
 * list was sent otherwise than its author's jinja2 renders it, without a
 * word. Its `==` is JavaScript's loose one (`'1' == 1` true, `[1] == [1]`
 * false), its `~` and `join` write JavaScript's texts. Here every printed
 * value, every `~`, `join` and `string` goes through Python's `str()`, and
 * `==`/`!=` compare as Python does.
 *
 * A template is code from outside, and jinja2 will loop over `range(10**9)`:
 * a render evaluates at most MAX_STEPS expressions and statements, and a
 * `range()` longer than that is refused before it is made, so a template that
 * would not end stops with a TemplateBoundError (on the host's sample render,
 * before any call) instead of holding the thread for ever.
 */
import * as jinja from '@huggingface/jinja';
import type { Template } from '@huggingface/jinja';
import { markTuple, pyCharAt, pyEquals, pyLength, pyModulo, pyStr, pyStrip, pyToJson, type RuntimeValue } from './python-str.ts';

/** Expressions, statements and loop passes one render may evaluate: a thousand records with twenty tags each is 20,000; the bound is a few seconds of a loaded core. */
export const MAX_STEPS = 200_000;

/**
 * Characters one render may make, in any one text or printed in all: 32 Mi, some 8 million tokens, far past any
 * model's window (a 131k window's prompt is about half a megabyte, a 1M window's a few). A template that doubles
 * a text in a loop, or prints a value a million times, made hundreds of megabytes that every call then counted
 * for minutes, to send nothing.
 */
export const MAX_RENDERED_CHARS = 32 * 1024 * 1024;

/** A render that passed MAX_STEPS or MAX_RENDERED_CHARS, or asked for a range() longer than MAX_STEPS. */
export class TemplateBoundError extends Error {
  override name = 'TemplateBoundError';
}

/** A node of the parsed template (the library exports no AST types). */
interface Node {
  type: string;
}
type Value = RuntimeValue;

/** What this file uses of the library's runtime (its package's type declarations do not resolve it under NodeNext). */
interface Environment {
  variables: Map<string, Value>;
  /** Declares a variable, converted to the library's value, which it returns; throws when it is declared already. */
  set(name: string, value: unknown): Value;
  lookupVariable(name: string): Value;
}
interface Interpreter {
  evaluate(node: Node | undefined, environment: Environment): Value;
  run(program: Node): Value;
}
const Environment = jinja.Environment as unknown as new () => Environment;
const Interpreter = jinja.Interpreter as unknown as new (environment: Environment) => Interpreter;

/** The node that prints the value of the expression it holds, with Python's str(). */
const OUTPUT = 'Jinja2Output';
/** The node that opens each pass of a loop: it prints nothing, and counts a step (a loop with an empty body evaluates nothing else). */
const PASS = 'Jinja2Pass';

/** A value already evaluated, handed back to the library in place of the expression it came from (so that nothing is evaluated twice). */
const EVALUATED = 'Jinja2Evaluated';

function evaluated(value: Value): Node {
  return { type: EVALUATED, value } as Node;
}

/** A text's methods that strip it. */
const STRIPS = new Set(['strip', 'lstrip', 'rstrip']);
/** A record's methods and filters that give its (key, value) pairs. */
const PAIRS = new Set(['items', 'dictsort']);

/** Statements that print nothing of their own: every other node of a body is an expression, printed. */
const STATEMENTS = new Set(['If', 'For', 'Break', 'Continue', 'Set', 'Macro', 'Comment', 'FilterStatement', 'CallStatement', 'Program']);
/** The fields of a statement that hold a body (a list of statements). */
const BODIES = ['body', 'alternate', 'defaultBlock'];

/** `node` with each expression of its bodies wrapped in an output node; the parsed template itself is left as it is (the checks walk it). */
function withOutputs(node: Node): Node {
  const copy: Record<string, unknown> = { ...node };
  for (const field of BODIES) {
    const body = copy[field];
    if (!Array.isArray(body)) continue;
    const wrapped = body.map((child: Node) => {
      if (STATEMENTS.has(child.type)) return withOutputs(child);
      // Text between the tags prints as it is.
      return child.type === 'StringLiteral' ? child : { type: OUTPUT, value: child };
    });
    copy[field] = node.type === 'For' && field === 'body' ? [{ type: PASS }, ...wrapped] : wrapped;
  }
  return copy as unknown as Node;
}

/** Each parsed template's program with its outputs wrapped, made at its first render. */
const programs = new WeakMap<Template, Node>();

/** Where a JavaScript value is made into the library's (its constructors are not exported): one per thread. */
let scratch: Environment | null = null;

/** A JavaScript value as the library holds it. */
function runtime(value: unknown): Value {
  scratch ??= new Environment();
  scratch.variables.delete('value');
  return scratch.set('value', value);
}

/** The argument of a filter that is a call, or none. */
function filterArgs(filter: unknown): Node[] {
  const call = filter as { type?: string; args?: Node[] };
  return call.type === 'CallExpression' && Array.isArray(call.args) ? call.args : [];
}

function filterName(filter: unknown): string {
  const node = filter as { type?: string; value?: unknown; callee?: { value?: unknown } };
  return String(node.type === 'CallExpression' ? node.callee?.value : node.value);
}

class Jinja2Interpreter extends Interpreter {
  private steps = 0;
  /** Characters printed so far (a macro's or a set block's counted where made and again where printed: an upper bound). */
  private printed = 0;

  override evaluate(node: Node | undefined, environment: Environment): Value {
    const value = this.evaluateOnce(node, environment);
    if (typeof value.value === 'string' && value.value.length > 0) {
      // A printed value, or the template's own text (a literal in an expression counts too: an upper bound).
      if (node?.type === OUTPUT || node?.type === 'StringLiteral') this.printed += value.value.length;
      if (value.value.length > MAX_RENDERED_CHARS || this.printed > MAX_RENDERED_CHARS) {
        const size = Math.max(value.value.length, this.printed);
        throw new TemplateBoundError(`the template made more than ${(MAX_RENDERED_CHARS / 1024 / 1024).toFixed(0)} Mi characters (${(size / 1024 / 1024).toFixed(0)} Mi at least) for one prompt, so it was stopped: far more than any context window holds: a text doubled or printed over and over in a "for" loop`);
      }
    }
    return value;
  }

  private evaluateOnce(node: Node | undefined, environment: Environment): Value {
    if (++this.steps > MAX_STEPS) {
      throw new TemplateBoundError(`the template took more than ${MAX_STEPS.toLocaleString('en-US')} steps (expressions and loop passes) for one prompt, so it was stopped: a "for" loop over millions of items, loops nested too deep, or hundreds of thousands of tags`);
    }
    if (node === undefined) return super.evaluate(node, environment);
    if (node.type === PASS) return runtime(undefined);
    if (node.type === EVALUATED) return (node as unknown as { value: Value }).value;
    if (node.type === 'MemberExpression') return this.member(node, environment);
    if (node.type === 'CallExpression') return this.call(node, environment);
    if (node.type === OUTPUT) return runtime(pyStr(this.evaluate((node as unknown as { value: Node }).value, environment)));
    if (node.type === 'BinaryExpression') {
      const { left, right, operator } = node as unknown as { left: Node; right: Node; operator: { value: string } };
      if (operator.value === '==' || operator.value === '!=') {
        const equal = pyEquals(this.evaluate(left, environment), this.evaluate(right, environment));
        return runtime(operator.value === '==' ? equal : !equal);
      }
      if (operator.value === '~') return runtime(pyStr(this.evaluate(left, environment)) + pyStr(this.evaluate(right, environment)));
      if (operator.value === '%') return this.modulo(node, left, right, environment);
      if (operator.value === 'in' || operator.value === 'not in') return this.membership(node, left, right, environment);
    }
    if (node.type === 'FilterExpression') return this.filter(node, environment);
    if (node.type === 'TestExpression' && (node as unknown as { test: { value: string } }).test.value === 'iterable') return this.iterable(node, environment);
    return super.evaluate(node, environment);
  }

  /**
   * `string`, `join` (with a separator or none), `length` and `trim` as jinja2 gives them: Python's str() of each
   * item, a text's length in characters (not UTF-16 units), Python's whitespace; every other filter is the library's.
   */
  private filter(node: Node, environment: Environment): Value {
    const { operand, filter } = node as unknown as { operand: Node; filter: unknown };
    const name = filterName(filter);
    const args = filterArgs(filter);
    const value = this.evaluate(operand, environment);
    const library = (): Value => super.evaluate({ ...node, operand: evaluated(value) } as Node, environment);
    if (args.length === 0 && name === 'string') return runtime(pyStr(value));
    if (PAIRS.has(name)) return this.pairs(library());
    if ((name === 'first' || name === 'last') && args.length === 0) return endOf(value, name) ?? library();
    if (name === 'tojson') return runtime(pyToJson(value, this.indentOf(args, environment)));
    if (args.length === 0 && typeof value.value === 'string' && (name === 'length' || name === 'trim')) {
      return runtime(name === 'length' ? pyLength(value.value) : pyStrip(value.value, 'strip'));
    }
    if (name === 'trim' && args.length === 1 && typeof value.value === 'string') return this.trimmed(value.value, args[0] as Node, environment);
    if (name !== 'join' || !Array.isArray(value.value)) return library();
    return this.join(value.value as Value[], args, environment);
  }

  /** join(d='', attribute=None): Python's str() of each item, or of the attribute named (a dotted path: 'a.b', 'items.0'); the library printed a record's [object Map]. */
  private join(items: Value[], args: Node[], environment: Environment): Value {
    const named = new Map<string, Node>();
    const positional: Node[] = [];
    for (const arg of args) {
      if (arg.type !== 'KeywordArgumentExpression') positional.push(arg);
      else named.set(String((arg as unknown as { key: { value: unknown } }).key.value), (arg as unknown as { value: Node }).value);
    }
    const [separatorNode = named.get('d'), attributeNode = named.get('attribute')] = positional;
    const separator = separatorNode === undefined ? '' : pyStr(this.evaluate(separatorNode, environment));
    const attribute = attributeNode === undefined ? null : this.evaluate(attributeNode, environment);
    const path = attribute === null || attribute.type === 'NullValue' ? [] : String(attribute.value).split('.');
    return runtime(items.map((item) => pyStr(path.reduce(attributeOf, item))).join(separator));
  }

  /** trim(chars) or trim(chars=...): the characters given taken off both ends (none: whitespace). */
  private trimmed(text: string, arg: Node, environment: Environment): Value {
    const chars = this.evaluate(arg.type === 'KeywordArgumentExpression' ? (arg as unknown as { value: Node }).value : arg, environment);
    return runtime(pyStrip(text, 'strip', chars.type === 'NullValue' ? undefined : pyStr(chars)));
  }

  /** `is iterable` as jinja2 tells it: a record, a tuple and an undefined value are (the library said a record and a tuple were not). */
  private iterable(node: Node, environment: Environment): Value {
    const { operand, negate } = node as unknown as { operand: Node; negate: boolean };
    const value = this.evaluate(operand, environment);
    const iterable = ['StringValue', 'ArrayValue', 'TupleValue', 'ObjectValue', 'UndefinedValue'].includes(value.type);
    return runtime(negate ? !iterable : iterable);
  }

  /** tojson's indent: tojson(2) or tojson(indent=2); null without one. */
  private indentOf(args: Node[], environment: Environment): number | null {
    const [arg] = args;
    if (arg === undefined) return null;
    const node = arg.type === 'KeywordArgumentExpression' ? (arg as unknown as { value: Node }).value : arg;
    const indent = this.evaluate(node, environment);
    return typeof indent.value === 'number' ? indent.value : null;
  }

  /** A text's character at an index, counted in characters as Python does (the library counts UTF-16 units: half an emoji); the rest is the library's. */
  private member(node: Node, environment: Environment): Value {
    const { object, property, computed } = node as unknown as { object: Node; property: Node; computed: boolean };
    const value = this.evaluate(object, environment);
    if (!computed || property.type === 'SliceExpression' || typeof value.value !== 'string') return super.evaluate({ ...node, object: evaluated(value) } as Node, environment);
    const index = this.evaluate(property, environment);
    if (index.type !== 'IntegerValue') return super.evaluate({ ...node, object: evaluated(value), property: evaluated(index) } as Node, environment);
    return runtime(pyCharAt(value.value, index.value as number));
  }

  /**
   * A text's strip(), lstrip() and rstrip(), with Python's whitespace or the characters given (the library's take
   * U+FEFF as whitespace and ignore the characters: `.lstrip('\n')` stripped spaces too); a record's items() and
   * dictsort() as Python's pairs, which print as tuples; the rest is the library's.
   */
  private call(node: Node, environment: Environment): Value {
    const { callee, args } = node as unknown as { callee: Node & { object?: Node; property?: { value?: unknown }; computed?: boolean }; args: Node[] };
    const method = callee.type === 'MemberExpression' && callee.computed !== true ? String(callee.property?.value) : '';
    if (PAIRS.has(method)) return this.pairs(super.evaluate(node, environment));
    if (!STRIPS.has(method) || args.length > 1 || callee.object === undefined) return super.evaluate(node, environment);
    const value = this.evaluate(callee.object, environment);
    const chars = args[0] === undefined ? undefined : this.evaluate(args[0], environment);
    const stripped = (characters?: string) => runtime(pyStrip(String(value.value), method as 'strip', characters));
    if (typeof value.value !== 'string') return super.evaluate({ ...node, callee: { ...callee, object: evaluated(value) } } as Node, environment);
    if (chars === undefined || chars.type === 'NullValue') return stripped();
    if (chars.type !== 'StringValue') throw new Error(`${method} arg must be None or str, not ${chars.type}`);
    return stripped(String(chars.value));
  }

  /** A list of [key, value] lists (the library's items()) marked as Python's pairs, which print as tuples; they stay lists, which a loop unpacks. */
  private pairs(list: Value): Value {
    if (list.type === 'ArrayValue') for (const pair of list.value as Value[]) if (pair.type === 'ArrayValue') markTuple(pair);
    return list;
  }

  /** `in` and `not in` a list as Python tells it, with its == (the library compares JavaScript values: true is not in [1]); the rest is the library's. */
  private membership(node: Node, left: Node, right: Node, environment: Environment): Value {
    const [item, list] = [this.evaluate(left, environment), this.evaluate(right, environment)];
    if (list.type !== 'ArrayValue' && list.type !== 'TupleValue') return super.evaluate({ ...node, left: evaluated(item), right: evaluated(list) } as Node, environment);
    const found = (list.value as Value[]).some((member) => pyEquals(item, member));
    return runtime((node as unknown as { operator: { value: string } }).operator.value === 'in' ? found : !found);
  }

  /** `%` of two numbers as Python gives it (the remainder takes the divisor's sign); of anything else, the library's. */
  private modulo(node: Node, left: Node, right: Node, environment: Environment): Value {
    const [a, b] = [this.evaluate(left, environment), this.evaluate(right, environment)];
    const numbers = ['IntegerValue', 'FloatValue'];
    if (!numbers.includes(a.type) || !numbers.includes(b.type)) return super.evaluate({ ...node, left: evaluated(a), right: evaluated(b) } as Node, environment);
    const remainder = pyModulo(a.value as number, b.value as number);
    // An integer remainder of a float stays a float (7.0 % 2 is 1.0): the library's float value prints so.
    return a.type === 'FloatValue' || b.type === 'FloatValue' ? super.evaluate({ type: 'FloatLiteral', value: remainder } as Node, environment) : runtime(remainder);
  }
}

/**
 * `first` and `last` of a list or a text as jinja2 gives them: an undefined value when it is empty (the library
 * failed, "Cannot read properties of undefined", and stopped the run where a list of references was empty), a
 * text's first or last character; null for anything else (the library's).
 */
function endOf(value: Value, end: 'first' | 'last'): Value | null {
  if (typeof value.value === 'string') return runtime(pyCharAt(value.value, end === 'first' ? 0 : -1));
  if (!Array.isArray(value.value)) return null;
  const items = value.value as Value[];
  return (end === 'first' ? items[0] : items[items.length - 1]) ?? runtime(undefined);
}

/** jinja2's getattr-or-item of one step of an attribute path: a record's field, a list's item at a number; undefined when absent. */
function attributeOf(value: Value, key: string): Value {
  const absent = runtime(undefined);
  if (value.value instanceof Map) return (value.value.get(key) as Value | undefined) ?? absent;
  if (Array.isArray(value.value) && /^\d+$/.test(key)) return (value.value[Number(key)] as Value | undefined) ?? absent;
  return absent;
}

/** Python's range(), refused past MAX_STEPS numbers before they are made. */
function boundedRange(start: number, stop?: number, step = 1): number[] {
  const [from, to] = stop === undefined ? [0, start] : [start, stop];
  if (step === 0) throw new Error('range() arg 3 must not be zero');
  const length = Math.max(0, Math.ceil((to - from) / step));
  if (length > MAX_STEPS) throw new TemplateBoundError(`"range(" of ${length.toLocaleString('en-US')} numbers is more than a prompt can loop over (at most ${MAX_STEPS.toLocaleString('en-US')})`);
  return Array.from({ length }, (_, index) => from + index * step);
}

/**
 * `template` rendered over `variables` as jinja2 renders it. The library's own
 * globals, but `range` bounded and without `strftime_now`, which jinja2 lacks
 * (template-divergence.ts refuses it before the run).
 */
export function renderAsJinja2(template: Template, variables: Record<string, unknown>): string {
  const environment = new Environment();
  const globals: Record<string, unknown> = { false: false, true: true, none: null, False: false, True: true, None: null, range: boundedRange };
  globals['raise_exception'] = (message: unknown) => {
    throw new Error(String(message));
  };
  for (const [name, value] of Object.entries({ ...globals, ...variables })) environment.set(name, value);
  let program = programs.get(template);
  if (program === undefined) {
    program = withOutputs(template.parsed as unknown as Node);
    programs.set(template, program);
  }
  const result = new Jinja2Interpreter(environment).run(program);
  return String(result.value);
}
