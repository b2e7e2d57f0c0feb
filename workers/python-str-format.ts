/**
 * Python's `str.format` (`'{} of {}'.format(a, b)`, `'{0}{name}'.format(x,
 * name=y)`, `'{:>8.3f}'.format(score)`), which jinja2 lets a template call
 * and `@huggingface/jinja` lacks ("'format' is undefined": the template was
 * refused before the run). Fields by place (auto or numbered) or by name,
 * with `.attr` and `[key]`, `!s`/`!r`, and the format spec mini-language:
 * fill and align, sign, `#`, `0`, width, `,`/`_` grouping, precision and the
 * types of a text, an integer and a float. Digits come from the `%`
 * formatting's code (python-format.ts), which gives Python's.
 */
import { pyType } from './jinja2-tests.ts';
import { attributeOf, boundedWidth, MAX_RENDERED_CHARS, runtime, TemplateBoundError } from './jinja2-values.ts';
import { pyPercent } from './python-format.ts';
import { pyCharAt, pyFloat, pyLength, pyRepr, pyStr, type RuntimeValue } from './python-str.ts';

type Value = RuntimeValue;

const SPEC = /^(?:([\s\S])?([<>=^]))?([-+ ])?(#)?(0)?(\d+)?([,_])?(?:\.(\d+))?([bcdeEfFgGnosxX%])?$/u;

/** A value's digits for one of the number types, without sign, grouping or padding. */
function numberBody(value: Value, type: string, precision: number | undefined, alternate: boolean): string {
  const x = Math.abs(Number(value.value));
  const integer = value.type !== 'FloatValue';
  if (integer && precision !== undefined && !'eEfFgG%'.includes(type)) throw new RangeError('Precision not allowed in integer format specifier');
  if (!integer && 'bcdoxX'.includes(type) && type !== '') throw new RangeError(`Unknown format code '${type}' for object of type 'float'`);
  const flag = alternate ? '#' : '';
  if (integer && (type === '' || type === 'd' || type === 'n')) return BigInt(x).toString();
  if (type === 'b') return (alternate ? '0b' : '') + BigInt(x).toString(2);
  if ('oxX'.includes(type) && type !== '') return pyPercent(`%${flag}${type}`, { type: 'IntegerValue', value: x } as Value);
  if (type === 'c') return String.fromCodePoint(x);
  const float = { type: 'FloatValue', value: x } as Value;
  if (type === '%') return `${pyPercent(`%${flag}.${precision ?? 6}f`, { type: 'FloatValue', value: x * 100 } as Value)}%`;
  // 'n' is 'g' in the C locale jinja2 renders in.
  if (type !== '') return pyPercent(`%${flag}.${precision ?? 6}${type === 'n' ? 'g' : type}`, float);
  if (precision === undefined) return pyFloat(x);
  // No type, a precision: 'g', but the exponent form from an exponent of precision - 1 ('g' from precision) and
  // a digit past the point where it writes a whole number: '{:.1}' of 1.5 is '2e+00', where 'g' writes '2'.
  const digits = Math.max(precision, 1);
  const exponential = pyPercent(`%${flag}.${digits - 1}e`, float);
  if (Number(/e([-+]\d+)$/u.exec(exponential)?.[1]) === digits - 1) return alternate ? exponential : exponential.replace(/(\.\d*?)0+e/u, '$1e').replace('.e', 'e');
  const general = pyPercent(`%${flag}.${digits}g`, float);
  return /[.eni]/.test(general) ? general : `${general}.0`;
}

/** `digits` (an integer part and what follows) with a separator every `every` digits of the integer part. */
function grouped(digits: string, separator: string, every: number): string {
  const match = /^(0[bBoOxX])?([0-9a-fA-F]+)(.*)$/su.exec(digits);
  if (match === null) return digits;
  const [, prefix = '', whole = '', rest = ''] = match;
  const groups: string[] = [];
  for (let end = whole.length; end > 0; end -= every) groups.unshift(whole.slice(Math.max(0, end - every), end));
  return prefix + groups.join(separator) + rest;
}

/** Python's format(value, spec). */
export function pyFormatValue(value: Value, spec: string): string {
  if (spec === '') return pyStr(value);
  const match = SPEC.exec(spec);
  if (match === null) throw new RangeError('Invalid format specifier');
  const [, fillGiven, alignGiven, sign, alternate, zero, widthText, grouping, precisionText, type = ''] = match;
  const width = widthText === undefined ? 0 : boundedWidth(Number(widthText), `a width of ${widthText}`);
  const precision = precisionText === undefined ? undefined : boundedWidth(Number(precisionText), `a precision of ${precisionText}`);
  const number = value.type === 'IntegerValue' || value.type === 'FloatValue' || value.type === 'BooleanValue';
  let body: string;
  let signText = '';
  if (value.type === 'StringValue' && (type === '' || type === 's')) {
    if (sign !== undefined) throw new RangeError('Sign not allowed in string format specifier');
    if (alignGiven === '=') throw new RangeError("'=' alignment not allowed in string format specifier");
    body = precision === undefined ? String(value.value) : Array.from(String(value.value)).slice(0, precision).join('');
  } else if (value.type === 'StringValue') {
    throw new RangeError(`Unknown format code '${type}' for object of type 'str'`);
  } else if (number && type !== 's') {
    const numeric = value.type === 'BooleanValue' ? ({ type: 'IntegerValue', value: Number(value.value) } as Value) : value;
    const negative = Number(numeric.value) < 0 || Object.is(numeric.value, -0);
    signText = negative ? '-' : sign === '+' ? '+' : sign === ' ' ? ' ' : '';
    body = numberBody(numeric, type, precision, alternate !== undefined);
    if (grouping !== undefined) body = grouped(body, grouping, 'boxX'.includes(type) && type !== '' ? 4 : 3);
  } else {
    throw new TypeError(`unsupported format string passed to ${pyType(value)}.__format__`);
  }
  const fill = fillGiven ?? (zero !== undefined && alignGiven === undefined ? '0' : ' ');
  const align = alignGiven ?? (zero !== undefined && number ? '=' : number ? '>' : '<');
  const padding = Math.max(0, width - pyLength(signText + body));
  if (align === '=') return signText + fill.repeat(padding) + body;
  const text = signText + body;
  if (align === '<') return text + fill.repeat(padding);
  if (align === '>') return fill.repeat(padding) + text;
  return fill.repeat(Math.floor(padding / 2)) + text + fill.repeat(padding - Math.floor(padding / 2));
}

/** The value a field names: by place or name, then each `.attr` and `[key]`. */
function fieldValue(name: string, take: (index: number | null) => Value, named: ReadonlyMap<string, Value>): Value {
  const [, head = '', rest = ''] = /^([^.[]*)(.*)$/su.exec(name) ?? [];
  let value: Value;
  if (head === '') value = take(null);
  else if (/^\d+$/.test(head)) value = take(Number(head));
  else {
    const found = named.get(head);
    if (found === undefined) throw new RangeError(`KeyError: '${head}'`);
    value = found;
  }
  for (const [, attribute, key] of rest.matchAll(/\.([^.[]+)|\[([^\]]*)\]/gu)) value = attribute === undefined ? fieldItem(value, key as string) : fieldAttribute(value, attribute);
  return value;
}

/**
 * Python's getattr in a field (`{0.name}`): a namespace's or a named tuple's field (groupby's pairs); a dict, a
 * list or a text has none a template reads, and Python fails, where reading the dict's key printed its value.
 */
function fieldAttribute(value: Value, name: string): Value {
  const found = value.type === 'NamespaceValue' || (value.type === 'ArrayValue' && !/^\d+$/u.test(name)) ? attributeOf(value, name) : undefined;
  if (found === undefined || found.type === 'UndefinedValue') throw new TypeError(`AttributeError: '${pyType(value)}' object has no attribute '${name}'`);
  return found;
}

/**
 * Python's item in a field (`{0[key]}`): a key of digits is an integer, any other a text, and a missing one fails
 * (KeyError, IndexError), where it printed nothing.
 */
function fieldItem(value: Value, key: string): Value {
  const index = /^\d+$/u.test(key) ? Number(key) : null;
  if (value.type === 'ObjectValue' && value.value instanceof Map) {
    const found = (value.value as Map<unknown, Value>).get(index ?? key);
    if (found === undefined) throw new RangeError(`KeyError: ${index ?? `'${key}'`}`);
    return found;
  }
  const kind = pyType(value);
  const sequence = value.type === 'ArrayValue' || value.type === 'StringValue';
  if (!sequence) throw new TypeError(`'${kind}' object is not subscriptable`);
  if (index === null) throw new TypeError(value.type === 'StringValue' ? "string indices must be integers, not 'str'" : `${kind} indices must be integers or slices, not str`);
  const found = value.type === 'StringValue' ? pyCharAt(String(value.value), index) : (value.value as Value[])[index];
  if (found === undefined) throw new RangeError(`IndexError: ${value.type === 'StringValue' ? 'string' : kind} index out of range`);
  return typeof found === 'string' ? runtime(found) : found;
}

/** `format.format(*positional, **named)` as Python gives it. */
export function pyStrFormat(format: string, positional: readonly Value[], named: ReadonlyMap<string, Value>): string {
  let automatic = 0;
  let numbering: 'auto' | 'manual' | null = null;
  const take = (index: number | null): Value => {
    const mode = index === null ? 'auto' : 'manual';
    if (numbering !== null && numbering !== mode) throw new RangeError(`cannot switch from ${numbering === 'auto' ? 'automatic field numbering to manual' : 'manual field specification to automatic'} field ${numbering === 'auto' ? 'specification' : 'numbering'}`);
    numbering = mode;
    const at = index ?? automatic++;
    const value = positional[at];
    if (value === undefined) throw new RangeError(`Replacement index ${at} out of range for positional args tuple`);
    return value;
  };
  const field = (inner: string): string => {
    const [, name = '', conversion, spec = ''] = /^([^!:]*)(?:!([^:]*))?(?::([\s\S]*))?$/u.exec(inner) ?? [];
    const value = fieldValue(name, take, named);
    // A spec's own fields ('{:{width}}') are filled first.
    const resolved = spec.replace(/\{([^{}]*)\}/gu, (_, nested: string) => field(nested));
    if (conversion === undefined) return pyFormatValue(value, resolved);
    if (conversion !== 's' && conversion !== 'r') throw new RangeError(`Unknown conversion specifier ${conversion}`);
    return pyFormatValue({ type: 'StringValue', value: conversion === 's' ? pyStr(value) : pyRepr(value) } as Value, resolved);
  };
  // What the fields add, counted as they are filled: a format of millions of fields, each a long text, made
  // hundreds of millions of characters (or failed with the engine's "Invalid string length") before any bound saw it.
  let length = format.length;
  return format.replace(/\{\{|\}\}|\{((?:[^{}]|\{[^{}]*\})*)\}|[{}]/gu, (whole, inner: string | undefined) => {
    if (whole === '{{') return '{';
    if (whole === '}}') return '}';
    if (inner === undefined) throw new RangeError(whole === '}' ? "Single '}' encountered in format string" : "Single '{' encountered in format string");
    const filled = field(inner);
    length += filled.length - whole.length;
    if (length > MAX_RENDERED_CHARS) throw new TemplateBoundError(`a str.format makes more than ${MAX_RENDERED_CHARS.toLocaleString('en-US')} characters, more than any context window holds`);
    return filled;
  });
}
