/**
 * The values a render of a user's template makes as jinja2 makes them, and its
 * bounds (jinja2-render.ts renders): a JavaScript value as the library holds
 * it, an undefined value given to a filter, a text or a list repeated, the
 * ends of a list, an attribute path, range().
 */
import * as jinja from '@huggingface/jinja';
import { generatorFilter, generatorMisuse, isTuple, markTuple, noteGenerator, pyCharAt, pyStr, type RecordKey, type RuntimeValue } from './python-str.ts';
import { pyReplace, replacements } from './python-replace.ts';

type Value = RuntimeValue;

/** Expressions, statements and loop passes one render may evaluate: a thousand records with twenty tags each is 20,000; the bound is a few seconds of a loaded core. */
export const MAX_STEPS = 200_000;

/**
 * Characters one render may make, in any one text or printed in all: 32 Mi, some 8 million tokens, far past any
 * model's window (a 131k window's prompt is about half a megabyte, a 1M window's a few). A template that doubles
 * a text in a loop, or prints a value a million times, made hundreds of megabytes that every call then counted
 * for minutes, to send nothing.
 */
export const MAX_RENDERED_CHARS = 32 * 1024 * 1024;

/**
 * The longest one render may run, in seconds of the worker's clock. MAX_STEPS bounds how many steps a render takes,
 * not what each costs: a loop of 100,000 passes over a 20-million-character text (`s.count('ba')`, `s | upper`) or
 * comparing two lists of a million items held a worker for hours, as jinja2 would. A prompt renders in
 * milliseconds; a render still running after this has no prompt to give.
 */
export const MAX_RENDER_SECONDS = 10;

/** A render that passed MAX_STEPS, MAX_RENDER_SECONDS or MAX_RENDERED_CHARS, or asked for a range() longer than MAX_STEPS. */
export class TemplateBoundError extends Error {
  override name = 'TemplateBoundError';
}

/** The steps one render has taken and the time it has run, checked at each step. */
export class RenderBudget {
  private steps = 0;
  private readonly deadline: number;

  /** `seconds`: how long the render may run, MAX_RENDER_SECONDS unless a caller (a test of the bound itself) says less. */
  constructor(private readonly seconds = MAX_RENDER_SECONDS) {
    this.deadline = performance.now() + seconds * 1000;
  }

  /** One more step: a TemplateBoundError past MAX_STEPS or MAX_RENDER_SECONDS. */
  step(): void {
    if (++this.steps > MAX_STEPS) {
      throw new TemplateBoundError(`the template took more than ${MAX_STEPS.toLocaleString('en-US')} steps (expressions and loop passes) for one prompt, so it was stopped: a "for" loop over millions of items, loops nested too deep, or hundreds of thousands of tags`);
    }
    if (performance.now() > this.deadline) {
      throw new TemplateBoundError(`the template ran for more than ${this.seconds} ${this.seconds === 1 ? 'second' : 'seconds'} for one prompt (${this.steps.toLocaleString('en-US')} steps), so it was stopped: a loop whose every pass works on a long text or a large list (a search, a filter or a comparison of millions of characters or items)`);
    }
  }
}

/**
 * A width a template pads to (zfill, center, indent, tojson's indent, a printf width or precision), refused past
 * MAX_RENDERED_CHARS before the padding is made: `'x'.zfill(400000000)` built 381 Mi characters before the bound
 * on what is printed saw them, and a width past 2**29 failed with the engine's "Invalid string length".
 */
export function boundedWidth(width: number, what: string): number {
  if (width > MAX_RENDERED_CHARS) throw new TemplateBoundError(`${what} pads to ${width.toLocaleString('en-US')} characters, more than any context window holds (at most ${MAX_RENDERED_CHARS.toLocaleString('en-US')})`);
  return width;
}

/** What this file uses of the library's runtime (its package's type declarations do not resolve it under NodeNext). */
export interface Environment {
  variables: Map<string, Value>;
  /** Declares a variable, converted to the library's value, which it returns; throws when it is declared already. */
  set(name: string, value: unknown): Value;
  lookupVariable(name: string): Value;
}
export const Environment = jinja.Environment as unknown as new () => Environment;

/** Where a JavaScript value is made into the library's (its constructors are not exported): one per thread. */
let scratch: Environment | null = null;

/** A JavaScript value as the library holds it. */
export function runtime(value: unknown): Value {
  scratch ??= new Environment();
  scratch.variables.delete('value');
  return scratch.set('value', value);
}

/** Filters that iterate their value, and filters of a text: an undefined value is an empty list to the first, an empty text to the others. */
const OVER_ITEMS = new Set(['length', 'count', 'list', 'join', 'selectattr', 'rejectattr', 'select', 'reject', 'map', 'sort', 'batch', 'sum', 'first', 'last']);
const OVER_TEXT = new Set(['upper', 'lower', 'trim', 'string', 'capitalize', 'title', 'replace', 'truncate', 'striptags', 'wordcount', 'e', 'escape']);

/**
 * A filter's value as jinja2 gives an undefined one to it: as no items, or as an empty text (a chat template's
 * `tools | length` is 0 where it was given no tools; the library failed, "Cannot apply filter"); other values as they are.
 */
export function orEmpty(value: Value, filter: string): Value {
  if (value.type !== 'UndefinedValue') return value;
  if (OVER_ITEMS.has(filter)) return runtime([]);
  return OVER_TEXT.has(filter) ? runtime('') : value;
}

/** Filters of a text, which jinja2 gives Python's str() of any other value. */
const OF_TEXT = new Set(['upper', 'lower', 'trim', 'replace', 'capitalize', 'title']);
/** Filters that iterate their value, as Python iterates a text (its characters) and a record (its keys). */
const ITERATING = new Set(['list', 'join', 'sort', 'first', 'last', 'reverse']);

/**
 * A filter's value as jinja2 reads it: a filter of a text given a list, a record, a number or None reads its
 * str() (`content | trim`, with content None or a list of parts, is `None` or the list's repr, where the library
 * failed, "Unknown ArrayValue filter: trim"); a filter that iterates a record reads its keys (`tools | first` is
 * its first key), `list` and `sort` of a text its characters. Undefined values are orEmpty's, generators as they are.
 */
export function asOperand(value: Value, filter: string): Value {
  if (value.type === 'UndefinedValue' || generatorFilter(value) !== undefined) return value;
  if (OF_TEXT.has(filter)) return typeof value.value === 'string' ? value : runtime(pyStr(value));
  if (!ITERATING.has(filter)) return value;
  if (value.type === 'ObjectValue') return runtime([...(value.value as Map<string, Value>).keys()]);
  if (value.type === 'StringValue' && (filter === 'list' || filter === 'sort')) return runtime(Array.from(String(value.value)));
  // A tuple's list is a list (it printed as the tuple, `(1, 2)` for `[1, 2]`).
  if (filter === 'list' && isTuple(value)) return Object.assign(runtime([]), { value: [...(value.value as Value[])] });
  return value;
}

/**
 * Two lists joined (`+`), refused past MAX_STEPS items before they are: a list doubled in a loop
 * (`{% set ns.s = ns.s + ns.s %}`, 40 passes) grew past what V8 can hold and ended the whole process
 * with a fatal error and a native stack trace, however few steps it took. (A text doubled is caught
 * by the bound on what a render makes.)
 */
export function boundedJoin(a: readonly unknown[], b: readonly unknown[]): void {
  const length = a.length + b.length;
  if (length > MAX_STEPS) throw new TemplateBoundError(`two lists joined ("+") make ${length.toLocaleString('en-US')} items, more than a prompt can loop over (at most ${MAX_STEPS.toLocaleString('en-US')}): a list doubled in a "for" loop`);
}

/** A text or a list `times` over, refused past MAX_RENDERED_CHARS characters or MAX_STEPS items before it is made. */
export function repeated(sequence: Value, times: number): Value {
  const length = (sequence.value as string | Value[]).length * times;
  if (typeof sequence.value === 'string') {
    if (length > MAX_RENDERED_CHARS) throw new TemplateBoundError(`a text repeated ${times.toLocaleString('en-US')} times ("*") makes ${length.toLocaleString('en-US')} characters, more than any context window holds (at most ${MAX_RENDERED_CHARS.toLocaleString('en-US')})`);
    return runtime(sequence.value.repeat(times));
  }
  if (length > MAX_STEPS) throw new TemplateBoundError(`a list repeated ${times.toLocaleString('en-US')} times ("*") makes ${length.toLocaleString('en-US')} items, more than a prompt can loop over (at most ${MAX_STEPS.toLocaleString('en-US')})`);
  const list = runtime([]);
  list.value = Array.from({ length: times }, () => sequence.value as Value[]).flat();
  // A tuple repeated is a tuple: it printed as a list, (1, 'x') * 2 as [1, 'x', 1, 'x'].
  if (isTuple(sequence)) markTuple(list);
  return list;
}

/**
 * `first` and `last` of a list or a text as jinja2 gives them: an undefined value when it is empty (the library
 * failed, "Cannot read properties of undefined", and stopped the run where a list of references was empty), a
 * text's first or last character; null for anything else (the library's).
 */
export function endOf(value: Value, end: 'first' | 'last'): Value | null {
  if (typeof value.value === 'string') return runtime(pyCharAt(value.value, end === 'first' ? 0 : -1));
  if (!Array.isArray(value.value)) return null;
  const items = value.value as Value[];
  return (end === 'first' ? items[0] : items[items.length - 1]) ?? runtime(undefined);
}

/**
 * jinja2's getattr-or-item of one step of an attribute path: a record's field, a list's item or a text's character
 * at a number (jinja2 reads a step of digits as an integer, so it finds a record's number key too); undefined when
 * absent. A text's character was undefined: map(attribute='0') of texts printed [Undefined, …], join(attribute=) nothing.
 */
export function attributeOf(value: Value, key: string): Value {
  const absent = runtime(undefined);
  const field = namedFields.get(value)?.get(key);
  if (field !== undefined) return field;
  const index = /^\d+$/.test(key) ? Number(key) : null;
  if (value.value instanceof Map) return (value.value.get(key) as Value | undefined) ?? (index === null ? undefined : (value.value.get(index) as Value | undefined)) ?? absent;
  if (Array.isArray(value.value) && index !== null) return (value.value[index] as Value | undefined) ?? absent;
  const char = typeof value.value === 'string' && index !== null ? pyCharAt(value.value, index) : undefined;
  return char === undefined ? absent : runtime(char);
}

/**
 * Python's str.replace, refused before it is made where it would pass MAX_RENDERED_CHARS: a replace that doubles
 * a text, in a loop, held the thread for minutes (each pass longer than the last) before any bound saw the result.
 */
export function boundedReplace(text: string, old: string, replacement: string, count = -1): string {
  // Counted only where the most the replace could make is past the bound: a search per replacement costs.
  const most = old === '' ? text.length + 1 : Math.floor(text.length / old.length);
  if (replacement.length > old.length && text.length + most * (replacement.length - old.length) > MAX_RENDERED_CHARS) {
    const length = text.length + replacements(text, old, count) * (replacement.length - old.length);
    if (length > MAX_RENDERED_CHARS) throw new TemplateBoundError(`a replace makes ${length.toLocaleString('en-US')} characters, more than any context window holds (at most ${MAX_RENDERED_CHARS.toLocaleString('en-US')})`);
  }
  return pyReplace(text, old, replacement, count);
}

/** The fields of Python's named tuples (groupby's pairs), which an attribute path reads as it reads a record's keys. */
const namedFields = new WeakMap<Value, ReadonlyMap<string, Value>>();

/** Gives the tuple `value` the named `fields`. */
export function nameFields(value: Value, fields: ReadonlyMap<string, Value>): void {
  namedFields.set(value, fields);
  const builtins = (value as unknown as { builtins: Map<string, Value> }).builtins;
  for (const [name, field] of fields) builtins.set(name, field);
}

/** Python's range(), refused past MAX_STEPS numbers before they are made. */
export function boundedRange(start: number, stop?: number, step = 1): number[] {
  const [from, to] = stop === undefined ? [0, start] : [start, stop];
  if (step === 0) throw new Error('range() arg 3 must not be zero');
  const length = Math.max(0, Math.ceil((to - from) / step));
  if (length > MAX_STEPS) throw new TemplateBoundError(`"range(" of ${length.toLocaleString('en-US')} numbers is more than a prompt can loop over (at most ${MAX_STEPS.toLocaleString('en-US')})`);
  // Python's items are exact integers; a float's past 2**53 are not (2**60 + 1 is 2**60).
  if (length > 0 && [from, to, step].some((bound) => Math.abs(bound) > Number.MAX_SAFE_INTEGER)) throw new RangeError(`"range(" from ${BigInt(Math.trunc(from))} to ${BigInt(Math.trunc(to))}: integers past 2**53 are not held exactly here, where jinja2's are: keep such numbers texts`);
  return Array.from({ length }, (_, index) => from + index * step);
}

/** A list's append(item), which gives None, or pop(index = -1), which gives the item it takes out (Python's IndexError when there is none). */
export function listMethod(items: Value[], method: string, arg: Value | undefined): Value {
  if (method === 'append') {
    if (arg === undefined) throw new TypeError('list.append() takes exactly one argument (0 given)');
    items.push(arg);
    return runtime(null);
  }
  const given = arg === undefined ? -1 : Number(arg.value);
  const index = given < 0 ? items.length + given : given;
  if (items.length === 0 || index < 0 || index >= items.length) throw new RangeError(items.length === 0 ? 'pop from empty list' : 'pop index out of range');
  return items.splice(index, 1)[0] as Value;
}

/** Filters whose result Python holds as a generator (reverse: of a list). */
export const GENERATING = new Set(['map', 'select', 'reject', 'selectattr', 'rejectattr', 'unique', 'reverse', 'batch', 'slice']);

/**
 * `value`, the list `filter` gave, as the generator jinja2 gives: true in a test however few items it will give
 * (`{% if messages | selectattr(…) %}` is always taken), printed or counted nowhere (python-str.ts refuses it).
 */
export function asGenerator(value: Value, filter: string): Value {
  if (!Array.isArray(value.value)) return value;
  noteGenerator(value, filter);
  Object.assign(value, { __bool__: () => runtime(true) });
  return value;
}

/** A generator as `| list` makes it, a list; `| length` or `| count` of one fails, as in jinja2. */
export function consumedGenerator(value: Value, filter: string): Value | null {
  const made = generatorFilter(value);
  if (made === undefined) return null;
  if (filter === 'length' || filter === 'count') throw generatorMisuse(made, 'cannot count ("object of type \'generator\' has no len()")');
  if (filter !== 'list') return null;
  const list = runtime([]);
  list.value = [...(value.value as Value[])];
  return list;
}

/**
 * A record literal, its keys texts or numbers: jinja2's dict takes any key (Seed-OSS's `{0: 0, 512: 128}`, looked
 * up by a number), the library's records hold texts alone ("Object keys must be strings: got IntegerValue"). A
 * bool, None or a tuple as a key is refused with what to write instead (True would be the key 1, as in Python).
 */
export function recordOf(literal: { value?: unknown }, evaluate: (node: never) => Value): Value {
  const record = new Map<RecordKey, Value>();
  for (const [keyNode, valueNode] of literal.value instanceof Map ? literal.value : []) {
    const key = evaluate(keyNode as never);
    // The key as written (`none`, `true`), which the check before the run finds on its line.
    const written = String((keyNode as { value?: unknown }).value);
    if (key.type === 'StringValue') record.set(String(key.value), evaluate(valueNode as never));
    else if (key.type === 'IntegerValue' || key.type === 'FloatValue') record.set(Number(key.value), evaluate(valueNode as never));
    else {
      const kind = { BooleanValue: 'a bool', NullValue: 'None', TupleValue: 'a tuple' }[key.type] ?? key.type;
      throw new TypeError(`a record literal ({…: …}) with ${kind} as a key \`${written}\`: tmas holds records keyed by texts and numbers alone: write the key as a text or a number`);
    }
  }
  return Object.assign(runtime({}), { value: record });
}

/** Values Python cannot slice, by Python's name of their type. */
const UNSLICEABLE: Readonly<Record<string, string>> = { NullValue: 'NoneType', IntegerValue: 'int', FloatValue: 'float', BooleanValue: 'bool' };

/**
 * `value[a:b]` as jinja2 gives it (`slice` the library's): a tuple's slice is a tuple (the library gave a list:
 * `[2]` for `(1, 2)[1:]`), and a slice of None, a number or a bool fails with Python's TypeError, as jinja2 slices
 * with Python's own subscript (`content[:100]` with content None), where the library said "Slice object must be an
 * array or string".
 */
export function sliceOf(value: Value, slice: () => Value): Value {
  const unsliceable = UNSLICEABLE[value.type];
  if (unsliceable !== undefined) throw new TypeError(`'${unsliceable}' object is not subscriptable`);
  const result = slice();
  if (isTuple(value) && result.type === 'ArrayValue') markTuple(result);
  return result;
}
