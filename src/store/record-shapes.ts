/**
 * Whether a stored record has the shape tmas writes, told before anything
 * reads it. A value that decodes as JSON yet is not a record (a number where
 * a journaled call was, a call without its `fit`, a message without its
 * type: an edit by hand, another tool's write, a value from another store)
 * passes every checksum, and each reader met it as an internal error with a
 * stack (`Cannot read properties of undefined`), or, where a reader guarded
 * the field, counted it as nothing without a word. Here each kind of record
 * is checked (a zod schema of the fields its readers take without a guard), and the store
 * names the record as damage (store.ts), which `tmas repair` drops
 * (dangling-records.ts).
 */
import { z } from 'zod';
import { hasTexts } from './texts.ts';

/** The kinds of record checked, as errors name them. */
export type RecordKind = 'call' | 'message' | 'iteration' | 'banks' | 'problem';

type Fields = Record<string, unknown>;

/** What a value is, in words, for a message. */
function described(value: unknown): string {
  if (value === undefined) return 'missing';
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  const text = JSON.stringify(value);
  return typeof value === 'object' ? 'an object of other fields' : text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * What this file asks of a schema. Typed as zod's own ZodType, the five
 * schemas cost the type checker seconds of CPU (each one's inferred type
 * compared in full with ZodType's); this one method is compared in an instant.
 */
interface Shape {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: Array<{ path: PropertyKey[] }> } };
}

/** Per kind, the fields its readers dereference without a guard, with what each must be; other fields pass as they are. */
const SHAPES: Record<RecordKind, Shape> = {
  call: z.looseObject({
    key: z.string(),
    role: z.string(),
    problem: z.string(),
    iteration: z.number(),
    index: z.number(),
    request: z.looseObject({ model: z.string(), messages: z.array(z.looseObject({ role: z.string(), content: z.string() })) }),
    fit: z.looseObject({ promptTokens: z.number(), dropped: z.array(z.unknown()) }),
    response: z.looseObject({ content: z.string(), finishReason: z.string() }),
    usage: z.looseObject({ promptTokens: z.number(), completionTokens: z.number() }),
  }),
  message: z.looseObject({ seq: z.number(), from: z.string(), message: z.looseObject({ type: z.string() }) }),
  iteration: z.looseObject({
    problem: z.string(),
    ordinal: z.number(),
    iteration: z.number(),
    candidates: z.array(z.looseObject({})),
    rollouts: z.array(z.unknown()).optional(),
  }),
  banks: z.looseObject({ experience: z.array(z.looseObject({})), guidelines: z.array(z.looseObject({})) }),
  problem: z.looseObject({ id: z.string(), question: z.string() }),
};

/** The first field of `record` that is not of its kind's shape, in words ('its "fit.promptTokens" is missing'); null when all are. */
function firstMisfit(record: Fields, kind: RecordKind): string | null {
  const parsed = SHAPES[kind].safeParse(record);
  const issue = parsed.success ? undefined : parsed.error.issues[0];
  if (issue === undefined) return null;
  let value: unknown = record;
  for (const name of issue.path) value = isFields(value) || Array.isArray(value) ? (value as Record<PropertyKey, unknown>)[name] : undefined;
  return `its "${issue.path.map(String).join('.')}" is ${described(value)}`;
}

/** Whether a stored value's list of texts is `[[path, digest], …]`, as texts.ts writes it. */
function isTextRefs(refs: unknown): boolean {
  return Array.isArray(refs) && refs.every((ref) => Array.isArray(ref) && ref.length === 2 && Array.isArray(ref[0]) && typeof ref[1] === 'string');
}

/**
 * Why `stored` (a value as the store holds it: a record, or `[record, texts]`)
 * is no `kind` record of tmas's, in words ("its \"fit.promptTokens\" is
 * missing"); null when it is one.
 */
export function recordShapeProblem(kind: RecordKind, stored: unknown): string | null {
  if (hasTexts(stored) && ((stored as unknown[]).length !== 2 || !isTextRefs(stored[1]))) return 'it is a list, not a record and its texts';
  const record = hasTexts(stored) ? stored[0] : stored;
  if (!isFields(record)) return `it is ${described(record)}, not a record`;
  return firstMisfit(record, kind);
}

/**
 * Whether a read with `options` gives values decoded from JSON: abstract-level's deferred iterator (a
 * store still opening) reads through another iterator asked for the raw text, which it decodes itself.
 */
function decodesJson(options: unknown): boolean {
  const encoding = isFields(options) ? options['valueEncoding'] : undefined;
  return encoding === undefined || encoding === 'json';
}

/** An entry of an iterator: [key, value]. */
type Entry = [unknown, unknown];

/** The sublevels whose records are checked as they are read, with the kind each holds. */
const SUBLEVEL_KINDS: Partial<Record<string, RecordKind>> = { calls: 'call', messages: 'message', iterations: 'iteration', banks: 'banks', problems: 'problem' };

/**
 * Makes every read of the sublevel `name` (get, getMany, and its iterators'
 * and value iterators' next, nextv and all) reject with `damage(what)` where a
 * value is no record of the kind it holds; `what` names the record by its key
 * where the read knows it. A sublevel of no such kind is left as it is.
 */
export function checkShapes<S extends object>(sublevel: S, name: string, damage: (what: string) => Error): S {
  const kind = SUBLEVEL_KINDS[name];
  if (kind === undefined) return sublevel;
  const check = (value: unknown, key: unknown): void => {
    if (value === undefined) return;
    const problem = recordShapeProblem(kind, value);
    if (problem !== null) throw damage(`${kind} record ${key === undefined ? '' : `${String(key)} `}is not one tmas writes: ${problem}`);
  };
  const checkEntry = (entry: unknown): void => {
    if (Array.isArray(entry)) check((entry as Entry)[1], (entry as Entry)[0]);
  };
  const methods = sublevel as unknown as Record<string, (...args: unknown[]) => unknown>;
  const wrap = (target: Record<string, (...args: unknown[]) => unknown>, name: string, after: (result: unknown, args: unknown[]) => void): void => {
    const original = (target[name] as (...args: unknown[]) => Promise<unknown>).bind(target);
    target[name] = async (...args: unknown[]) => {
      const result = await original(...args);
      after(result, args);
      return result;
    };
  };
  wrap(methods, 'get', (value, args) => decodesJson(args[1]) && check(value, args[0]));
  wrap(methods, 'getMany', (values, args) => decodesJson(args[1]) && (values as unknown[]).forEach((value, index) => check(value, (args[0] as unknown[])[index])));
  for (const [name, onItem] of [['iterator', checkEntry], ['values', (value: unknown) => check(value, undefined)]] as const) {
    const original = (methods[name] as (...args: unknown[]) => Record<string, (...args: unknown[]) => unknown>).bind(sublevel);
    methods[name] = (...args: unknown[]) => {
      const iterator = original(...args);
      if (!decodesJson(args[0])) return iterator;
      wrap(iterator, 'next', (item) => onItem(item));
      for (const many of ['nextv', 'all']) wrap(iterator, many, (items) => (items as unknown[]).forEach(onItem));
      return iterator;
    };
  }
  return sublevel;
}
