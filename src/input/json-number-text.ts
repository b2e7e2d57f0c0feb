/**
 * The text a JSON object's top-level number was written as. `JSON.parse` turns
 * every number into a double, so a reference answer written `1e400` became
 * "Infinity" and `0.12345678901234567890` lost its last digits: the run graded
 * against an answer the file does not hold. A number field is read back from
 * its own characters instead (Node 20 has no `JSON.parse` source access).
 */

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const SPACE = /[ \t\n\r]*/y;

/**
 * The characters of the number that `key` holds in the JSON object `text`
 * (already parsed, so known to be valid); undefined when it holds no number
 * at the top level. The last of duplicate keys wins, as in `JSON.parse`.
 */
export function topLevelNumberText(text: string, key: string): string | undefined {
  let at = skip(text, SPACE, 0);
  if (text[at] !== '{') return undefined;
  at++;
  let found: string | undefined;
  for (;;) {
    at = skip(text, SPACE, at);
    if (text[at] === '}' || at >= text.length) return found;
    const keyEnd = stringEnd(text, at);
    const name = JSON.parse(text.slice(at, keyEnd)) as string;
    at = skip(text, SPACE, keyEnd) + 1; // the colon
    at = skip(text, SPACE, at);
    const numberEnd = skip(text, NUMBER, at);
    if (name === key) found = numberEnd > at ? text.slice(at, numberEnd) : undefined;
    at = numberEnd > at ? numberEnd : valueEnd(text, at);
    at = skip(text, SPACE, at);
    if (text[at] === ',') at++;
  }
}

/** Where `pattern` (sticky) stops matching from `at`; `at` when it does not match. */
function skip(text: string, pattern: RegExp, at: number): number {
  pattern.lastIndex = at;
  return pattern.test(text) ? pattern.lastIndex : at;
}

/** The end of the string whose opening quote is at `at` (a loop, not a regular expression: a 10 MB question would overflow one's backtracking). */
function stringEnd(text: string, at: number): number {
  for (let i = at + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}

/** The end of the value (not a number) that starts at `at`: a string, a literal, or an array or object with what it nests. */
function valueEnd(text: string, at: number): number {
  if (text[at] === '"') return stringEnd(text, at);
  if (text[at] !== '{' && text[at] !== '[') return skip(text, /[a-z]+/y, at);
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const char = text[i];
    if (char === '"') i = stringEnd(text, i) - 1;
    else if (char === '{' || char === '[') depth++;
    else if ((char === '}' || char === ']') && --depth === 0) return i + 1;
  }
  return text.length;
}
