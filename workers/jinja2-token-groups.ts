/**
 * The tokens of a tag walked as the rewrites before the library's parser need
 * them (jinja2-tests.ts unchains comparisons, jinja2-concat.ts binds `~`): a
 * bracketed group is one part of the expression around it, its inside
 * rewritten on its own, and what separates expressions ends a segment.
 */

/** A token of the library's lexer. */
export interface Token {
  value: string;
  type: string;
}

export const OPENERS = new Set(['OpenParen', 'OpenSquareBracket', 'OpenCurlyBracket']);
export const CLOSERS = new Set(['CloseParen', 'CloseSquareBracket', 'CloseCurlyBracket']);

/** The index just past the bracketed group opened at `start` (or the tag's end, where the parser tells what is wrong). */
export function pastGroup(tokens: readonly Token[], start: number): number {
  let depth = 0;
  for (let at = start; at < tokens.length; at++) {
    const type = (tokens[at] as Token).type;
    if (type === 'CloseExpression' || type === 'CloseStatement') return at;
    if (OPENERS.has(type)) depth++;
    else if (CLOSERS.has(type) && --depth === 0) return at + 1;
  }
  return tokens.length;
}

/**
 * Whether the token at `at` names a statement (`{% elif …`, `{% if …`, `{% set …`): the expression after it is a
 * segment of its own. The rewrites' lists of ending names lacked `elif`, so `{% elif x ~ 'b' + 'c' %}` was
 * grouped with its keyword, `{% (elif x ~ 'b') + 'c' %}`, and did not parse; a keyword is known by its place.
 */
function isStatementKeyword(tokens: readonly Token[], at: number): boolean {
  return tokens[at]?.type === 'Identifier' && tokens[at - 1]?.type === 'OpenStatement';
}

/**
 * `tokens` with each segment of one depth (its parts: a token, or a bracketed group) given to `rewrite`; a
 * segment ends at a token `endsSegment` tells (given the tokens after and before it), which stays as it is, and each group's
 * inside is walked so too.
 */
export function rewriteSegments(tokens: readonly Token[], endsSegment: (token: Token, next: Token | undefined, previous: Token | undefined) => boolean, rewrite: (segment: Token[][]) => Token[]): Token[] {
  const out: Token[] = [];
  let segment: Token[][] = [];
  const flush = () => {
    out.push(...rewrite(segment));
    segment = [];
  };
  for (let at = 0; at < tokens.length; at++) {
    const token = tokens[at] as Token;
    if (OPENERS.has(token.type)) {
      const end = pastGroup(tokens, at);
      const closing = tokens[end - 1] as Token;
      const inner = (slice: Token[]) => rewriteSegments(slice, endsSegment, rewrite);
      segment.push(CLOSERS.has(closing.type) ? [token, ...inner(tokens.slice(at + 1, end - 1)), closing] : [token, ...inner(tokens.slice(at + 1, end))]);
      at = end - 1;
    } else if (isStatementKeyword(tokens, at) || endsSegment(token, tokens[at + 1], tokens[at - 1])) {
      flush();
      out.push(token);
    } else segment.push([token]);
  }
  flush();
  return out;
}
