/**
 * jinja2's filters that cut a sequence into lists, which `@huggingface/jinja`
 * lacks (a template using one was refused before the run): `batch(linecount,
 * fill_with=None)`, lists of `linecount` items in order, the last padded
 * with `fill_with` where one is given; `slice(slices, fill_with=None)`,
 * `slices` lists of nearly equal length, the longer first, each shorter one
 * padded with `fill_with` where one is given. Both give generators in
 * jinja2, as `map` does: `| list` makes the lists.
 */
import { pyItems } from './jinja2-select.ts';
import { MAX_STEPS, TemplateBoundError } from './jinja2-values.ts';
import { pyType } from './jinja2-tests.ts';
import type { RuntimeValue } from './python-str.ts';

type Value = RuntimeValue;

export const LIST_FILTERS = new Set(['batch', 'slice']);

/** What the list filters need of the render: arguments by place or name, and a list value made of items. */
export interface ListFilterContext {
  argument: (place: number, name: string) => Value | undefined;
  runtime: (value: unknown) => Value;
}

/**
 * A count of lists, or of the items padding one, refused past MAX_STEPS before they are made, as a list repeated
 * with `*` is: `[x] | slice(33000000)` made 33 million lists, 4 GB, before the render's clock could stop it, and
 * `batch(33000000, 0)` overflowed the stack with its padding ("Maximum call stack size exceeded").
 */
function boundedItems(count: number, what: string): number {
  if (count > MAX_STEPS) throw new TemplateBoundError(`${what} makes ${count.toLocaleString('en-US')} items, more than a prompt can loop over (at most ${MAX_STEPS.toLocaleString('en-US')})`);
  return count;
}

function countOf(name: string, value: Value | undefined, what: string): number {
  if (value === undefined) throw new TypeError(`do_${name}() missing 1 required positional argument: '${what}'`);
  if (value.type === 'FloatValue' && name === 'batch') return Number(value.value);
  if (value.type !== 'IntegerValue' && value.type !== 'BooleanValue') throw new TypeError(`'${pyType(value)}' object cannot be interpreted as an integer`);
  return Number(value.value);
}

/**
 * `items` in lists that close when they hold `size` items, as jinja2 closes them (of size 0 an empty list, then
 * one of all; of a size no list reaches, one of all), the last padded to `size` with `fill` where one is given.
 */
function batches(items: Value[], size: number, fill: Value | undefined): Value[][] {
  const lists: Value[][] = [];
  let current: Value[] = [];
  for (const item of items) {
    if (current.length === size) {
      lists.push(current);
      current = [];
    }
    current.push(item);
  }
  if (current.length === 0) return lists;
  if (fill !== undefined && fill.type !== 'NullValue' && current.length < size) {
    if (!Number.isInteger(size)) throw new TypeError("can't multiply sequence by non-int of type 'float'");
    boundedItems(size, `"batch" of ${size} padded`);
    while (current.length < size) current.push(fill);
  }
  lists.push(current);
  return lists;
}

/** `items` cut into `count` lists, the first (length % count) one item longer; the shorter ones padded with `fill` where one is given. */
function slices(items: Value[], count: number, fill: Value | undefined): Value[][] {
  if (count === 0) throw new RangeError('integer division or modulo by zero');
  const size = Math.floor(items.length / count);
  const longer = items.length - size * count;
  const lists: Value[][] = [];
  let start = 0;
  boundedItems(count, `"slice" into ${count} lists`);
  for (let index = 0; index < count; index++) {
    const length = size + (index < longer ? 1 : 0);
    const list = items.slice(start, start + length);
    start += length;
    if (fill !== undefined && fill.type !== 'NullValue' && index >= longer) list.push(fill);
    lists.push(list);
  }
  return lists;
}

/** `name` (one of LIST_FILTERS) of `value`, as jinja2 gives it: a list of lists (a generator, by jinja2-values.ts GENERATING). */
export function listFilter(name: string, value: Value, { argument, runtime }: ListFilterContext): Value {
  const items = pyItems(value);
  const fill = argument(1, 'fill_with');
  const lists = name === 'batch' ? batches(items, countOf(name, argument(0, 'linecount'), 'linecount'), fill) : slices(items, countOf(name, argument(0, 'slices'), 'slices'), fill);
  const made = runtime([]);
  made.value = lists.map((list) => {
    const each = runtime([]);
    each.value = list;
    return each;
  });
  return made;
}
