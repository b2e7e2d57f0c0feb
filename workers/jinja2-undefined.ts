/**
 * An attribute or an item of an undefined value, as jinja2 tells it: its
 * Undefined fails (UndefinedError) where a template reads `x.y` or `x[0]` of
 * it, so `messages[0]['content']` with no messages, or `foo.bar is defined`
 * with no foo, stops the render; `@huggingface/jinja` gave another
 * undefined value, and the template rendered on without it. Each undefined
 * value an access makes keeps jinja2's reason ("'dict object' has no
 * attribute 'x'", "list object has no element 3"), which the failure names.
 * An item of None, a number or a bool is undefined, as in jinja2 (the
 * library failed: "Cannot access property with non-string").
 */
import { pyType } from './jinja2-tests.ts';
import { runtime } from './jinja2-values.ts';
import type { RuntimeValue } from './python-str.ts';

type Value = RuntimeValue;

/** Why each undefined value an access made is undefined, in jinja2's words. */
const reasons = new WeakMap<Value, string>();

/** Values whose items jinja2 reads as undefined (Python cannot subscript them), where the library failed. */
const UNSUBSCRIPTABLE = new Set(['NullValue', 'IntegerValue', 'FloatValue', 'BooleanValue']);

/** jinja2's reason for `container[key]` or `container.key` being undefined. */
function reasonOf(container: Value, key: Value): string {
  const type = container.type === 'ObjectValue' ? 'dict' : container.type === 'NullValue' ? 'None' : pyType(container);
  if (key.type === 'IntegerValue') return `${type === 'None' ? 'None' : `${type} object`} has no element ${String(key.value)}`;
  return `'${type === 'None' ? 'None' : `${type} object`}' has no attribute '${String(key.value)}'`;
}

/** Throws jinja2's UndefinedError where `value`, read by an access, is undefined; `name` is the variable it was read from, if any. */
export function refuseUndefinedOwner(value: Value, name: string | null): void {
  if (value.type !== 'UndefinedValue') return;
  const reason = name !== null ? `'${name}' is undefined` : (reasons.get(value) ?? 'a value is undefined');
  throw new Error(`${reason}: jinja2 fails on an attribute or an item of an undefined value (UndefinedError)`);
}

/** An item of a value that has none (None, a number, a bool), or a record's item under a key that is not a text: undefined, with its reason. */
export function itemOfUnsubscriptable(container: Value, key: Value): Value | null {
  // A number looks up a number key (a dict literal's); the library reads texts alone.
  if (container.type === 'ObjectValue' && (key.type === 'IntegerValue' || key.type === 'FloatValue')) return noteMissing((container.value as Map<unknown, Value>).get(Number(key.value)) ?? runtime(undefined), container, key);
  const none = UNSUBSCRIPTABLE.has(container.type) || (container.type === 'ObjectValue' && key.type !== 'StringValue');
  return none ? noteMissing(runtime(undefined), container, key) : null;
}

/** `result` of reading `key` of `container`; an undefined one keeps jinja2's reason. */
export function noteMissing(result: Value, container: Value, key: Value): Value {
  // A loop's depth: the library's loop has none, and every loop it runs is jinja2's first level (it has no recursive loops).
  if (result.type === 'UndefinedValue' && isLoop(container) && (key.value === 'depth' || key.value === 'depth0')) return runtime(key.value === 'depth' ? 1 : 0);
  if (result.type === 'UndefinedValue') reasons.set(result, reasonOf(container, key));
  return result;
}

/** Whether `value` is the record the library gives a loop as `loop`. */
function isLoop(value: Value): boolean {
  return value.value instanceof Map && ['index0', 'revindex0', 'first', 'last', 'length'].every((key) => (value.value as Map<unknown, unknown>).has(key));
}

/** Functions chat templates call that jinja2 does not have: why a prompt template should not call them. */
const CHAT_FUNCTIONS: Readonly<Record<string, string>> = {
  strftime_now: ' (a chat-template function jinja2 does not have, whose date would change the prompt and its journal key day by day: write the date out)',
};

/**
 * `call()` (a call of `callee`), failing as jinja2 fails where the function is undefined: `'foo' is undefined`,
 * where the library said "Cannot call something that is not a function: got UndefinedValue". A call on a
 * branch never taken costs nothing, in jinja2 as here.
 */
export function callingDefined(call: () => Value, callee: { type: string; value?: unknown; property?: { value?: unknown } }): Value {
  try {
    return call();
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith('Cannot call something that is not a function: got UndefinedValue')) throw error;
    const name = callee.type === 'Identifier' ? String(callee.value) : callee.type === 'MemberExpression' ? String(callee.property?.value) : null;
    if (name === null) throw error;
    throw new Error(`'${name}' is undefined: jinja2 fails on a call of an undefined function (UndefinedError)${CHAT_FUNCTIONS[name] ?? ''}`, { cause: error });
  }
}
