/**
 * A template's source as jinja2's lexer reads it: its line ends made `\n`
 * first (it splits on `\r\n`, `\r` and `\n` and joins with `\n`, so a chat
 * template saved with CRLF renders LF, and trim_blocks takes the newline after
 * `%}\r\n` too), then, with trim_blocks and lstrip_blocks on (transformers'
 * environment), the indent before a block tag or comment at the start of a line
 * and the one newline after one taken out, except where `{%+` or `+%}` asks
 * to keep them. The library's own trimming knew neither marker, so a `{%+`
 * lost the indent jinja2 keeps, and left CRLF sources untrimmed.
 *
 * Only the template's text between tags is trimmed, as jinja2's lexer trims
 * it: a `%}` and a newline inside a quoted text of a tag (`{{ 'a%}\nb' }}`)
 * and what a `{% raw %}` block holds are printed as written.
 */

/** `source` with its line ends as jinja2's lexer makes them. */
export function withNewlinesNormalized(source: string): string {
  return source.replace(/\r\n?/g, '\n');
}

/** A `{% raw %}` tag (with its whitespace markers), and the `{% endraw %}` that closes its block. */
const RAW_OPEN = /^\{%[-+]?\s*raw\s*[-+]?%\}/;
const RAW_CLOSE = /\{%[-+]?\s*endraw\s*[-+]?%\}/g;

/** Where the tag opening at `start` ends (just past its `}}`, `%}` or `#}`), quoted texts inside it skipped; the source's end when it never closes. */
function tagEnd(source: string, start: number): number {
  const kind = source[start + 1];
  if (kind === '#') {
    const end = source.indexOf('#}', start + 2);
    return end < 0 ? source.length : end + 2;
  }
  const close = kind === '{' ? '}}' : '%}';
  let quote: string | null = null;
  for (let at = start + 2; at < source.length; at++) {
    const char = source[at];
    if (quote !== null) {
      if (char === '\\') at++;
      else if (char === quote) quote = null;
    } else if (char === '"' || char === "'") quote = char;
    else if (source.startsWith(close, at)) return at + 2;
  }
  return source.length;
}

/** `text` before a block tag or comment without the indent of its last line, when that line holds only whitespace (lstrip_blocks). */
function lstripped(text: string, lineStarting: boolean): string {
  const lineStart = text.lastIndexOf('\n') + 1;
  if (lineStart === 0 && !lineStarting) return text;
  return /^\s+$/.test(text.slice(lineStart)) ? text.slice(0, lineStart) : text;
}

/** Where the tag ending at `end` is followed by the newline trim_blocks takes: past it, or `end` when it keeps it (`+%}`, a `{{ }}`). */
function trimmedEnd(source: string, start: number, end: number): number {
  const block = source[start + 1] !== '{' && source[end - 3] !== '+';
  return block && source[end] === '\n' ? end + 1 : end;
}

/** `source` (its newlines normalized) as trim_blocks and lstrip_blocks leave it; the `+` markers are read later (jinja2-numbers.ts drops them). */
export function withBlocksTrimmed(source: string): string {
  const pieces: string[] = [];
  const opening = /\{[{%#]/g;
  let at = 0;
  let lineStarting = true;
  while (at < source.length) {
    opening.lastIndex = at;
    const start = opening.exec(source)?.index ?? source.length;
    const text = source.slice(at, start);
    if (start === source.length) return pieces.join('') + text;
    const block = source[start + 1] !== '{' && source[start + 2] !== '+';
    pieces.push(block ? lstripped(text, lineStarting) : text);
    let end = tagEnd(source, start);
    pieces.push(source.slice(start, end));
    if (RAW_OPEN.test(source.slice(start, end))) {
      // A raw block's text is printed as written, its own newline after `{% raw %}` too; only the closing tag's indent goes.
      RAW_CLOSE.lastIndex = end;
      const close = RAW_CLOSE.exec(source);
      const closeStart = close?.index ?? source.length;
      const inner = source.slice(end, closeStart);
      pieces.push(close !== null && source[closeStart + 2] !== '+' ? lstripped(inner, false) : inner);
      const closeEnd = close === null ? source.length : closeStart + close[0].length;
      pieces.push(source.slice(closeStart, closeEnd));
      end = trimmedEnd(source, closeStart, closeEnd);
    } else end = trimmedEnd(source, start, end);
    lineStarting = end > 0 && source[end - 1] === '\n';
    at = end;
  }
  return pieces.join('');
}
