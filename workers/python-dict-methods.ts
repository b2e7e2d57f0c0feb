/**
 * A record's methods that change it, as Python's dict has them: `update`
 * (of a record, of (key, value) pairs, of keywords), `pop` (with a default)
 * and `setdefault`. jinja2 renders a template over Python's dicts, so
 * `{% set _ = d.update({'b': 2}) %}` adds `b` there; the library's records
 * have none of these, and such a template failed ("'update' is undefined").
 */
import type { FilterArguments } from './jinja2-argument-filters.ts';
import { pyItems } from './jinja2-select.ts';
import { pyRepr, type RuntimeValue } from './python-str.ts';

type Value = RuntimeValue;
type RecordKey = string | number;

export const DICT_METHODS = new Set(['update', 'pop', 'setdefault']);

/** A key as the record holds it: a text or a number (python's str and int keys); another kind fails as in recordOf. */
function keyOf(value: Value): RecordKey {
  if (value.type === 'StringValue') return String(value.value);
  if (value.type === 'IntegerValue' || value.type === 'FloatValue') return Number(value.value);
  throw new TypeError(`a record keyed by ${value.type}: tmas holds records keyed by texts and numbers alone`);
}

/** The pairs `update` adds from its one positional argument: a record's, or a list's (key, value) pairs. */
function pairsOf(source: Value): Array<[RecordKey, Value]> {
  if (source.value instanceof Map) return [...(source.value as Map<RecordKey, Value>)];
  return pyItems(source).map((pair, index) => {
    const items = Array.isArray(pair.value) ? (pair.value as Value[]) : typeof pair.value === 'string' ? pyItems(pair) : null;
    if (items === null) throw new TypeError(`cannot convert dictionary update sequence element #${index} to a sequence`);
    if (items.length !== 2) throw new ValueError(`dictionary update sequence element #${index} has length ${items.length}; 2 is required`);
    return [keyOf(items[0] as Value), items[1] as Value];
  });
}

class ValueError extends Error {
  override name = 'ValueError';
}

/** `record.method(...)` (one of DICT_METHODS), which changes `record` as Python's dict does; `none` is what a call that returns None gives. */
export function dictMethod(record: Map<RecordKey, Value>, method: string, { positional, named }: FilterArguments, none: Value): Value {
  if (method === 'update') {
    if (positional.length > 1) throw new TypeError(`update expected at most 1 argument, got ${positional.length}`);
    for (const [key, value] of positional[0] === undefined ? [] : pairsOf(positional[0])) record.set(key, value);
    for (const [key, value] of named) record.set(key, value);
    return none;
  }
  if (named.size > 0) throw new TypeError(`dict.${method}() takes no keyword arguments`);
  const [keyValue, fallback] = positional;
  if (keyValue === undefined || positional.length > 2) throw new TypeError(`${method} expected at ${keyValue === undefined ? 'least 1 argument, got 0' : `most 2 arguments, got ${positional.length}`}`);
  const key = keyOf(keyValue);
  const held = record.get(key);
  if (method === 'setdefault') {
    if (held !== undefined) return held;
    record.set(key, fallback ?? none);
    return fallback ?? none;
  }
  if (held === undefined) {
    if (fallback === undefined) throw new Error(`KeyError: ${pyRepr(keyValue)}`);
    return fallback;
  }
  record.delete(key);
  return held;
}
