/**
 * jinja2's `groupby(attribute, default=None, case_sensitive=False)`, which
 * `@huggingface/jinja` lacks (a template using it was refused before the
 * run): the items sorted by the attribute (a dotted path, or an index), then
 * gathered into one (grouper, list) pair for each run of equal keys, texts
 * compared without their case unless case_sensitive, each grouper as the
 * first item of its group has it. A pair prints and unpacks as a tuple, and
 * has `.grouper` and `.list`, as jinja2's named tuple does.
 */
import { pyItems } from './jinja2-select.ts';
import { pyCompare, pyType } from './jinja2-tests.ts';
import { attributeOf, nameFields } from './jinja2-values.ts';
import { markTuple, pyEquals, type RuntimeValue } from './python-str.ts';

type Value = RuntimeValue;

export interface GroupByContext {
  argument: (place: number, name: string) => Value | undefined;
  runtime: (value: unknown) => Value;
}

/** A list value holding `items`. */
function listOf(items: Value[], runtime: (value: unknown) => Value): Value {
  return Object.assign(runtime([]), { value: items });
}

/** One group: a tuple (grouper, list) whose fields are attributes too. */
function group(grouper: Value, items: Value[], runtime: (value: unknown) => Value): Value {
  const list = listOf(items, runtime);
  const pair = listOf([grouper, list], runtime);
  markTuple(pair);
  nameFields(pair, new Map([['grouper', grouper], ['list', list]]));
  return pair;
}

/** `value` grouped as jinja2's groupby filter groups it. */
export function jinja2GroupBy(value: Value, { argument, runtime }: GroupByContext): Value {
  const attribute = argument(0, 'attribute');
  if (attribute === undefined) throw new TypeError("sync_do_groupby() missing 1 required positional argument: 'attribute'");
  const fallback = argument(1, 'default');
  const caseSensitive = argument(2, 'case_sensitive')?.value === true;
  const path = String(attribute.value).split('.');
  const keyOf = (item: Value): Value => {
    const key = path.reduce(attributeOf, item);
    return key.type === 'UndefinedValue' && fallback !== undefined && fallback.type !== 'NullValue' ? fallback : key;
  };
  const comparable = (item: Value): Value => {
    const key = keyOf(item);
    return !caseSensitive && typeof key.value === 'string' ? runtime(key.value.toLowerCase()) : key;
  };
  // Python's sorted() by the key: stable, keys ordered by "<" alone, even equal ones, so keys that "<" refuses fail
  // as there (a text and a number, two None, an attribute an item lacks), where grouping them printed "Undefined".
  const keyed = pyItems(value).map((item) => ({ item, key: comparable(item) }));
  const ordered = (key: Value, item: Value): Value => {
    if (key.type === 'UndefinedValue') throw new TypeError(`'${pyType(item)} object' has no attribute '${String(attribute.value)}': groupby compares it (UndefinedError)`);
    return key;
  };
  keyed.sort((a, b) => pyCompare(ordered(a.key, a.item), ordered(b.key, b.item), '<'));
  const groups: Value[] = [];
  let current: Value[] = [];
  let currentKey: Value | null = null;
  for (const { item, key } of keyed) {
    if (currentKey !== null && pyEquals(currentKey, key)) {
      current.push(item);
      continue;
    }
    if (currentKey !== null) groups.push(group(keyOf(current[0] as Value), current, runtime));
    current = [item];
    currentKey = key;
  }
  if (currentKey !== null) groups.push(group(keyOf(current[0] as Value), current, runtime));
  return listOf(groups, runtime);
}
