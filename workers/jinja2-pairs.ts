/**
 * A record's (key, value) pairs as Python gives them: items() and dictsort
 * print each as a tuple, and a key that is a number (a dict literal's,
 * Seed-OSS's `{0: 0, 512: 128}`) stays a number, where the library wraps
 * every key in a text value, and its dictsort lowercased them (it failed,
 * "toLowerCase is not a function").
 */
import { pyCompare } from './jinja2-tests.ts';
import { runtime } from './jinja2-values.ts';
import { markTuple, pyEquals, type RuntimeValue } from './python-str.ts';

type Value = RuntimeValue;

/** A list of [key, value] lists (the library's items()) marked as Python's pairs, which print as tuples; they stay lists, which a loop unpacks. */
export function asPairs(list: Value): Value {
  if (list.type !== 'ArrayValue') return list;
  for (const pair of list.value as Value[]) {
    if (pair.type !== 'ArrayValue') continue;
    const [key, ...rest] = pair.value as Value[];
    if (key !== undefined && typeof key.value === 'number') pair.value = [runtime(key.value), ...rest];
    markTuple(pair);
  }
  return list;
}

/** A list of keys (the library's keys()) with each number key a number again. */
export function asKeys(list: Value): Value {
  if (list.type === 'ArrayValue') list.value = (list.value as Value[]).map((key) => (typeof key.value === 'number' ? runtime(key.value) : key));
  return list;
}

/** dictsort(case_sensitive=False, by='key', reverse=False) of a record with a number key; null for the library to sort one keyed by texts alone. */
export function numberKeyedDictsort(record: Value, { positional, named }: { positional: Value[]; named: Map<string, Value> }): Value | null {
  const argument = (place: number, name: string): Value | undefined => positional[place] ?? named.get(name);
  if (!(record.value instanceof Map) || ![...record.value.keys()].some((key) => typeof key === 'number')) return null;
  const caseSensitive = argument(0, 'case_sensitive')?.value === true;
  const byValue = argument(1, 'by')?.value === 'value';
  const reverse = argument(2, 'reverse')?.value === true;
  const comparable = (part: Value): Value => (!caseSensitive && typeof part.value === 'string' ? runtime(part.value.toLowerCase()) : part);
  const pairs = [...(record.value as Map<unknown, Value>).entries()].map(([key, value]) => [runtime(key), value] as const);
  const sortKey = (pair: readonly [Value, Value]) => comparable(pair[byValue ? 1 : 0]);
  pairs.sort((a, b) => (pyEquals(sortKey(a), sortKey(b)) ? 0 : pyCompare(sortKey(a), sortKey(b), '<')) * (reverse ? -1 : 1));
  return asPairs(Object.assign(runtime([]), { value: pairs.map((pair) => Object.assign(runtime([]), { value: [...pair] })) }));
}

/** Whether `record` holds a number key (a dict literal's). */
function hasNumberKey(record: Value): boolean {
  return record.type === 'ObjectValue' && record.value instanceof Map && [...record.value.keys()].some((key) => typeof key === 'number');
}

/**
 * The keys a loop over a record with a number key goes through, numbers as numbers; null for the library's loop
 * over one keyed by texts alone. The library's loop gave each key as a text: `k == 512` was false, `k * 2`
 * repeated the text, where jinja2 renders the number's.
 */
export function numberKeysOf(record: Value): Value | null {
  return hasNumberKey(record) ? runtime([...(record.value as Map<unknown, Value>).keys()]) : null;
}

/** Whether `key` is an integer or a float: the keys the library's get() refused ("Object key must be a string"). */
export function isNumberKey(key: Value | undefined): boolean {
  return key?.type === 'IntegerValue' || key?.type === 'FloatValue';
}

/** Python's dict.get(key, default=None) of a number key (isNumberKey), as jinja2 gives it. */
export function numberKeyedGet(record: Value, { positional }: { positional: Value[] }): Value {
  if (record.type !== 'ObjectValue' || !(record.value instanceof Map)) throw new TypeError(`'${record.type}' has no get(): jinja2 fails on it (UndefinedError)`);
  if (positional.length > 2) throw new TypeError(`get expected at most 2 arguments, got ${positional.length}`);
  const [key, fallback] = positional as [Value, Value | undefined];
  return (record.value as Map<unknown, Value>).get(Number(key.value)) ?? fallback ?? runtime(null);
}
