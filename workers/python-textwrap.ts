/**
 * Python's textwrap.wrap as jinja2's `wordwrap` filter calls it (tabs and
 * whitespace kept, whitespace dropped at the ends of lines): the text cut
 * into chunks (runs of whitespace, words, the parts of a hyphenated word
 * after each hyphen), and the chunks laid on lines of at most `width`
 * characters, a word longer than a line cut (after its last hyphen that fits,
 * where there is one) unless break_long_words is false. Lengths count
 * characters, as Python does.
 */
import { isPySpace } from './python-str.ts';

/** What textwrap takes for whitespace: the ASCII six, not Unicode's. */
const WS = '[\\t\\n\\v\\f\\r ]';
const NOT_WS = '[^\\t\\n\\v\\f\\r ]';
/** Python's \w and [^\d\W] (a word character, and one that is not a digit). */
const WORD = '[\\p{L}\\p{N}_]';
const LETTER = '[\\p{L}\\p{Nl}\\p{No}_]';
const WORD_PUNCT = `(?:${WORD}|[!"'&.,?])`;

/** textwrap's wordsep_re: whitespace, an em-dash between words, or a word ending at a hyphen between letters, at whitespace, at the end, or before an em-dash. */
const CHUNKS_AT_HYPHENS = new RegExp(
  `(${WS}+|(?<=${WORD_PUNCT})-{2,}(?=${WORD})|${NOT_WS}+?(?:-(?:(?<=${LETTER}{2}-)|(?<=${LETTER}-${LETTER}-))(?=${LETTER}-?${LETTER})|(?=${WS}|$)|(?<=${WORD_PUNCT})(?=-{2,}${WORD})))`,
  'u',
);
/** textwrap's wordsep_simple_re: whitespace alone. */
const CHUNKS_AT_SPACES = new RegExp(`(${WS}+)`, 'u');

export interface WrapOptions {
  width: number;
  breakLongWords: boolean;
  breakOnHyphens: boolean;
}

/** Whether Python's `chunk.strip() == ''`. */
function isBlank(chunk: string): boolean {
  for (const char of chunk) if (!isPySpace(char.codePointAt(0) as number)) return false;
  return true;
}

/**
 * The length of `chunk` in characters, as Python counts them, counted no further than `limit` + 1: all a fit
 * needs. Counting a word of millions of characters whole for each line it is cut into held the thread for minutes.
 */
function lengthUpTo(chunk: string, limit: number): number {
  let count = 0;
  for (let at = 0; at < chunk.length && count <= limit; at += (chunk.codePointAt(at) as number) > 0xffff ? 2 : 1) count++;
  return count;
}

/** textwrap's _handle_long_word: the head of the next chunk that fits on the line (or all of it on an empty line when words are not broken). */
function placeLongWord(chunks: string[], line: string[], used: number, width: number, options: WrapOptions): void {
  const spaceLeft = width < 1 ? 1 : width - used;
  const chunk = chunks[chunks.length - 1] as string;
  if (options.breakLongWords) {
    // The head of spaceLeft characters, in UTF-16 units: only the head is walked, never the whole word for each cut.
    let cut = 0;
    for (let count = 0; cut < chunk.length && count < spaceLeft; count++) cut += (chunk.codePointAt(cut) as number) > 0xffff ? 2 : 1;
    let end = cut;
    if (options.breakOnHyphens && cut < chunk.length) {
      const hyphen = chunk.slice(0, cut).lastIndexOf('-');
      if (hyphen > 0 && /[^-]/u.test(chunk.slice(0, hyphen))) end = hyphen + 1;
    }
    line.push(chunk.slice(0, end));
    chunks[chunks.length - 1] = chunk.slice(end);
  } else if (line.length === 0) {
    line.push(chunks.pop() as string);
  }
}

/** textwrap.wrap(text, width, expand_tabs=False, replace_whitespace=False, …): the lines. */
export function pyWrap(text: string, options: WrapOptions): string[] {
  const { width } = options;
  if (width <= 0) throw new RangeError(`invalid width ${width} (must be > 0)`);
  const chunks = text.split(options.breakOnHyphens ? CHUNKS_AT_HYPHENS : CHUNKS_AT_SPACES).filter((chunk) => chunk !== '').reverse();
  const lines: string[] = [];
  while (chunks.length > 0) {
    const line: string[] = [];
    let used = 0;
    if (lines.length > 0 && isBlank(chunks[chunks.length - 1] as string)) chunks.pop();
    for (let length = lengthUpTo(chunks.at(-1) ?? '', width - used); chunks.length > 0 && used + length <= width; length = lengthUpTo(chunks.at(-1) ?? '', width - used)) {
      line.push(chunks.pop() as string);
      used += length;
    }
    if (chunks.length > 0 && lengthUpTo(chunks.at(-1) as string, width) > width) placeLongWord(chunks, line, used, width, options);
    if (line.length > 0 && isBlank(line[line.length - 1] as string)) line.pop();
    if (line.length > 0) lines.push(line.join(''));
  }
  return lines;
}
