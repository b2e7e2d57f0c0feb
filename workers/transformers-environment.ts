/**
 * A model's chat template as transformers renders it (apply_chat_template),
 * which is what reaches an OpenAI-compatible server: vLLM and SGLang render
 * through it. transformers does not use jinja2's defaults: its environment is
 * an ImmutableSandboxedEnvironment with trim_blocks and lstrip_blocks on and
 * the loopcontrols extension (`{% break %}`, `{% continue %}`), its own
 * `tojson` (json.dumps with ensure_ascii=False, keys in their order, nothing
 * escaped for HTML, and `indent`, `separators`, `sort_keys`), and the globals
 * `raise_exception` and `strftime_now`. The sandbox refuses a range() of more than
 * 100,000 numbers and a method that
 * changes a list or a record (`xs.append(y)`, `d.update(…)`), which plain
 * jinja2 runs.
 */
import type { FilterArguments } from './jinja2-argument-filters.ts';
import { pyTruthy } from './jinja2-select.ts';
import { boundedRange, boundedWidth } from './jinja2-values.ts';
import { pyJsonDumpsAs, pyStr, type JsonLayout, type RuntimeValue } from './python-str.ts';
import { strftime } from './python-strftime.ts';

type Value = RuntimeValue;

/** How a template is rendered: as jinja2.Template(text) does, or as transformers' apply_chat_template does. */
export type Jinja2Dialect = 'jinja2' | 'transformers';

/** The methods of a list and of a dict that ImmutableSandboxedEnvironment refuses (they change the value). */
const MUTATING: Record<string, ReadonlySet<string>> = {
  list: new Set(['append', 'clear', 'extend', 'insert', 'pop', 'remove', 'reverse', 'sort', '__setitem__', '__delitem__', '__iadd__', '__imul__']),
  dict: new Set(['clear', 'pop', 'popitem', 'setdefault', 'update', '__setitem__', '__delitem__']),
};

/** Every method name the sandbox refuses of some value. */
export const MUTATING_METHODS: ReadonlySet<string> = new Set(Object.values(MUTATING).flatMap((methods) => [...methods]));

/** Fails as the sandbox does on `value.method(…)` where the method would change a list or a record. */
export function refuseMutation(value: Value, method: string): void {
  const kind = Array.isArray(value.value) && value.type !== 'TupleValue' ? 'list' : value.type === 'ObjectValue' && value.value instanceof Map ? 'dict' : null;
  if (kind !== null && MUTATING[kind]?.has(method) === true) throw new Error(`SecurityError: access to attribute '${method}' of '${kind}' object is unsafe.`);
}

/** transformers' raise_exception: the template's own message, as its TemplateError. */
function raiseException(message: unknown): never {
  throw new Error(String(message));
}

/** The sandbox's bound on range(): a longer one fails, as there. */
const MAX_RANGE = 100_000;

/** The sandbox's range(): Python's, refused past MAX_RANGE numbers before they are made. */
function sandboxedRange(start: number, stop?: number, step = 1): number[] {
  const [from, to] = stop === undefined ? [0, start] : [start, stop];
  if (step !== 0 && Math.ceil((to - from) / step) > MAX_RANGE) throw new RangeError(`OverflowError: Range too big. The sandbox blocks ranges larger than MAX_RANGE (${MAX_RANGE}).`);
  return boundedRange(start, stop, step);
}

/** The globals transformers adds to jinja2's, and the sandbox's range. */
export function transformersGlobals(): Record<string, unknown> {
  return { raise_exception: raiseException, strftime_now: (format: unknown) => strftime(new Date(), String(format)), range: sandboxedRange };
}

/** json.dumps's indent: a number of spaces (a bool as 0 or 1), a text as it is, None for one line. */
function indentOf(value: Value | undefined): string | null {
  if (value === undefined || value.type === 'NullValue') return null;
  if (value.type === 'BooleanValue') return value.value ? ' ' : '';
  if (typeof value.value === 'number') return ' '.repeat(Math.max(0, boundedWidth(value.value, `"tojson" indenting by ${value.value}`)));
  if (typeof value.value === 'string') return value.value;
  throw new TypeError(`can't multiply sequence by non-int of type '${value.type}' (tojson's indent)`);
}

/** json.dumps's separators: a pair of texts (item, key). */
function separatorsOf(value: Value | undefined, indent: string | null): [string, string] {
  if (value === undefined || value.type === 'NullValue') return [indent === null ? ', ' : ',', ': '];
  const pair = Array.isArray(value.value) ? (value.value as Value[]) : [];
  if (pair.length !== 2) throw new ValueError(`not enough values to unpack (expected 2, got ${pair.length}) (tojson's separators)`);
  return [pyStr(pair[0] as Value), pyStr(pair[1] as Value)];
}

class ValueError extends Error {
  override name = 'ValueError';
}

const TOJSON_PARAMETERS = ['ensure_ascii', 'indent', 'separators', 'sort_keys'];

/** transformers' tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False): json.dumps, nothing else. */
export function transformersToJson(value: Value, { positional, named }: FilterArguments, limit: number): string {
  if (positional.length > TOJSON_PARAMETERS.length) throw new TypeError(`tojson() takes from 1 to 5 positional arguments but ${positional.length + 1} were given`);
  const given = new Map<string, Value>();
  positional.forEach((argument, place) => given.set(TOJSON_PARAMETERS[place] as string, argument));
  for (const [name, argument] of named) {
    if (!TOJSON_PARAMETERS.includes(name)) throw new TypeError(`tojson() got an unexpected keyword argument '${name}'`);
    if (given.has(name)) throw new TypeError(`tojson() got multiple values for argument '${name}'`);
    given.set(name, argument);
  }
  if (value.type === 'UndefinedValue') throw new TypeError('"tojson" of an undefined value (UndefinedValue): Object of type Undefined is not JSON serializable');
  const truthy = (argument: Value | undefined) => argument !== undefined && pyTruthy(argument);
  const indent = indentOf(given.get('indent'));
  const [itemSeparator, keySeparator] = separatorsOf(given.get('separators'), indent);
  const layout: JsonLayout = { indent, itemSeparator, keySeparator, sortKeys: truthy(given.get('sort_keys')), ensureAscii: truthy(given.get('ensure_ascii')) };
  return pyJsonDumpsAs(value, layout, limit);
}
