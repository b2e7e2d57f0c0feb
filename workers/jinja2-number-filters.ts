/**
 * jinja2's filters of numbers and of lists of them that `@huggingface/jinja`
 * lacks (it refused them: "Unknown ArrayValue filter: sum"): `round` (Python's
 * round, which takes a tie to the even digit, or math's ceil or floor),
 * `sum` (of items or of an attribute of each), `min` and `max` (texts
 * compared without their case unless case_sensitive, of an attribute of each,
 * undefined for no items). A prompt template rounds a score or sums a
 * count with them.
 */
import { pyCompare, pyType } from './jinja2-tests.ts';
import { fixedDigits } from './python-float-digits.ts';
import { pyIntOfFloat } from './python-int-float.ts';
import { attributeOf, boundedJoin } from './jinja2-values.ts';
import { pyItems } from './jinja2-select.ts';
import { isTuple, markTuple, type RuntimeValue } from './python-str.ts';

type Value = RuntimeValue;

/** What the filters here are given: their arguments, and what makes the library's values. */
export interface NumberFilterContext {
  argument: (place: number, name: string) => Value | undefined;
  runtime: (value: unknown) => Value;
  float: (value: number) => Value;
}

export const NUMBER_FILTERS = new Set(['round', 'sum', 'min', 'max', 'abs']);

/** Python's round(x, digits) of a float: the decimal nearest, a tie to the even digit (round(2.5) is 2.0, round(0.125, 2) 0.12). */
export function pyRound(x: number, digits: number): number {
  if (!Number.isFinite(x)) return x;
  if (digits < 0) {
    const scale = 10 ** -digits;
    return pyRound(x / scale, 0) * scale;
  }
  return Math.sign(x) * Number(fixedDigits(x, Math.min(digits, 60)));
}

/** round(value, precision=0, method='common'): of an integer with method common, the integer itself, as Python's round gives it. */
function rounded(value: Value, { argument, runtime, float }: NumberFilterContext): Value {
  const precision = Number(argument(0, 'precision')?.value ?? 0);
  const method = String(argument(1, 'method')?.value ?? 'common');
  if (!['common', 'ceil', 'floor'].includes(method)) throw new RangeError('round: method must be common, ceil or floor');
  if (value.type !== 'IntegerValue' && value.type !== 'FloatValue' && value.type !== 'BooleanValue') throw new TypeError(`type ${value.type === 'StringValue' ? 'str' : value.type} doesn't define __round__ method`);
  const number = Number(value.value);
  if (method === 'common') return value.type === 'FloatValue' ? float(pyRound(number, precision)) : runtime(precision >= 0 ? number : pyRound(number, precision));
  const scale = 10 ** precision;
  // math.ceil and math.floor give an int: 0 for -0.4 (not -0), Python's error for an infinity or NaN.
  return float(pyIntOfFloat(method === 'ceil' ? Math.ceil(number * scale) : Math.floor(number * scale)) / scale);
}

/** The items of `value`, or the attribute (a dotted path) of each. */
function itemsOf(value: Value, attribute: Value | undefined): Value[] {
  const path = attribute === undefined || attribute.type === 'NullValue' ? [] : String(attribute.value).split('.');
  return pyItems(value).map((item) => path.reduce(attributeOf, item));
}

/** sum(iterable, attribute=None, start=0): numbers added as Python adds them (a bool as 0 or 1), a float where one is. */
function summed(value: Value, { argument, runtime, float }: NumberFilterContext): Value {
  const start = argument(1, 'start');
  if (start !== undefined && (start.type === 'ArrayValue' || start.type === 'TupleValue')) return joinedSequences(start, itemsOf(value, argument(0, 'attribute')), runtime);
  if (start?.type === 'StringValue') throw new TypeError("sum() can't sum strings [use ''.join(seq) instead]");
  let total = Number(start?.value ?? 0);
  let isFloat = start?.type === 'FloatValue';
  for (const item of itemsOf(value, argument(0, 'attribute'))) {
    if (!['IntegerValue', 'FloatValue', 'BooleanValue'].includes(item.type)) throw new TypeError(`"sum" of a list holding a ${item.type === 'StringValue' ? 'str' : item.type}: unsupported operand type(s) for +`);
    total += Number(item.value);
    isFloat ||= item.type === 'FloatValue';
  }
  if (isFloat || Number.isSafeInteger(total)) return isFloat ? float(total) : runtime(total);
  // Integers past 2**53 added as Python adds them, exactly; refused where no float holds the sum ([2 ** 53, 1] | sum).
  const exact = itemsOf(value, argument(0, 'attribute')).reduce((sum, item) => sum + BigInt(Number(item.value)), BigInt(Number(start?.value ?? 0)));
  if (!Number.isFinite(Number(exact)) || BigInt(Number(exact)) !== exact) throw new RangeError(`"sum" is ${exact}, an integer past 2**53 that no float holds, where jinja2's integers are exact: tmas refuses it rather than print or compute with another number; keep such numbers texts`);
  return runtime(Number(exact));
}

/** Python's name of a sequence's kind, of any other value its type's. */
function kindOf(value: Value): string {
  return isTuple(value) ? 'tuple' : pyType(value);
}

/**
 * sum(…, start=[]) or start=(): the lists (tuples) joined as Python's sum joins them, each to the next, from `start`;
 * a list among tuples, or anything else, fails as in Python. Bounded as `+` of two lists is.
 */
function joinedSequences(start: Value, items: Value[], runtime: (value: unknown) => Value): Value {
  const kind = kindOf(start);
  const joined = [...(start.value as Value[])];
  for (const item of items) {
    if (kindOf(item) !== kind) throw new TypeError(`can only concatenate ${kind} (not "${kindOf(item)}") to ${kind}`);
    boundedJoin(joined, item.value as Value[]);
    // Appended in place, not copied per item (Python's sum copies, a square of the items: 100,000 lists of one held a thread 63 s).
    for (const element of item.value as Value[]) joined.push(element);
  }
  const result = runtime([]);
  result.value = joined;
  if (kind === 'tuple') markTuple(result);
  return result;
}

/** min or max(value, case_sensitive=False, attribute=None): the first least or greatest item; undefined for none. */
function extreme(name: string, value: Value, { argument, runtime }: NumberFilterContext): Value {
  const caseSensitive = argument(0, 'case_sensitive')?.value === true;
  const attribute = argument(1, 'attribute');
  const path = attribute === undefined || attribute.type === 'NullValue' ? [] : String(attribute.value).split('.');
  const keyOf = (item: Value): Value => {
    const key = path.reduce(attributeOf, item);
    return !caseSensitive && typeof key.value === 'string' ? runtime(key.value.toLowerCase()) : key;
  };
  const items = pyItems(value);
  let best = items[0];
  if (best === undefined) return runtime(undefined);
  for (const item of items.slice(1)) {
    const order = pyCompare(keyOf(item), keyOf(best), name === 'min' ? '<' : '>');
    if ((name === 'min' && order < 0) || (name === 'max' && order > 0)) best = item;
  }
  return best;
}

/** Python's abs(): an integer's exact, a float's, a bool's as 0 or 1 (the library failed: "Unknown BooleanValue filter: abs"). */
function absolute(value: Value, { runtime, float }: NumberFilterContext): Value {
  if (value.type === 'BooleanValue') return runtime(value.value ? 1 : 0);
  if (value.type === 'IntegerValue') return runtime(Math.abs(value.value as number));
  if (value.type === 'FloatValue') return float(Math.abs(value.value as number));
  throw new TypeError(`bad operand type for abs(): '${pyType(value)}'`);
}

/** `name` (one of NUMBER_FILTERS) of `value`, as jinja2 gives it. */
export function numberFilter(name: string, value: Value, context: NumberFilterContext): Value {
  if (name === 'abs') return absolute(value, context);
  if (name === 'round') return rounded(value, context);
  if (name === 'sum') return summed(value, context);
  return extreme(name, value, context);
}
