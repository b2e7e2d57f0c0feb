/**
 * jinja2's filters that keep some items of a list by a test (`select`,
 * `reject`, `selectattr`, `rejectattr`) and `unique`, as jinja2 gives them.
 *
 * `@huggingface/jinja` lacks `select` and `reject` (Llama 3.1's template
 * writes `reject('equalto', 'code_interpreter')`), tells its tests as
 * JavaScript does (jinja2-tests.ts), fails on `none | selectattr(…)` where
 * jinja2 gives no items (it skips a falsy value: functionary's template sets
 * its tools to none), and its `unique` tells apart what differs only in case.
 */
import { pyTest, pyType } from './jinja2-tests.ts';
import { attributeOf, runtime } from './jinja2-values.ts';
import { isTuple, pyEquals, type RuntimeValue } from './python-str.ts';

type Value = RuntimeValue;

/** The filters that keep items by a test. */
export const SELECTING = new Set(['select', 'reject', 'selectattr', 'rejectattr']);

/** Python's bool() of a value: None, an undefined value, False, zero and what is empty are false. */
export function pyTruthy(value: Value): boolean {
  if (value.type === 'NullValue' || value.type === 'UndefinedValue') return false;
  if (typeof value.value === 'string' || Array.isArray(value.value)) return value.value.length > 0;
  if (value.value instanceof Map) return value.value.size > 0;
  if (typeof value.value === 'number' || typeof value.value === 'boolean') return Boolean(value.value);
  return true;
}

/** The items a loop over `value` gives in Python: a list's items, a text's characters, a record's keys. */
export function pyItems(value: Value): Value[] {
  if (Array.isArray(value.value)) return value.value as Value[];
  if (typeof value.value === 'string') return Array.from(value.value, (char) => runtime(char));
  if (value.value instanceof Map) return [...value.value.keys()].map((key) => runtime(key));
  if (value.type === 'UndefinedValue') return [];
  throw new TypeError(`'${value.type}' object is not iterable`);
}

function listOf(items: Value[]): Value {
  const list = runtime([]);
  list.value = items;
  return list;
}

/**
 * `value | select(test, …)`, `reject(test, …)`, `selectattr(attribute, test, …)` or `rejectattr(…)`, given their
 * positional arguments evaluated: the items whose value (or attribute, a dotted path) passes the test (or is true,
 * without one), or fails it.
 */
export function selected(filter: string, value: Value, args: Value[]): Value {
  if (!pyTruthy(value)) return listOf([]);
  const byAttribute = filter.endsWith('attr');
  const path = byAttribute ? String(args[0]?.value ?? '').split('.') : [];
  const [test, ...testArgs] = byAttribute ? args.slice(1) : args;
  const keep = filter.startsWith('select');
  return listOf(
    pyItems(value).filter((item) => {
      const subject = path.reduce(attributeOf, item);
      const passed = test === undefined ? pyTruthy(subject) : pyTest(String(test.value), subject, testArgs);
      return passed === keep;
    }),
  );
}

/**
 * `value | unique(case_sensitive=False, attribute=None)`: the first of the items equal by their key (the item, or its
 * attribute at a dotted path), a text's key lowered unless case_sensitive, in their order.
 */
export function unique(value: Value, { positional, named }: { positional: Value[]; named: ReadonlyMap<string, Value> } = { positional: [], named: new Map() }): Value {
  const caseSensitive = pyTruthy(positional[0] ?? named.get('case_sensitive') ?? runtime(false));
  const attribute = positional[1] ?? named.get('attribute');
  const path = attribute === undefined || attribute.type === 'NullValue' ? [] : String(attribute.value).split('.');
  const kept: Value[] = [];
  // Seen keys by a hash as Python's set holds them (1, 1.0 and True one key); tuples, rare, compared one by one.
  // A linear search over every key took minutes on a list of 200,000 items.
  const hashed = new Set<string>();
  const tuples: Value[] = [];
  for (const item of pyItems(value)) {
    const field = path.reduce(attributeOf, item);
    const key = typeof field.value === 'string' && !caseSensitive ? runtime(field.value.toLowerCase()) : field;
    const hash = hashOf(key);
    if (hash !== null ? hashed.has(hash) : tuples.some((seen) => pyEquals(seen, key))) continue;
    if (hash !== null) hashed.add(hash);
    else tuples.push(key);
    kept.push(item);
  }
  return listOf(kept);
}

/** A key's hash for unique: a text, a number, None; null for a tuple; Python's TypeError for a list or a record. */
function hashOf(key: Value): string | null {
  if (key.type === 'StringValue') return `s${String(key.value)}`;
  if (key.type === 'IntegerValue' || key.type === 'FloatValue' || key.type === 'BooleanValue') return `n${Number(key.value)}`;
  if (key.type === 'NullValue') return 'None';
  if (isTuple(key)) return null;
  throw new TypeError(`"unique" of items holding a ${pyType(key)}: unhashable type: '${pyType(key)}'`);
}

/**
 * map(attribute=…, default=…): each item's attribute (a dotted path, or an index), the default where it is
 * missing; the library's read records alone ("items in map must be an object": a list of groupby's pairs).
 */
export function mappedAttribute(value: Value, named: ReadonlyMap<string, Value>): Value {
  const attribute = named.get('attribute');
  if (attribute === undefined) throw new TypeError("map() needs a filter's name or attribute=");
  const fallback = named.get('default');
  const path = String(attribute.value).split('.');
  return listOf(
    pyItems(value).map((item) => {
      const found = path.reduce(attributeOf, item);
      return found.type === 'UndefinedValue' && fallback !== undefined ? fallback : found;
    }),
  );
}
