/**
 * A template's source as jinja2's lexer reads it: its line ends made `\n`
 * first (it splits on `\r\n`, `\r` and `\n` and joins with `\n`, so a chat
 * template saved with CRLF renders LF, and trim_blocks takes the newline after
 * `%}\r\n` too), then, with trim_blocks and lstrip_blocks on (transformers'
 * environment), the indent before a block tag or comment at the start of a line
 * and the one newline after one taken out, except where `{%+` or `+%}` asks
 * to keep them. The library's own trimming knew neither marker, so a `{%+`
 * lost the indent jinja2 keeps, and left CRLF sources untrimmed.
 */

/** `source` with its line ends as jinja2's lexer makes them. */
export function withNewlinesNormalized(source: string): string {
  return source.replace(/\r\n?/g, '\n');
}

/** `source` (its newlines normalized) as trim_blocks and lstrip_blocks leave it; the `+` markers are read later (jinja2-numbers.ts drops them). */
export function withBlocksTrimmed(source: string): string {
  return source.replace(/^[ \t]+(?=\{[%#](?!\+))/gm, '').replace(/(?<!\+)([%#]\})\n/g, '$1');
}
