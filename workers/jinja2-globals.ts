/**
 * jinja2's default globals that `@huggingface/jinja` lacks: `dict()`, which
 * Mistral's chat templates call to build each tool call's record
 * (`dict(name=…, arguments=…) | tojson`), and `joiner()`, jinja2's separator
 * that prints nothing the first time. A template calling either failed
 * ("Cannot call something that is not a function: got UndefinedValue").
 */
import { pyType } from './jinja2-tests.ts';
import { runtime } from './jinja2-values.ts';
import type { RuntimeValue } from './python-str.ts';

type Value = RuntimeValue;

/** One item of dict()'s list: a pair's two values (a list, a tuple, or a text of two characters). */
function pairOf(item: Value, index: number): [Value, Value] {
  const items = typeof item.value === 'string' ? Array.from(item.value, (char) => runtime(char)) : Array.isArray(item.value) ? (item.value as Value[]) : null;
  if (items === null) throw new TypeError(`cannot convert dictionary update sequence element #${index} to a sequence`);
  if (items.length !== 2) throw new RangeError(`dictionary update sequence element #${index} has length ${items.length}; 2 is required`);
  return items as [Value, Value];
}

/** A record's key: a text (the library's records have no other keys; Python's dict would keep a number as a number). */
function keyOf(key: Value): string {
  if (key.type !== 'StringValue') throw new TypeError(`dict() with a ${pyType(key)} key: a record here has texts for keys, where Python's keeps the ${pyType(key)}`);
  return String(key.value);
}

/** Python's dict(source, **named): a record's copy or a list of pairs, then the keywords over it. */
export function pyDict(positional: readonly Value[], named: ReadonlyMap<string, Value>): Value {
  if (positional.length > 1) throw new TypeError(`dict expected at most 1 argument, got ${positional.length}`);
  const record = runtime({});
  const entries = record.value as Map<string, Value>;
  const [source] = positional;
  if (source?.type === 'ObjectValue') for (const [key, value] of source.value as Map<string, Value>) entries.set(key, value);
  // A text's items are its characters, each of length 1.
  else if (typeof source?.value === 'string' && source.value !== '') throw new RangeError('dictionary update sequence element #0 has length 1; 2 is required');
  else if (Array.isArray(source?.value)) (source.value as Value[]).forEach((item, index) => {
    const [key, value] = pairOf(item, index);
    entries.set(keyOf(key), value);
  });
  else if (source !== undefined) throw new TypeError(`'${pyType(source)}' object is not iterable`);
  for (const [key, value] of named) entries.set(key, value);
  return record;
}

/** jinja2's joiner(sep=', '): a function that gives '' when first called, then `separator`. */
export function joiner(separator: unknown = ', '): () => unknown {
  let called = false;
  return () => {
    if (called) return separator;
    called = true;
    return '';
  };
}
