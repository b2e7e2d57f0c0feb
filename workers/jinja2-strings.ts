/**
 * jinja2's string literals in the form `@huggingface/jinja`'s lexer reads.
 *
 * jinja2 decodes a literal's backslashes as Python's unicode-escape codec
 * does: `\a`, octal `\0` to `\777` and `\U0001F600` are characters, and a
 * backslash before any other character stays, with the character (`'\('`,
 * `'\d'`, `'\$'` are two characters each, as LaTeX or a pattern in a prompt
 * writes them). The library's lexer reads `\n \t \r \b \f \v \' \" \\`,
 * `\xNN` and `\uNNNN` alone, and refused the rest ("Unexpected escaped
 * character: ("), so a math prompt's `{{ 'Write \(x\)' }}` was refused
 * before the run. Each escape it lacks is written here as one it reads for
 * the same characters; a character's name (`\N{BULLET}`, which needs
 * Python's table of names) and a backslash ending a line are left for it to
 * refuse. No line moves.
 */

/** Escapes the library reads as Python does. */
const KNOWN = new Set(['n', 't', 'r', 'b', 'f', 'v', "'", '"', '\\', 'x', 'u']);
/** Escapes left as they are, for the library to refuse: a name, a line continued, a \U that is not 8 hexadecimal digits. */
const LEFT = new Set(['N', '\n', '\r', 'U']);

/** `text`'s UTF-16 units as `\uNNNN` escapes. */
function unicodeEscapes(text: string): string {
  return Array.from({ length: text.length }, (_, index) => `\\u${text.charCodeAt(index).toString(16).padStart(4, '0')}`).join('');
}

/** The escape at `body[index]` (a backslash) as the library reads the same characters, and how many characters it took. */
function escapeAt(body: string, index: number): { text: string; length: number } {
  const next = body[index + 1] ?? '';
  if (KNOWN.has(next)) return { text: `\\${next}`, length: 2 };
  if (next === 'a') return { text: '\\x07', length: 2 };
  const rest = body.slice(index + 1, index + 10);
  const octal = /^[0-7]{1,3}/.exec(rest)?.[0];
  if (octal !== undefined) return { text: unicodeEscapes(String.fromCharCode(Number.parseInt(octal, 8))), length: 1 + octal.length };
  const wide = /^U([0-9a-fA-F]{8})/.exec(rest)?.[1];
  if (wide !== undefined && Number.parseInt(wide, 16) <= 0x10ffff) return { text: unicodeEscapes(String.fromCodePoint(Number.parseInt(wide, 16))), length: 10 };
  if (next === '' || LEFT.has(next)) return { text: `\\${next}`, length: 1 + next.length };
  // Python keeps an unknown escape whole: the backslash and its character.
  return { text: `\\\\${next}`, length: 2 };
}

/** A quoted literal as jinja2 reads it, written as the library reads the same text. */
export function libraryString(quoted: string): string {
  const quote = quoted[0] as string;
  const body = quoted.slice(1, -1);
  let out = '';
  for (let index = 0; index < body.length; ) {
    if (body[index] !== '\\') {
      out += body[index];
      index++;
      continue;
    }
    const escape = escapeAt(body, index);
    out += escape.text;
    index += escape.length;
  }
  return quote + out + quote;
}
