/**
 * Python's `str()`, `repr()` and `==` over the values `@huggingface/jinja`
 * holds, for a template rendered as jinja2 renders it (jinja2-render.ts):
 * jinja2 prints a value with `str()`, and a list or a record prints its items
 * with `repr()`.
 */

/** Texts that are jinja2's Markup (jinja2-markup.ts says what that changes). */
const markups = new WeakSet<RuntimeValue>();

/** `value` marked as a Markup; returned. */
export function asMarkup(value: RuntimeValue): RuntimeValue {
  markups.add(value);
  return value;
}

export function isMarkup(value: RuntimeValue): boolean {
  return markups.has(value);
}

/** A value as the library holds it: its class's name and the JavaScript value inside. */
export interface RuntimeValue {
  type: string;
  value: unknown;
}

const NUMERIC = new Set(['IntegerValue', 'FloatValue', 'BooleanValue']);
const LISTS = new Set(['ArrayValue', 'TupleValue']);
const RECORDS = new Set(['ObjectValue', 'KeywordArgumentsValue']);

/** Python's repr() of a float: exponent notation below 1e-4 and from 1e16 on, else at least one decimal. */
export function pyFloat(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  if (Object.is(value, -0)) return '-0.0';
  const [mantissa = '', exponent = '0'] = value.toExponential().split('e');
  const power = Number(exponent);
  if (power < -4 || power >= 16) return `${mantissa}e${power < 0 ? '-' : '+'}${String(Math.abs(power)).padStart(2, '0')}`;
  const fixed = String(value);
  return fixed.includes('.') ? fixed : `${fixed}.0`;
}

/** Characters Python's repr() escapes: those str.isprintable() refuses (other and separator categories but the space). */
const UNPRINTABLE = /[\p{C}\p{Z}]/u;

function escapeOf(char: string): string {
  const named: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
  if (named[char] !== undefined) return named[char];
  if (char === ' ' || !UNPRINTABLE.test(char)) return char;
  const point = char.codePointAt(0) ?? 0;
  if (point < 0x100) return `\\x${point.toString(16).padStart(2, '0')}`;
  if (point < 0x10000) return `\\u${point.toString(16).padStart(4, '0')}`;
  return `\\U${point.toString(16).padStart(8, '0')}`;
}

/** Python's repr() of a string: single quotes, double ones when it holds a single quote and no double one. */
export function pyStringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of text) out += char === quote ? `\\${quote}` : escapeOf(char);
  return out + quote;
}

/** Lists that Python holds as tuples (a record's items): the library's loops unpack only lists, so they stay lists, marked. */
const tuples = new WeakSet<RuntimeValue>();

/** Marks `list` as a tuple: it prints as Python prints one. */
export function markTuple(list: RuntimeValue): void {
  tuples.add(list);
}

/**
 * Lists that Python holds as generators (what map, select, reject, selectattr, rejectattr, unique and reverse give), by
 * the filter that made each: jinja2 prints one as "<generator object …>", an address, and counts none.
 */
const generators = new WeakMap<RuntimeValue, string>();

/** Notes that `list` is a generator made by `filter`. */
export function noteGenerator(list: RuntimeValue, filter: string): void {
  generators.set(list, filter);
}

/** The filter that made `value` a generator, or undefined for any other value. */
export function generatorFilter(value: RuntimeValue): string | undefined {
  return generators.get(value);
}

/** The error of a generator printed, joined, written as JSON or counted, where jinja2 prints its address or fails. */
export function generatorMisuse(filter: string, what: string): TypeError {
  return new TypeError(`"${filter}" gives an iterator (a generator), which jinja2 ${what}: add "| list" after it`);
}

function refuseGenerator(value: RuntimeValue, what: string): void {
  const filter = generators.get(value);
  if (filter !== undefined) throw generatorMisuse(filter, what);
}

/** Whether Python holds `value` as a list, a tuple or neither: a list never equals a tuple. */
/** Whether Python holds `value` as a tuple. */
/** Lists that are a record's keys(), values() or items(): Python prints them as `dict_keys([…])` and the like. */
const dictViews = new WeakMap<RuntimeValue, 'dict_keys' | 'dict_values' | 'dict_items'>();

/** `list` marked the view of a record that `method` (keys, values or items) gives. */
export function markDictView(list: RuntimeValue, method: string): RuntimeValue {
  if (list.type === 'ArrayValue' && (method === 'keys' || method === 'values' || method === 'items')) dictViews.set(list, `dict_${method}`);
  return list;
}

/** Whether `value` is a record's keys(), values() or items(). */
export function isDictView(value: RuntimeValue): boolean {
  return dictViews.has(value);
}

export function isTuple(value: RuntimeValue): boolean {
  return value.type === 'TupleValue' || tuples.has(value);
}

function sequenceKind(value: RuntimeValue): string {
  return value.type === 'TupleValue' || tuples.has(value) ? 'tuple' : value.type;
}

/** A record's key: a text, or a number (jinja2's dict takes any key: Seed-OSS's `{0: 0, 512: 128}`). */
export type RecordKey = string | number;

/** A number key as Python writes it: an integer's digits, a float's repr. */
function numberKey(key: number): string {
  return Number.isInteger(key) ? BigInt(key).toString() : pyFloat(key);
}

function keyRepr(key: RecordKey): string {
  return typeof key === 'number' ? numberKey(key) : pyStringRepr(key);
}

/** json.dumps(sort_keys=True)'s order: texts by code point, numbers by value; a record mixing them fails, as in Python. */
function sortedEntries(record: Map<RecordKey, RuntimeValue>): Array<[RecordKey, RuntimeValue]> {
  const entries = [...record.entries()];
  const kinds = new Set(entries.map(([key]) => typeof key));
  if (kinds.size > 1) throw new TypeError("'<' not supported between instances of 'str' and 'int' (tojson sorts a record's keys)");
  return entries.sort(([a], [b]) => (typeof a === 'number' ? a - (b as number) : byCodePoint(a, b as string)));
}

/** Python's repr() of a value: what a list or a record prints of its items. */
export function pyRepr(value: RuntimeValue): string {
  refuseGenerator(value, 'prints as "<generator object at 0x…>", an address');
  // jinja2's Undefined prints nothing, and shows its name in a list or a record.
  if (value.type === 'UndefinedValue') return 'Undefined';
  // A Markup (what tojson, escape and safe give) shows its class in a list or a record, as Python's repr does.
  if (value.type === 'StringValue') return isMarkup(value) ? `Markup(${pyStringRepr(String(value.value))})` : pyStringRepr(String(value.value));
  if (LISTS.has(value.type)) {
    const items = (value.value as RuntimeValue[]).map(pyRepr);
    const view = dictViews.get(value);
    if (view !== undefined) return `${view}([${items.join(', ')}])`;
    if (sequenceKind(value) === 'ArrayValue') return `[${items.join(', ')}]`;
    return items.length === 1 ? `(${items[0]},)` : `(${items.join(', ')})`;
  }
  if (RECORDS.has(value.type) || value.type === 'NamespaceValue') {
    const entries = [...(value.value as Map<RecordKey, RuntimeValue>).entries()].map(([key, item]) => `${keyRepr(key)}: ${pyRepr(item)}`);
    const record = `{${entries.join(', ')}}`;
    return value.type === 'NamespaceValue' ? `<Namespace ${record}>` : record;
  }
  return pyStr(value);
}

/** Python's str() of a value, as jinja2 prints it; an undefined value prints nothing. */
export function pyStr(value: RuntimeValue): string {
  refuseGenerator(value, 'prints as "<generator object at 0x…>", an address');
  switch (value.type) {
    case 'StringValue':
      return String(value.value);
    case 'BooleanValue':
      return value.value ? 'True' : 'False';
    case 'NullValue':
      return 'None';
    case 'UndefinedValue':
      return '';
    case 'IntegerValue':
      return Number.isSafeInteger(value.value) ? String(value.value) : BigInt(value.value as number).toString();
    case 'FloatValue':
      return pyFloat(value.value as number);
    default:
      if (value.type === 'FunctionValue') {
        // The library wrote the JavaScript source of the function into the prompt; jinja2 writes a name and an address.
        throw new TypeError('a function or method printed without being called ("{{ j }}" for "{{ j() }}"): jinja2 prints its name and address ("<… object at 0x…>"), tmas cannot: call it');
      }
      return LISTS.has(value.type) || RECORDS.has(value.type) || value.type === 'NamespaceValue' ? pyRepr(value) : String(value.value);
  }
}

/** Python's ==: numbers (and booleans) by value, texts by their characters, lists and records item by item, None with None; other pairs differ. */
export function pyEquals(left: RuntimeValue, right: RuntimeValue): boolean {
  if (NUMERIC.has(left.type) && NUMERIC.has(right.type)) return Number(left.value) === Number(right.value);
  if (LISTS.has(left.type) || LISTS.has(right.type)) {
    if (sequenceKind(left) !== sequenceKind(right)) return false;
    const [a, b] = [left.value as RuntimeValue[], right.value as RuntimeValue[]];
    return a.length === b.length && a.every((item, index) => pyEquals(item, b[index] as RuntimeValue));
  }
  if (RECORDS.has(left.type) && RECORDS.has(right.type)) {
    const [a, b] = [left.value as Map<string, RuntimeValue>, right.value as Map<string, RuntimeValue>];
    return a.size === b.size && [...a].every(([key, item]) => b.has(key) && pyEquals(item, b.get(key) as RuntimeValue));
  }
  if (left.type !== right.type) return false;
  if (left.type === 'NullValue' || left.type === 'UndefinedValue') return true;
  return left.value === right.value;
}

/** Python's str.capitalize(): the first character in upper case, the others in lower case (the library left the others as they were). */
export function pyCapitalize(text: string): string {
  const [first = '', ...rest] = Array.from(text);
  return titleCase(first) + rest.join('').toLowerCase();
}

/** The digraphs whose title case is neither their upper nor their lower case. */
const DIGRAPH_TITLES: Readonly<Record<string, string>> = { Ǆ: 'ǅ', ǅ: 'ǅ', ǆ: 'ǅ', Ǉ: 'ǈ', ǈ: 'ǈ', ǉ: 'ǈ', Ǌ: 'ǋ', ǋ: 'ǋ', ǌ: 'ǋ', Ǳ: 'ǲ', ǲ: 'ǲ', ǳ: 'ǲ' };

/** A character's title case, as Python's capitalize() raises a first one: ß is Ss and ﬁ is Fi, where their upper case is SS and FI. */
export function titleCase(char: string): string {
  const digraph = DIGRAPH_TITLES[char];
  if (digraph !== undefined) return digraph;
  const [head = '', ...tail] = Array.from(char.toUpperCase());
  return head + tail.join('').toLowerCase();
}

/** The characters Python's str.strip() takes off (str.isspace()): JavaScript's trim() also takes U+FEFF, and leaves U+001C–U+001F and U+0085. */
export function isPySpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d) || (code >= 0x1c && code <= 0x1f);
  if (code < 0x85) return false;
  return code === 0x85 || code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000;
}

/**
 * Python's strip(), lstrip() or rstrip(): of whitespace, or, given `chars`, of
 * those characters alone (`.lstrip('\n')` keeps the spaces after the newlines,
 * as chat templates rely on).
 */
export function pyStrip(text: string, side: 'strip' | 'lstrip' | 'rstrip', chars?: string): string {
  const strips = chars === undefined ? (point: number) => isPySpace(point) : (point: number) => chars.includes(String.fromCodePoint(point));
  let start = 0;
  let end = text.length;
  if (side !== 'rstrip') {
    for (let point = text.codePointAt(start) ?? 0; start < end && strips(point); point = text.codePointAt(start) ?? 0) start += point > 0xffff ? 2 : 1;
  }
  if (side !== 'lstrip') {
    // A character at the end is one unit, or two when its last unit closes a surrogate pair.
    const last = (at: number) => (at >= 2 && text.charCodeAt(at - 1) >= 0xdc00 && text.charCodeAt(at - 1) <= 0xdfff && text.charCodeAt(at - 2) >= 0xd800 && text.charCodeAt(at - 2) <= 0xdbff ? 2 : 1);
    while (end > start && strips(text.codePointAt(end - last(end)) ?? 0)) end -= last(end);
  }
  return text.slice(start, end);
}

/** A text's length in characters (code points), as Python counts it: a surrogate pair is one. */
export function pyLength(text: string): number {
  // Without a surrogate, as most texts are, its UTF-16 length is its length: the engine's search is far quicker than the loop.
  if (!/[\uD800-\uDFFF]/.test(text)) return text.length;
  let pairs = 0;
  for (let i = 0; i < text.length - 1; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        pairs++;
        i++;
      }
    }
  }
  return text.length - pairs;
}

/** Python's `%` of two numbers: the remainder takes the divisor's sign (-7 % 3 is 2; JavaScript's is -1). */
export function pyModulo(dividend: number, divisor: number): number {
  if (divisor === 0) throw new Error('integer division or modulo by zero');
  const remainder = dividend % divisor;
  // A zero remainder takes the divisor's sign, as Python's float one does (1e16 % -2.5 is -0.0).
  if (remainder === 0) return divisor < 0 ? -0 : 0;
  return remainder < 0 !== divisor < 0 ? remainder + divisor : remainder;
}

/**
 * Python's float a // b: (a - fmod(a, b)) / b, floored and rounded to the nearest integer, where JavaScript's
 * Math.floor(a / b) floors a rounded quotient (1.0 // 0.1 is 9.0 in Python, 10 so); a zero takes the quotient's sign.
 */
export function pyFloorDivide(dividend: number, divisor: number): number {
  const remainder = dividend % divisor;
  let quotient = (dividend - remainder) / divisor;
  if (remainder !== 0 && remainder < 0 !== divisor < 0) quotient -= 1;
  if (quotient === 0) {
    const sign = dividend / divisor;
    return sign < 0 || Object.is(sign, -0) ? -0 : 0;
  }
  const floor = Math.floor(quotient);
  return quotient - floor > 0.5 ? floor + 1 : floor;
}

/** The character at Python's index `index` of `text` (counted in code points, from the end when negative), or undefined past either end. */
export function pyCharAt(text: string, index: number): string | undefined {
  const chars = Array.from(text);
  return chars[index < 0 ? chars.length + index : index];
}

/** A text as Python's json.dumps writes it by default (ensure_ascii): every character outside space..~ escaped, astral ones as their surrogate pair. */
function jsonString(text: string, ascii = true): string {
  const named: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };
  // ensure_ascii=False escapes only the quote, the backslash and the control characters below a space.
  return `"${text.replace(ascii ? /["\\]|[^ -~]/g : /["\\\x00-\x1f]/g, (unit) => named[unit] ?? `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

/** Python's order of two texts: by code point (JavaScript's sort compares UTF-16 units). */
function byCodePoint(a: string, b: string): number {
  const [x, y] = [Array.from(a), Array.from(b)];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const difference = (x[i]?.codePointAt(0) ?? 0) - (y[i]?.codePointAt(0) ?? 0);
    if (difference !== 0) return difference;
  }
  return x.length - y.length;
}

/** json.dumps(value, sort_keys=True, indent=indent) of a value, at nesting `depth`. */
/** How json.dumps lays a value out: its indent (null: one line), its separators, whether keys are sorted and non-ASCII escaped. */
export interface JsonLayout {
  indent: string | null;
  /** Between items (', ' on one line, ',' before an indented line by default) and between a key and its value (': '). */
  itemSeparator: string;
  keySeparator: string;
  sortKeys: boolean;
  ensureAscii: boolean;
}

function pyJsonDumps(value: RuntimeValue, layout: JsonLayout, depth: number, limit: number): string {
  refuseGenerator(value, 'writes no JSON of ("Object of type generator is not JSON serializable")');
  const { indent } = layout;
  const items = (parts: string[], open: string, close: string): string => {
    if (parts.length === 0) return open + close;
    if (indent === null) return `${open}${parts.join(layout.itemSeparator)}${close}`;
    // Each item gets its line's indent: a wide indent over many items is refused before the lines are joined.
    const size = parts.reduce((sum, part) => sum + part.length, 0) + (depth + 2) * indent.length * (parts.length + 1);
    if (size > limit) throw new RangeError(`"tojson" indenting by ${indent.length.toLocaleString('en-US')} characters makes more than ${limit.toLocaleString('en-US')} characters, more than any context window holds`);
    const inner = '\n' + indent.repeat(depth + 1);
    return `${open}${inner}${parts.join(`${layout.itemSeparator}${inner}`)}\n${indent.repeat(depth)}${close}`;
  };
  if (LISTS.has(value.type)) return items((value.value as RuntimeValue[]).map((item) => pyJsonDumps(item, layout, depth + 1, limit)), '[', ']');
  // jinja2's json.dumps fails on an undefined value (a field a record lacks) and on a namespace, wherever it stands.
  if (value.type === 'UndefinedValue' || value.type === 'NamespaceValue') throw new TypeError(`"tojson" of a value holding ${value.type === 'UndefinedValue' ? 'an undefined value' : 'a namespace()'}: Object of type ${value.type === 'UndefinedValue' ? 'Undefined' : 'Namespace'} is not JSON serializable`);
  if (RECORDS.has(value.type)) {
    const record = value.value as Map<RecordKey, RuntimeValue>;
    const entries = layout.sortKeys ? sortedEntries(record) : [...record.entries()];
    const key = (name: RecordKey) => jsonString(typeof name === 'number' ? numberKey(name) : name, layout.ensureAscii);
    return items(entries.map(([name, item]) => `${key(name)}${layout.keySeparator}${pyJsonDumps(item, layout, depth + 1, limit)}`), '{', '}');
  }
  switch (value.type) {
    case 'StringValue':
      return jsonString(String(value.value), layout.ensureAscii);
    case 'BooleanValue':
      return value.value ? 'true' : 'false';
    case 'NullValue':
      return 'null';
    case 'FloatValue':
      return Number.isFinite(value.value) ? pyFloat(value.value as number) : { nan: 'NaN', inf: 'Infinity', '-inf': '-Infinity' }[pyFloat(value.value as number)] ?? 'NaN';
    default:
      return pyStr(value);
  }
}

/** json.dumps(value, …) laid out as `layout` says, within `limit` characters of indent. */
export function pyJsonDumpsAs(value: RuntimeValue, layout: JsonLayout, limit: number): string {
  return pyJsonDumps(value, layout, 0, limit);
}

/**
 * jinja2's `tojson`: json.dumps with its keys sorted and, given, an indent,
 * then <, >, & and ' escaped so that it is safe in HTML (htmlsafe_json_dumps).
 */
export function pyToJson(value: RuntimeValue, indent: number | string | null, limit: number): string {
  const escapes: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', "'": '\\u0027' };
  // json.dumps indents by a text as it is, or by a number of spaces (none below one).
  const unit = indent === null ? null : typeof indent === 'string' ? indent : ' '.repeat(Math.max(0, indent));
  const layout = { indent: unit, itemSeparator: unit === null ? ', ' : ',', keySeparator: ': ', sortKeys: true, ensureAscii: true };
  return pyJsonDumps(value, layout, 0, limit).replace(/[<>&']/g, (char) => escapes[char] ?? char);
}

