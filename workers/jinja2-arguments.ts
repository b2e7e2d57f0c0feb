/**
 * A call's or a filter's arguments evaluated as jinja2 passes them: by place,
 * by name (`k=v`), and unpacked, `*xs` giving each item by place and `**kw`
 * each pair by name. The library's interpreter does not evaluate an unpacked
 * argument of a filter (`'%s-%s' | format(*xs)` failed with "Unknown node
 * type: SpreadExpression").
 */
import type { FilterArguments } from './jinja2-argument-filters.ts';
import { pyItems } from './jinja2-select.ts';
import { pyStr, type RuntimeValue } from './python-str.ts';

type Value = RuntimeValue;
/** A node of the parsed template (the library exports no AST types). */
interface Node {
  type: string;
}

interface ArgumentNode extends Node {
  key?: { value: unknown };
  value?: Node;
  argument?: Node;
}

/** `**kw`'s pairs: a record's, as Python unpacks a mapping (anything else fails as there). */
function keywordsOf(value: Value): Array<[string, Value]> {
  if (!(value.value instanceof Map) || value.type === 'UndefinedValue') throw new TypeError(`argument after ** must be a mapping, not ${value.type}`);
  return [...(value.value as Map<unknown, Value>)].map(([key, item]) => [pyStr({ type: typeof key === 'number' ? 'IntegerValue' : 'StringValue', value: key } as Value), item]);
}

/** The arguments of `args`, each evaluated once, in the order written. */
export function evaluatedArguments(args: readonly Node[], evaluate: (node: Node) => Value): FilterArguments {
  const named = new Map<string, Value>();
  const positional: Value[] = [];
  for (const arg of args as readonly ArgumentNode[]) {
    if (arg.type === 'KeywordArgumentExpression') named.set(String(arg.key?.value), evaluate(arg.value as Node));
    // Item by item: a spread of a list's items into push() overflows V8's stack past ~100,000 of them.
    else if (arg.type === 'SpreadExpression') for (const item of pyItems(evaluate(arg.argument as Node))) positional.push(item);
    else if (arg.type === 'KeywordSpreadExpression') for (const [key, item] of keywordsOf(evaluate(arg.argument as Node))) named.set(key, item);
    else positional.push(evaluate(arg));
  }
  return { positional, named };
}
