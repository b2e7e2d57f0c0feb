/**
 * Python's `+` on the values jinja2 hands it. `@huggingface/jinja` joins a
 * text with whatever stands on the other side (`'<s>' + message.content`
 * with content a list of parts gave `<s>[object Object]`, a record
 * `[object Map]`, a number its digits), where Python raises a TypeError and
 * jinja2's render stops: a chat template written for texts, given a list,
 * sent the model a prompt its author's code never could. And it refuses a
 * bool added to a number, which Python adds as 0 or 1.
 */
import { isMarkup } from './jinja2-markup.ts';
import { pyType } from './jinja2-tests.ts';
import type { RuntimeValue } from './python-str.ts';

const NUMBERS = new Set(['IntegerValue', 'FloatValue', 'BooleanValue']);
/** Types that add only to their own kind: a text to a text, a list to a list. */
const SEQUENCES = new Set(['StringValue', 'ArrayValue', 'TupleValue']);

/** Python's name of a value's type, a Markup (what tojson and safe give) as Markup. */
function typeName(value: RuntimeValue): string {
  return isMarkup(value) ? 'Markup' : pyType(value);
}

/**
 * Python's TypeError for `a + b`, or null where Python adds them: two numbers,
 * two texts, two lists. An undefined side is the library's to refuse (jinja2
 * raises its UndefinedError there).
 */
export function plusRefusal(a: RuntimeValue, b: RuntimeValue): TypeError | null {
  if (NUMBERS.has(a.type) && NUMBERS.has(b.type)) return null;
  if (a.type === 'UndefinedValue' || b.type === 'UndefinedValue') return null;
  if (SEQUENCES.has(a.type) && a.type === b.type) return null;
  const [left, right] = [typeName(a), typeName(b)];
  // str, list and tuple name the one type they take; a Markup defers to the other side, which has no "+" for it.
  if (SEQUENCES.has(a.type) && left !== 'Markup') return new TypeError(`"+" between ${left} and ${right}: can only concatenate ${left} (not "${right}") to ${left}`);
  return new TypeError(`"+" between ${left} and ${right}: unsupported operand type(s) for +: '${left}' and '${right}'`);
}

/** A bool as the integer Python adds it as (True + 1 is 2); any other value as it is. */
export function asAddend(value: RuntimeValue, integer: (number: number) => RuntimeValue): RuntimeValue {
  return value.type === 'BooleanValue' ? integer(value.value ? 1 : 0) : value;
}
