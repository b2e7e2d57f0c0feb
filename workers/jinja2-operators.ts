/**
 * Python's binary operators on the values jinja2 hands them, where
 * `@huggingface/jinja`'s are JavaScript's: `==`/`!=` compare as Python does,
 * `~` joins Python's str() of each side, `+` adds only what Python adds (the
 * library joined a text with whatever stood on the other side: `'<s>' +
 * message.content` with content a list of parts gave `<s>[object Object]`,
 * where Python raises a TypeError and jinja2's render stops), `*` repeats a
 * text or a list, `%` formats a text or takes Python's remainder, `in`
 * looks as Python does, and `<`, `>`, `<=`, `>=` order texts and lists as
 * Python does (the library ordered numbers alone).
 */
import { asMarkup, escapeHtml, isMarkup } from './jinja2-markup.ts';
import { pyCompare, pyContains, pyType } from './jinja2-tests.ts';
import { boundedJoin, repeated, runtime } from './jinja2-values.ts';
import { pyPercent } from './python-format.ts';
import { isTuple, markTuple, pyEquals, pyFloorDivide, pyModulo, pyStr, type RuntimeValue } from './python-str.ts';

type Value = RuntimeValue;

/** The library's own operation on the two values (or on the two given instead), and its float (JavaScript cannot tell 1.0 from 1). */
export interface OperatorFallbacks {
  library: (a?: Value, b?: Value) => Value;
  float: (number: number) => Value;
}

/** The operators computed or checked here; `and`, `or` (which evaluate their right side only when needed) are the library's alone, `-`, `/`, `//`, `**` the library's with their results checked (exactInteger, zeroDivision). */
export const PYTHON_OPERATORS = new Set(['==', '!=', '~', '+', '*', '%', 'in', 'not in', '<', '>', '<=', '>=', '-', '/', '//', '**']);

/** An integer operation as Python computes it, exactly, for the operators whose integer results are checked. */
const EXACT: Record<string, (x: bigint, y: bigint) => bigint> = {
  '+': (x, y) => x + y,
  '-': (x, y) => x - y,
  '*': (x, y) => x * y,
  '**': (x, y) => x ** y,
  '//': (x, y) => x / y - (x % y !== 0n && x < 0n !== y < 0n ? 1n : 0n),
  '%': (x, y) => ((x % y) + y) % y,
};

const integral = (value: Value) => value.type === 'IntegerValue' || value.type === 'BooleanValue';

/**
 * Python's exact integer for `a operator b` where both are integers and either is past 2**53 (every integer value
 * here is exactly the integer jinja2 holds: jinja2-numbers.ts refuses a literal no float holds), or null where the
 * library's float arithmetic is exact. Python's integers grow without bound; a float holds one past 2**53 only
 * where it is a multiple of a power of two, so 10**16 + 1 printed 10000000000000000 and 3 ** 40
 * 12157665459056928768, and a floor division or remainder of large operands could be off by one.
 */
function exactInteger(operator: string, a: Value, b: Value, inexact: () => boolean): bigint | null {
  const exact = EXACT[operator];
  if (exact === undefined || !integral(a) || !integral(b)) return null;
  const [left, right] = [Number(a.value), Number(b.value)];
  if (operator === '**' && right < 0) return null;
  // Past a float's range the exact integer could take the worker minutes (2 ** 10 ** 9): refused without it.
  if (operator === '**' && !Number.isFinite(Math.pow(left, right))) throw pastFloats(a, operator, b, null);
  if (Number.isSafeInteger(left) && Number.isSafeInteger(right) && !inexact()) return null;
  const [x, y] = [BigInt(left), BigInt(right)];
  if (y === 0n && (operator === '//' || operator === '%')) return null;
  return exact(x, y);
}

/** The integer `exact` as a value, or an error naming it where no float holds it. */
function heldInteger(a: Value, operator: string, b: Value, exact: bigint): Value {
  const held = Number(exact);
  if (!Number.isFinite(held) || BigInt(held) !== exact) throw pastFloats(a, operator, b, exact);
  return runtime(held);
}

function pastFloats(a: Value, operator: string, b: Value, exact: bigint | null): RangeError {
  const digits = exact === null ? 'past a float\'s range' : `${exact.toString().length} digits`;
  return new RangeError(`${pyStr(a)} ${operator} ${pyStr(b)} is an integer past 2**53 (${digits}) that no float holds, where jinja2's integers are exact: tmas refuses it rather than print or compute with another number; keep such numbers texts`);
}

/** Python's ZeroDivisionError for `/`, `//` and `%` by zero (the library gave inf, or a message about BigInt). */
function zeroDivision(operator: string, a: Value, b: Value): void {
  if (!['/', '//', '%'].includes(operator) || !NUMBERS.has(a.type) || !NUMBERS.has(b.type) || Number(b.value) !== 0) return;
  const float = a.type === 'FloatValue' || b.type === 'FloatValue';
  const message = { '/': float ? 'float division by zero' : 'division by zero', '//': float ? 'float floor division by zero' : 'integer division or modulo by zero', '%': float ? 'float modulo' : 'integer modulo by zero' }[operator];
  throw new RangeError(`"${operator}" by zero: ${message}`);
}

const NUMBERS = new Set(['IntegerValue', 'FloatValue', 'BooleanValue']);
/** Types that add only to their own kind: a text to a text, a list to a list. */
const SEQUENCES = new Set(['StringValue', 'ArrayValue', 'TupleValue']);

/** Python's name of a value's type, a Markup (what tojson and safe give) as Markup. */
function typeName(value: Value): string {
  return isMarkup(value) ? 'Markup' : value.type !== 'StringValue' && isTuple(value) ? 'tuple' : pyType(value);
}

/**
 * Python's TypeError for `a + b`, or null where Python adds them: two numbers,
 * two texts, two lists. An undefined side is the library's to refuse (jinja2
 * raises its UndefinedError there).
 */
function plusRefusal(a: Value, b: Value): TypeError | null {
  if (NUMBERS.has(a.type) && NUMBERS.has(b.type)) return null;
  if (a.type === 'UndefinedValue' || b.type === 'UndefinedValue') return null;
  // A text adds to a text (a Markup too); a list to a list, a tuple to a tuple (a literal one or a record's pair).
  if (a.type === 'StringValue' || b.type === 'StringValue') {
    if (a.type === b.type) return null;
  } else if (SEQUENCES.has(a.type) && SEQUENCES.has(b.type) && isTuple(a) === isTuple(b)) return null;
  const [left, right] = [typeName(a), typeName(b)];
  // str, list and tuple name the one type they take; a Markup defers to the other side, which has no "+" for it.
  if (SEQUENCES.has(a.type) && left !== 'Markup') return new TypeError(`"+" between ${left} and ${right}: can only concatenate ${left} (not "${right}") to ${left}`);
  return new TypeError(`"+" between ${left} and ${right}: unsupported operand type(s) for +: '${left}' and '${right}'`);
}

/** A bool as the integer Python adds it as (True + 1 is 2); any other value as it is. */
function asAddend(value: Value): Value {
  return value.type === 'BooleanValue' ? runtime(value.value ? 1 : 0) : value;
}

/** `+`: a TypeError where Python raises one; a plain text added to a Markup is escaped for HTML first (jinja2-markup.ts). */
function plus(left: Value, right: Value, { library, float }: OperatorFallbacks): Value {
  const [a, b] = [asAddend(left), asAddend(right)];
  const refusal = plusRefusal(a, b);
  if (refusal !== null) throw refusal;
  if (Array.isArray(a.value) && Array.isArray(b.value)) {
    boundedJoin(a.value, b.value);
    // A tuple and a tuple make a tuple (a record's pairs are lists marked as tuples): it printed as a list.
    const joined = runtime([]);
    joined.value = [...(a.value as Value[]), ...(b.value as Value[])];
    if (isTuple(a)) markTuple(joined);
    return joined;
  }
  const texts = typeof a.value === 'string' && typeof b.value === 'string';
  if (!texts || (!isMarkup(a) && !isMarkup(b))) return a === left && b === right ? library() : numberSum(a, b, float);
  const side = (value: Value) => (isMarkup(value) ? String(value.value) : escapeHtml(String(value.value)));
  return asMarkup(runtime(side(a) + side(b)));
}

/** The sum of numbers one of which was a bool (the library refuses a bool): an integer, or a float where one side is. */
function numberSum(a: Value, b: Value, float: (number: number) => Value): Value {
  const sum = (a.value as number) + (b.value as number);
  return a.type === 'FloatValue' || b.type === 'FloatValue' ? float(sum) : runtime(sum);
}

/** `*`: a text or a list repeated (`'=' * 20`, which the library refused), within the bounds; of numbers, the library's. */
function times(a: Value, b: Value, { library }: OperatorFallbacks): Value {
  const [sequence, count] = SEQUENCES.has(a.type) ? [a, b] : [b, a];
  if (!SEQUENCES.has(sequence.type)) return library();
  if (count.type !== 'IntegerValue' && count.type !== 'BooleanValue') throw new TypeError(`"*" repeats a text or a list a whole number of times: can't multiply sequence by non-int of type '${count.type === 'FloatValue' ? 'float' : count.type}'`);
  return repeated(sequence, Math.max(0, Number(count.value)));
}

/** `%`: a text formatted (python-format.ts); of two numbers, the remainder with the divisor's sign; of anything else, the library's. */
function modulo(a: Value, b: Value, { library, float }: OperatorFallbacks): Value {
  if (typeof a.value === 'string') return runtime(pyPercent(a.value, b));
  const numbers = ['IntegerValue', 'FloatValue'];
  if (!numbers.includes(a.type) || !numbers.includes(b.type)) return library();
  const remainder = pyModulo(a.value as number, b.value as number);
  // An integer remainder of a float stays a float (7.0 % 2 is 1.0): the library's float value prints so.
  return a.type === 'FloatValue' || b.type === 'FloatValue' ? float(remainder) : runtime(remainder);
}

/** `<`, `>`, `<=`, `>=`: texts by code point, lists item by item, a bool as 0 or 1; Python's TypeError for None or mixed types. */
function ordering(operator: string, a: Value, b: Value, { library }: OperatorFallbacks): Value {
  if (a.type === 'UndefinedValue' || b.type === 'UndefinedValue') return library();
  const order = pyCompare(a, b, operator);
  return runtime(operator === '<' ? order < 0 : operator === '>' ? order > 0 : operator === '<=' ? order <= 0 : order >= 0);
}

/** Operators that take numbers alone, but `*` and `%`, which also repeat or format a text or a list. */
const ARITHMETIC = new Set(['-', '/', '//', '**', '*', '%']);

/**
 * Python's TypeError for arithmetic on what is not a number (`'Step ' ~ i - 1` is `('Step ' ~ i) - 1`): the
 * library said `Unknown operator "-" between StringValue and IntegerValue`. An undefined side is the library's
 * to refuse, as jinja2's UndefinedError.
 */
function arithmeticRefusal(operator: string, a: Value, b: Value): TypeError | null {
  if (!ARITHMETIC.has(operator) || a.type === 'UndefinedValue' || b.type === 'UndefinedValue') return null;
  if (NUMBERS.has(a.type) && NUMBERS.has(b.type)) return null;
  if (operator === '*' && (SEQUENCES.has(a.type) || SEQUENCES.has(b.type))) return null;
  if (operator === '%' && a.type === 'StringValue') return null;
  const named = operator === '**' ? '** or pow()' : operator;
  return new TypeError(`"${operator}" between ${typeName(a)} and ${typeName(b)}: unsupported operand type(s) for ${named}: '${typeName(a)}' and '${typeName(b)}'`);
}

/** `a operator b` (one of PYTHON_OPERATORS) as Python gives it. */
export function pythonOperation(operator: string, left: Value, right: Value, fallbacks: OperatorFallbacks): Value {
  const refusal = arithmeticRefusal(operator, left, right);
  if (refusal !== null) throw refusal;
  // A bool is the integer 0 or 1 in Python's arithmetic (2.5 - True is 1.5); the library refused it.
  const numbers = ARITHMETIC.has(operator) && NUMBERS.has(left.type) && NUMBERS.has(right.type);
  const [a, b] = numbers ? [asAddend(left), asAddend(right)] : [left, right];
  const given = fallbacks;
  if (a !== left || b !== right) fallbacks = { ...given, library: () => given.library(a, b) };
  zeroDivision(operator, a, b);
  let result: Value | undefined;
  // Of safe integers the library's result is exact unless it is past 2**53 itself: computed once, the common case.
  const inexact = () => {
    result = operation(operator, a, b, fallbacks);
    return result.type === 'IntegerValue' && !Number.isSafeInteger(result.value);
  };
  const exact = exactInteger(operator, a, b, inexact);
  if (exact !== null) return heldInteger(a, operator, b, exact);
  return result ?? operation(operator, a, b, fallbacks);
}

function operation(operator: string, a: Value, b: Value, fallbacks: OperatorFallbacks): Value {
  switch (operator) {
    case '==':
    case '!=':
      return runtime(pyEquals(a, b) === (operator === '=='));
    case '~':
      return runtime(pyStr(a) + pyStr(b));
    case '+':
      return plus(a, b, fallbacks);
    case '*':
      return times(a, b, fallbacks);
    case '%':
      return modulo(a, b, fallbacks);
    case 'in':
    case 'not in':
      return runtime(pyContains(b, a) === (operator === 'in'));
    case '//':
      // Of floats, Python's floor division; of integers (checked by exactInteger) and anything else, the library's.
      return (a.type === 'FloatValue' && NUMBERS.has(b.type)) || (b.type === 'FloatValue' && NUMBERS.has(a.type)) ? fallbacks.float(pyFloorDivide(Number(a.value), Number(b.value))) : fallbacks.library();
    case '<':
    case '>':
    case '<=':
    case '>=':
      return ordering(operator, a, b, fallbacks);
    default:
      return fallbacks.library();
  }
}
