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
 * `range()` longer than that is refused before it is made, and a render runs at
 * most MAX_RENDER_SECONDS (steps that each work on millions of characters), so
 * a template that would not end stops with a TemplateBoundError (on the host's sample render,
 * before any call) instead of holding the thread for ever.
 */
import * as jinja from '@huggingface/jinja';
import type { Template } from '@huggingface/jinja';
import { pyTest } from './jinja2-tests.ts';
import { CallDepth, valueTooDeep, withArgumentsEvaluated } from './jinja2-call-depth.ts';
import { withoutOneTupleMark } from './jinja2-one-tuple.ts';
import { asMarkup, isMarkup } from './jinja2-markup.ts';
import { joiner, pyDict } from './jinja2-globals.ts';
import { callingDefined, itemOfUnsubscriptable, noteMissing, refuseUndefinedOwner } from './jinja2-undefined.ts';
import { ARGUMENT_FILTERS, argumentFilter, type FilterArguments } from './jinja2-argument-filters.ts';
import { evaluatedArguments } from './jinja2-arguments.ts';
import { unpackable } from './jinja2-unpack.ts';
import { MUTATING_METHODS, refuseMutation, transformersGlobals, transformersToJson, type Jinja2Dialect } from './transformers-environment.ts';
import { DICT_METHODS, dictMethod } from './python-dict-methods.ts';
import { PYTHON_OPERATORS, pythonOperation } from './jinja2-operators.ts';
import { jinja2Title, pyTitle } from './python-title.ts';
import { pyStrFormat } from './python-str-format.ts';
import { asKeys, asPairs, isNumberKey, numberKeyedDictsort, numberKeyedGet, numberKeysOf } from './jinja2-pairs.ts';
import { LIST_METHODS, listSearch, methodArguments, TEXT_METHODS, textMethod } from './python-methods.ts';
import { mappedAttribute, pyItems, pyTruthy, SELECTING, selected, unique } from './jinja2-select.ts';
import { asGenerator, asOperand, attributeOf, boundedRange, boundedWidth, consumedGenerator, endOf, Environment, GENERATING, listMethod, orEmpty, RenderBudget, runtime, sliceOf, TemplateBoundError, recordOf, MAX_RENDERED_CHARS } from './jinja2-values.ts';
export { MAX_RENDERED_CHARS, MAX_RENDER_SECONDS, MAX_STEPS, TemplateBoundError } from './jinja2-values.ts';
import { isDictView, markDictView, pyCapitalize, pyCharAt, pyLength, pyStr, pyStrip, pyToJson, type RuntimeValue } from './python-str.ts';

/** A node of the parsed template (the library exports no AST types). */
interface Node { type: string }
type Value = RuntimeValue;

interface Interpreter {
  evaluate(node: Node | undefined, environment: Environment): Value;
  run(program: Node): Value;
}
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
  private readonly calls = new CallDepth();
  /** Characters printed so far (a macro's or a set block's counted where made and again where printed: an upper bound). */
  private printed = 0;

  constructor(environment: Environment, private readonly dialect: Jinja2Dialect, private readonly budget: RenderBudget) {
    super(environment);
  }

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
    this.budget.step();
    if (node === undefined) return super.evaluate(node, environment);
    if (node.type === PASS) return runtime(undefined);
    if (node.type === EVALUATED) return (node as unknown as { value: Value }).value;
    if (node.type === 'MemberExpression') return this.member(node, environment);
    if (node.type === 'CallExpression') {
      const { callee } = node as unknown as { callee: Node };
      const call = withArgumentsEvaluated(node, (argument) => evaluated(this.evaluate(argument, environment)));
      return this.calls.within(callee, () => callingDefined(() => this.call(call, environment), callee));
    }
    if (node.type === OUTPUT) return runtime(pyStr(this.evaluate((node as unknown as { value: Node }).value, environment)));
    if (node.type === 'BinaryExpression' && PYTHON_OPERATORS.has((node as unknown as { operator: { value: string } }).operator.value)) {
      const { left, right, operator } = node as unknown as { left: Node; right: Node; operator: { value: string } };
      const [a, b] = [this.evaluate(left, environment), this.evaluate(right, environment)];
      const library = (x = a, y = b) => super.evaluate({ ...node, left: evaluated(x), right: evaluated(y) } as Node, environment);
      const float = (number: number) => super.evaluate({ type: 'FloatLiteral', value: number } as Node, environment);
      return pythonOperation(operator.value, a, b, { library, float });
    }
    if (node.type === 'TupleLiteral') return super.evaluate(withoutOneTupleMark(node), environment);
    if (node.type === 'ObjectLiteral') return recordOf(node as unknown as { value?: unknown }, (part: Node) => this.evaluate(part, environment));
    if (node.type === 'FilterExpression') return this.filter(node, environment);
    if (node.type === 'TestExpression') return this.test(node, environment);
    if (node.type === 'For') return super.evaluate(this.loopOverItems(node, environment), environment);
    return super.evaluate(node, environment);
  }

  /**
   * `string`, `join` (with a separator or none), `length` and `trim` as jinja2 gives them: Python's str() of each
   * item, a text's length in characters (not UTF-16 units), Python's whitespace; every other filter is the library's.
   */
  private filter(node: Node, environment: Environment): Value {
    const name = filterName((node as unknown as { filter: unknown }).filter);
    const value = this.filterOnce(node, name, environment);
    return GENERATING.has(name) ? asGenerator(value, name) : value;
  }

  private filterOnce(node: Node, name: string, environment: Environment): Value {
    // jinja2's count is its length (the library lacked it, and it was refused before the run).
    if (name === 'count') return this.filterOnce({ ...node, filter: { type: 'Identifier', value: 'length' } } as Node, 'length', environment);
    const { operand, filter } = node as unknown as { operand: Node; filter: unknown };
    const args = filterArgs(filter);
    const value = asOperand(orEmpty(this.evaluate(operand, environment), name), name);
    const library = (): Value => super.evaluate({ ...node, operand: evaluated(value) } as Node, environment);
    const consumed = consumedGenerator(value, name);
    if (consumed !== null) return consumed;
    // `d.keys() | list` is a list, which prints as one (the library's list filter gives back the view it was given).
    if (name === 'list' && isDictView(value)) return Object.assign(runtime([]), { value: [...(value.value as Value[])] });
    if (name === 'reverse' && typeof value.value === 'string') return runtime(Array.from(value.value).reverse().join(''));
    if (args.length === 0 && (name === 'string' || name === 'capitalize' || name === 'title')) return runtime((name === 'string' ? String : name === 'title' ? jinja2Title : pyCapitalize)(pyStr(value)));
    if (PAIRS.has(name)) return (name === 'dictsort' ? numberKeyedDictsort(value, this.argumentsOf(args, environment)) : null) ?? asPairs(library());
    if (ARGUMENT_FILTERS.has(name)) {
      const float = (number: number) => super.evaluate({ type: 'FloatLiteral', value: number } as Node, environment);
      const tuple = (items: Value[]) => super.evaluate({ type: 'TupleLiteral', value: items.map(evaluated) } as Node, environment);
      const record = (entries: Map<string, Value>) => Object.assign(runtime({}), { value: new Map(entries) });
      return argumentFilter(name, value, this.argumentsOf(args, environment), { runtime, float, tuple, record });
    }
    const positional = args.filter((arg) => arg.type !== 'KeywordArgumentExpression');
    if (SELECTING.has(name)) return selected(name, value, positional.map((arg) => this.evaluate(arg, environment)));
    if (name === 'map' && !pyTruthy(value)) return runtime([]);
    if (name === 'map' && positional.length > 0) return this.mapped(value, [positional[0] as Node, ...args.filter((arg) => arg !== positional[0])], environment);
    if (name === 'map') return mappedAttribute(value, this.argumentsOf(args, environment).named);
    if (name === 'unique') return unique(value, this.argumentsOf(args, environment));
    if ((name === 'first' || name === 'last') && args.length === 0) return endOf(value, name) ?? library();
    if (name === 'tojson' && value.type === 'UndefinedValue') throw new TypeError('"tojson" of an undefined value (UndefinedValue): Object of type Undefined is not JSON serializable');
    if (name === 'tojson' && this.dialect === 'transformers') return runtime(transformersToJson(value, this.argumentsOf(args, environment), MAX_RENDERED_CHARS));
    if (name === 'tojson') return asMarkup(runtime(pyToJson(value, this.indentOf(args, environment), MAX_RENDERED_CHARS)));
    if (name === 'safe') return asMarkup(runtime(pyStr(value)));
    if (args.length === 0 && typeof value.value === 'string' && (name === 'length' || name === 'trim')) {
      return name === 'length' ? runtime(pyLength(value.value)) : keepMarkup(value, runtime(pyStrip(value.value, 'strip')));
    }
    if (name === 'trim' && args.length === 1 && typeof value.value === 'string') return this.trimmed(value.value, args[0] as Node, environment);
    if (name !== 'join' || !Array.isArray(value.value)) return library();
    return this.join(value.value as Value[], args, environment);
  }

  /** map(filter, …): each item given to the filter named, with the arguments that follow, keywords too (`map('tojson', indent=2)`; the library has only map(attribute=…)). */
  private mapped(value: Value, [name, ...args]: Node[], environment: Environment): Value {
    const filterName = pyStr(this.evaluate(name, environment));
    const callee = { type: 'Identifier', value: filterName };
    const filter = args.length === 0 ? callee : { type: 'CallExpression', callee, args };
    const list = runtime([]);
    list.value = pyItems(value).map((item) => this.evaluate({ type: 'FilterExpression', operand: evaluated(item), filter } as Node, environment));
    return list;
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

  /** A filter's or a method's arguments evaluated, by place and by name, unpacked ones included (jinja2-arguments.ts). */
  private argumentsOf = (args: Node[], environment: Environment): FilterArguments => evaluatedArguments(args, (arg) => this.evaluate(arg, environment));

  /** trim(chars) or trim(chars=...): the characters given taken off both ends (none: whitespace). */
  private trimmed(text: string, arg: Node, environment: Environment): Value {
    const chars = this.evaluate(arg.type === 'KeywordArgumentExpression' ? (arg as unknown as { value: Node }).value : arg, environment);
    return runtime(pyStrip(text, 'strip', chars.type === 'NullValue' ? undefined : pyStr(chars)));
  }

  /** A test as jinja2 tells it, with its arguments (jinja2-tests.ts): the library's tests are JavaScript's, and take none. */
  private test(node: Node, environment: Environment): Value {
    const { operand, negate, test, args } = node as unknown as { operand: Node; negate: boolean; test: { value: string }; args?: Node[] };
    const value = this.evaluate(operand, environment);
    const passed = pyTest(test.value, value, (args ?? []).map((arg) => this.evaluate(arg, environment)));
    return runtime(negate ? !passed : passed);
  }

  /**
   * A loop with its items evaluated as jinja2 iterates them: an undefined value as no items (the library failed,
   * "Expected iterable", where a chat template loops over the tools it was not given), a text as its characters.
   */
  private loopOverItems(node: Node, environment: Environment): Node {
    const loop = node as unknown as { iterable: Node & { lhs?: Node } };
    const select = loop.iterable.type === 'SelectExpression';
    const items = this.evaluate(select ? loop.iterable.lhs : loop.iterable, environment);
    let iterable = numberKeysOf(items) ?? items;
    if (items.type === 'UndefinedValue') iterable = runtime([]);
    else if (typeof items.value === 'string') iterable = runtime(Array.from(items.value));
    if ((node as unknown as { loopvar: Node }).loopvar.type === 'TupleLiteral' && Array.isArray(iterable.value)) iterable = unpackable(iterable);
    const evaluatedItems = evaluated(iterable);
    return { ...node, iterable: select ? { ...loop.iterable, lhs: evaluatedItems } : evaluatedItems } as Node;
  }

  /**
   * tojson's indent: tojson(2) or tojson(indent=2); null without one. Any other argument fails as jinja2's does
   * (ensure_ascii= and sort_keys= are transformers' alone), where the library ignored it and wrote its JSON.
   */
  private indentOf(args: Node[], environment: Environment): number | string | null {
    const other = args.map((arg) => (arg.type === 'KeywordArgumentExpression' ? String((arg as unknown as { key: { value: unknown } }).key.value) : '')).find((key) => key !== '' && key !== 'indent');
    if (other !== undefined) throw new TypeError(`do_tojson() got an unexpected keyword argument '${other}'`);
    if (args.length > 1) throw new TypeError(`do_tojson() takes from 2 to 3 positional arguments but ${args.length + 2} were given`);
    const [arg] = args;
    if (arg === undefined) return null;
    const node = arg.type === 'KeywordArgumentExpression' ? (arg as unknown as { value: Node }).value : arg;
    const indent = this.evaluate(node, environment);
    // json.dumps indents by a text as it is, by a number (a bool as 0 or 1) of spaces.
    if (indent.type === 'BooleanValue') return indent.value ? 1 : 0;
    if (typeof indent.value === 'number') return boundedWidth(indent.value, `"tojson" indenting by ${indent.value}`);
    return typeof indent.value === 'string' ? indent.value : null;
  }

  /** The value whose attribute or item is read: jinja2 fails where it is undefined (jinja2-undefined.ts). */
  private owner(object: Node, environment: Environment): Value {
    const value = this.evaluate(object, environment);
    refuseUndefinedOwner(value, object.type === 'Identifier' ? String((object as unknown as { value: unknown }).value) : null);
    return value;
  }

  /**
   * An attribute or an item as jinja2 reads it: of an undefined value it fails (jinja2-undefined.ts), of None or a
   * number it is undefined; a text's character at an index counted in characters as Python does (the library counts
   * UTF-16 units: half an emoji); the rest is the library's.
   */
  private member(node: Node, environment: Environment): Value {
    const { object, property, computed } = node as unknown as { object: Node; property: Node & { value?: unknown }; computed: boolean };
    const value = this.owner(object, environment);
    if (property.type === 'SliceExpression') return sliceOf(value, () => super.evaluate({ ...node, object: evaluated(value) } as Node, environment));
    const key = computed ? this.evaluate(property, environment) : runtime(String(property.value));
    const missing = computed ? itemOfUnsubscriptable(value, key) : null;
    if (missing !== null) return missing;
    const text = typeof value.value === 'string' && key.type === 'IntegerValue';
    const result = text ? runtime(pyCharAt(String(value.value), key.value as number)) : super.evaluate({ ...node, object: evaluated(value), property: computed ? evaluated(key) : property } as Node, environment);
    return noteMissing(result, value, key);
  }

  /**
   * A text's strip(), lstrip() and rstrip() with Python's whitespace or the characters given (the library's ignored them: `.lstrip('\n')`
   * stripped spaces too); a record's items() and dictsort() as Python's pairs, which print as tuples; the rest is the library's.
   */
  private call(node: Node, environment: Environment): Value {
    const { callee, args } = node as unknown as { callee: Node & { object?: Node; property?: { value?: unknown }; computed?: boolean }; args: Node[] };
    const method = callee.type === 'MemberExpression' && callee.computed !== true ? String(callee.property?.value) : '';
    if (callee.type === 'Identifier' && (callee as unknown as { value: string }).value === 'dict' && environment.lookupVariable('dict').type === 'UndefinedValue') {
      const { positional, named } = this.argumentsOf(args, environment);
      return pyDict(positional, named);
    }
    // transformers' sandbox refuses a method that would change a list or a record.
    if (this.dialect === 'transformers' && MUTATING_METHODS.has(method) && callee.object !== undefined && callee.object.type !== EVALUATED) {
      const object = this.owner(callee.object, environment);
      refuseMutation(object, method);
      return this.call({ ...node, callee: { ...callee, object: evaluated(object) } } as Node, environment);
    }
    if (PAIRS.has(method) || method === 'keys' || method === 'values') {
      const made = super.evaluate(node, environment);
      return markDictView(method === 'keys' ? asKeys(made) : method === 'items' ? asPairs(made) : made, method);
    }
    if (method === 'get' && callee.object !== undefined && isNumberKey(this.argumentsOf(args, environment).positional[0])) return numberKeyedGet(this.owner(callee.object, environment), this.argumentsOf(args, environment));
    if (method === 'cycle' && callee.object?.type === 'Identifier' && (callee.object as unknown as { value: string }).value === 'loop') return this.cycled(args, environment);
    if ((TEXT_METHODS.has(method) || LIST_METHODS.has(method)) && callee.object !== undefined) {
      const object = this.owner(callee.object, environment);
      const { positional, named } = this.argumentsOf(args, environment);
      if (typeof object.value === 'string' && TEXT_METHODS.has(method)) return method === 'format' ? runtime(pyStrFormat(object.value, positional, named)) : textMethod(object.value, method, methodArguments('str', method, positional, named));
      if (object.type === 'ArrayValue' && LIST_METHODS.has(method)) return listSearch(object.value as Value[], method, methodArguments('list', method, positional, named));
      return super.evaluate({ ...node, callee: { ...callee, object: evaluated(object) }, args: positional.map(evaluated) } as Node, environment);
    }
    // A record's update(), pop() and setdefault() change it as Python's dict's do (the library's records have none).
    if (DICT_METHODS.has(method) && callee.object !== undefined && callee.object.type !== EVALUATED) {
      const object = this.owner(callee.object, environment);
      if (object.type === 'ObjectValue' && object.value instanceof Map) return dictMethod(object.value as Map<string | number, Value>, method, this.argumentsOf(args, environment), runtime(null));
      return this.call({ ...node, callee: { ...callee, object: evaluated(object) } } as Node, environment);
    }
    // A text's capitalize() and title() as Python's (the library left the rest of each word as it was); a list's append() and pop(), which the library lacks.
    if (['capitalize', 'title', 'append', 'pop'].includes(method) && args.length <= 1 && callee.object !== undefined) {
      const object = this.owner(callee.object, environment);
      const ofText = method === 'capitalize' || method === 'title';
      if (ofText && typeof object.value === 'string' && args.length === 0) return runtime((method === 'title' ? pyTitle : pyCapitalize)(object.value));
      if (ofText || object.type !== 'ArrayValue') return super.evaluate({ ...node, callee: { ...callee, object: evaluated(object) } } as Node, environment);
      return listMethod(object.value as Value[], method, args[0] === undefined ? undefined : this.evaluate(args[0], environment));
    }
    if (!STRIPS.has(method) || args.length > 1 || callee.object === undefined) return super.evaluate(node, environment);
    const value = this.owner(callee.object, environment);
    const chars = args[0] === undefined ? undefined : this.evaluate(args[0], environment);
    const stripped = (characters?: string) => keepMarkup(value, runtime(pyStrip(String(value.value), method as 'strip', characters)));
    if (typeof value.value !== 'string') return super.evaluate({ ...node, callee: { ...callee, object: evaluated(value) } } as Node, environment);
    if (chars === undefined || chars.type === 'NullValue') return stripped();
    if (chars.type !== 'StringValue') throw new Error(`${method} arg must be None or str, not ${chars.type}`);
    return stripped(String(chars.value));
  }

  /** jinja2's loop.cycle(*values): the value at the pass's index, round and round (the library's loop has no cycle). */
  private cycled(args: Node[], environment: Environment): Value {
    const loop = this.owner({ type: 'Identifier', value: 'loop' } as Node, environment);
    const values = args.map((arg) => this.evaluate(arg, environment));
    if (values.length === 0) throw new TypeError('no items for cycling given');
    const index = Number((loop.value as Map<string, Value>).get('index0')?.value ?? 0);
    return values[index % values.length] as Value;
  }
}

/** `result`, marked a Markup when `source` is one (a Markup's strip() is one). */
function keepMarkup(source: Value, result: Value): Value {
  return isMarkup(source) ? asMarkup(result) : result;
}

/**
 * `template` rendered over `variables` as jinja2 renders it. The library's own
 * globals, but `range` bounded and without `strftime_now`, which jinja2 lacks
 * (template-divergence.ts refuses it before the run); in the transformers
 * dialect, with transformers' globals, tojson and sandbox (transformers-environment.ts).
 * `limits.seconds`: how long it may run (MAX_RENDER_SECONDS when absent).
 */
export function renderAsJinja2(template: Template, variables: Record<string, unknown>, dialect: Jinja2Dialect = 'jinja2', limits: { seconds?: number } = {}): string {
  const environment = new Environment();
  const globals: Record<string, unknown> = { false: false, true: true, none: null, False: false, True: true, None: null, range: boundedRange };
  globals['joiner'] = joiner;
  globals['raise_exception'] = (message: unknown) => {
    throw new Error(String(message));
  };
  if (dialect === 'transformers') Object.assign(globals, transformersGlobals());
  for (const [name, value] of Object.entries({ ...globals, ...variables })) environment.set(name, value);
  let program = programs.get(template);
  if (program === undefined) {
    program = withOutputs(template.parsed as unknown as Node);
    programs.set(template, program);
  }
  try {
    return String(new Jinja2Interpreter(environment, dialect, new RenderBudget(limits.seconds)).run(program).value);
  } catch (error) {
    throw error instanceof RangeError && /Maximum call stack/.test(error.message) ? valueTooDeep(error) : error;
  }
}
