/**
 * jinja2's filters whose arguments go by place or by name, given their
 * evaluated arguments: `replace(old, new, count=None)` and the numbers
 * `int(default=0, base=10)` and `float(default=0.0)`, each as jinja2 3.1
 * computes it (the library's replace took texts alone; its int and float
 * read the number a text begins with).
 */
import { LIST_FILTERS, listFilter } from './jinja2-list-filters.ts';
import { NUMBER_FILTERS, numberFilter } from './jinja2-number-filters.ts';
import { jinja2GroupBy } from './jinja2-groupby.ts';
import { jinja2Sort } from './jinja2-sort.ts';
import { TEXT_FILTERS, textFilter } from './jinja2-text-filters.ts';
import { jinja2Int, NO_NUMBER, pyFloatOf } from './python-int-float.ts';
import { pyStr, type RuntimeValue } from './python-str.ts';
import { boundedReplace } from './jinja2-values.ts';

type Value = RuntimeValue;

/** A filter's evaluated arguments: by place, then by name. */
export interface FilterArguments {
  positional: Value[];
  named: Map<string, Value>;
}

/** What makes the library's values: an integer or a text (runtime), a float (which JavaScript cannot tell from an integer), a tuple, a record. */
export interface Makers {
  runtime: (value: unknown) => Value;
  float: (value: number) => Value;
  tuple: (items: Value[]) => Value;
  record: (entries: Map<string, Value>) => Value;
}

export const ARGUMENT_FILTERS = new Set(['replace', 'int', 'float', 'sort', 'groupby', ...NUMBER_FILTERS, ...TEXT_FILTERS, ...LIST_FILTERS]);

/** The argument at `place`, or the one named `name`, or undefined. */
function argument({ positional, named }: FilterArguments, place: number, name: string): Value | undefined {
  return positional[place] ?? named.get(name);
}

/** replace: Python's str.replace of the texts of its arguments, in str() of the value (a Markup's too: jinja2 gives a plain text). */
function replaced(text: string, args: FilterArguments, { runtime }: Makers): Value {
  const [old, replacement, count] = [argument(args, 0, 'old'), argument(args, 1, 'new'), argument(args, 2, 'count')];
  if (old === undefined || replacement === undefined) throw new TypeError(`do_replace() missing 1 required positional argument: '${old === undefined ? 'old' : 'new'}'`);
  const most = count === undefined || count.type === 'NullValue' ? -1 : Number(count.value);
  return runtime(boundedReplace(text, pyStr(old), pyStr(replacement), most));
}

/** `name` (one of ARGUMENT_FILTERS) of `value` with its arguments, as jinja2 gives it. */
export function argumentFilter(name: string, value: Value, args: FilterArguments, makers: Makers): Value {
  if (name === 'replace') return replaced(String(value.value), args, makers);
  const context = { ...makers, ...args, argument: (place: number, named: string) => argument(args, place, named) };
  if (name === 'sort') return jinja2Sort(value, context.argument, makers.runtime);
  if (name === 'groupby') return jinja2GroupBy(value, context);
  if (NUMBER_FILTERS.has(name)) return numberFilter(name, value, context);
  if (TEXT_FILTERS.has(name)) return textFilter(name, value, context);
  if (LIST_FILTERS.has(name)) return listFilter(name, value, context);
  // jinja2's Undefined fails on int() and float() (its UndefinedError), where the library's filters gave 0.
  if (value.type === 'UndefinedValue') throw new TypeError(`"${name}" of an undefined value (UndefinedValue): jinja2 fails on it`);
  const fallback = argument(args, 0, 'default');
  if (name === 'float') {
    const number = pyFloatOf(value);
    return number === NO_NUMBER ? (fallback ?? makers.float(0)) : makers.float(number);
  }
  const base = argument(args, 1, 'base');
  const number = jinja2Int(value, base === undefined ? 10 : Number(base.value));
  return number === NO_NUMBER ? (fallback ?? makers.runtime(0)) : makers.runtime(number);
}
