/**
 * jinja2's `sort(reverse=False, case_sensitive=False, attribute=None)`: Python's
 * sorted() by a key, stable (equal items keep their order, reversed too), texts
 * compared without their case unless case_sensitive, `attribute` a dotted path
 * or several, comma-separated ('score,name': by score, then name). The
 * library's sort read one attribute alone and could not order lists ("Cannot
 * compare type: ArrayValue": a record's items() sorted), and it compared
 * texts and numbers where Python raises a TypeError.
 */
import { pyCompare } from './jinja2-tests.ts';
import { attributeOf } from './jinja2-values.ts';
import { pyItems } from './jinja2-select.ts';
import { pyEquals, type RuntimeValue } from './python-str.ts';

type Value = RuntimeValue;

/** A key part as the sort compares it: a text lowered unless case_sensitive. */
function comparable(value: Value, caseSensitive: boolean, runtime: (value: unknown) => Value): Value {
  return !caseSensitive && typeof value.value === 'string' ? runtime(value.value.toLowerCase()) : value;
}

/** `value` sorted as jinja2's sort filter sorts it. */
export function jinja2Sort(value: Value, argument: (place: number, name: string) => Value | undefined, runtime: (value: unknown) => Value): Value {
  const reverse = argument(0, 'reverse')?.value === true;
  const caseSensitive = argument(1, 'case_sensitive')?.value === true;
  const attribute = argument(2, 'attribute');
  const paths = attribute === undefined || attribute.type === 'NullValue' ? [] : String(attribute.value).split(',').map((path) => path.split('.'));
  const keyOf = (item: Value): Value[] => (paths.length === 0 ? [item] : paths.map((path) => path.reduce(attributeOf, item))).map((part) => comparable(part, caseSensitive, runtime));
  const keyed = pyItems(value).map((item) => ({ item, key: keyOf(item) }));
  const compare = (a: Value[], b: Value[]): number => {
    for (let index = 0; index < a.length; index++) {
      // As Python compares keys: equal parts first (two missing attributes are equal), then the first unequal by "<".
      if (pyEquals(a[index] as Value, b[index] as Value)) continue;
      return pyCompare(a[index] as Value, b[index] as Value, '<');
    }
    return 0;
  };
  // Array.prototype.sort is stable; reversed, equal items keep their order, as Python's sorted(reverse=True) keeps them.
  keyed.sort((a, b) => (reverse ? compare(b.key, a.key) : compare(a.key, b.key)));
  const sorted = runtime([]);
  sorted.value = keyed.map(({ item }) => item);
  return sorted;
}
