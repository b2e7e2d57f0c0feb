/**
 * A tuple of one item, `('x',)`, read as jinja2 reads it. `@huggingface/jinja`
 * parses `(a, b)` as a tuple but fails on the comma that makes `('x',)` one
 * ("Unexpected token: CloseParen"), so a template that wrote Python's form
 * (`{% for stop in ('</s>',) %}`, `text.endswith(('.',))`) was refused as one
 * that does not parse. The tokens of such a group get a second item the
 * parser reads, a text no template can write, which the render leaves out.
 * The empty tuple, `()` (`{% set stops = () %}`, `x in ()`), failed alike
 * ("Unexpected token: CloseParen"); it gets two such items, both left out.
 */
import { CLOSERS, OPENERS, pastGroup, type Token } from './jinja2-token-groups.ts';

/** The item added to a tuple of one: a text with NULs, which no template writes. */
const ONE_TUPLE_MARK = '\u0000one-tuple\u0000';

/** Names after which `(` opens a group, not a call's arguments. */
const KEYWORDS = new Set(['in', 'and', 'or', 'not', 'if', 'else', 'is', 'for', 'recursive', 'elif', 'set', 'return']);

/** Whether the `(` after `previous` calls something (`f(x,)`, `a.b(x,)`, `x[0](…)`) rather than groups. */
function callsAfter(previous: Token | undefined): boolean {
  if (previous === undefined) return false;
  if (previous.type === 'Identifier') return !KEYWORDS.has(previous.value);
  return previous.type === 'CloseParen' || previous.type === 'CloseSquareBracket';
}

/** Whether the inside of a group, `inner`, is one item and a comma: no other comma at its own depth. */
function isOneAndComma(inner: readonly Token[]): boolean {
  if (inner.length < 2 || inner.at(-1)?.type !== 'Comma') return false;
  let depth = 0;
  for (const token of inner.slice(0, -1)) {
    if (OPENERS.has(token.type)) depth++;
    else if (CLOSERS.has(token.type)) depth--;
    else if (depth === 0 && token.type === 'Comma') return false;
  }
  return true;
}

const MARK: Token = { type: 'StringLiteral', value: ONE_TUPLE_MARK };

/** `tokens` with each `(x,)` given the mark as a second item, which the parser reads as a tuple of two, and each `()` two marks. */
export function withOneTuples(tokens: readonly Token[]): Token[] {
  const marked = new Map<number, Token[]>();
  tokens.forEach((token, at) => {
    if (token.type !== 'OpenParen' || callsAfter(tokens[at - 1])) return;
    const end = pastGroup(tokens, at);
    if (tokens[end - 1]?.type !== 'CloseParen') return;
    if (end === at + 2) marked.set(end - 1, [MARK, { type: 'Comma', value: ',' }, MARK]);
    else if (isOneAndComma(tokens.slice(at + 1, end - 1))) marked.set(end - 1, [MARK]);
  });
  if (marked.size === 0) return [...tokens];
  return tokens.flatMap((token, at) => [...(marked.get(at) ?? []), token]);
}

/** Whether `item` is a mark withOneTuples added. */
function isMark(item: { type?: string; value?: unknown }): boolean {
  return item.type === 'StringLiteral' && item.value === ONE_TUPLE_MARK;
}

/** A tuple literal without the marks withOneTuples added: its one item, or none; any other node as it is. */
export function withoutOneTupleMark<T extends { type: string }>(node: T): T {
  const items = (node as unknown as { value?: unknown }).value;
  if (node.type !== 'TupleLiteral' || !Array.isArray(items)) return node;
  const kept = (items as { type?: string; value?: unknown }[]).filter((item) => !isMark(item));
  return kept.length === items.length ? node : { ...node, value: kept };
}
