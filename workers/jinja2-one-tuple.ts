/**
 * A tuple of one item, `('x',)`, read as jinja2 reads it. `@huggingface/jinja`
 * parses `(a, b)` as a tuple but fails on the comma that makes `('x',)` one
 * ("Unexpected token: CloseParen"), so a template that wrote Python's form
 * (`{% for stop in ('</s>',) %}`, `text.endswith(('.',))`) was refused as one
 * that does not parse. The tokens of such a group get a second item the
 * parser reads, a text no template can write, which the render leaves out.
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

/** `tokens` with each `(x,)` given the mark as a second item, which the parser reads as a tuple of two. */
export function withOneTuples(tokens: readonly Token[]): Token[] {
  const marked = new Set<number>();
  tokens.forEach((token, at) => {
    if (token.type !== 'OpenParen' || callsAfter(tokens[at - 1])) return;
    const end = pastGroup(tokens, at);
    if (tokens[end - 1]?.type === 'CloseParen' && isOneAndComma(tokens.slice(at + 1, end - 1))) marked.add(end - 1);
  });
  if (marked.size === 0) return [...tokens];
  return tokens.flatMap((token, at) => (marked.has(at) ? [{ type: 'StringLiteral', value: ONE_TUPLE_MARK }, token] : [token]));
}

/** A tuple literal without the mark withOneTuples added: its one item; any other node as it is. */
export function withoutOneTupleMark<T extends { type: string }>(node: T): T {
  const items = (node as unknown as { value?: unknown }).value;
  if (node.type !== 'TupleLiteral' || !Array.isArray(items)) return node;
  const last = items.at(-1) as { type?: string; value?: unknown } | undefined;
  return last?.type === 'StringLiteral' && last.value === ONE_TUPLE_MARK ? { ...node, value: items.slice(0, -1) } : node;
}
