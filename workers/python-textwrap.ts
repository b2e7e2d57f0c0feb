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

const lengthOf = (chunk: string): number => Array.from(chunk).length;

/** textwrap's _handle_long_word: the head of the next chunk that fits on the line (or all of it on an empty line when words are not broken). */
function placeLongWord(chunks: string[], line: string[], used: number, width: number, options: WrapOptions): void {
  const spaceLeft = width < 1 ? 1 : width - used;
  const chunk = Array.from(chunks[chunks.length - 1] as string);
  if (options.breakLongWords) {
    let end = spaceLeft;
    if (options.breakOnHyphens && chunk.length > spaceLeft) {
      const hyphen = chunk.slice(0, spaceLeft).lastIndexOf('-');
      if (hyphen > 0 && chunk.slice(0, hyphen).some((char) => char !== '-')) end = hyphen + 1;
    }
    line.push(chunk.slice(0, end).join(''));
    chunks[chunks.length - 1] = chunk.slice(end).join('');
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
    while (chunks.length > 0 && used + lengthOf(chunks[chunks.length - 1] as string) <= width) {
      const chunk = chunks.pop() as string;
      line.push(chunk);
      used += lengthOf(chunk);
    }
    if (chunks.length > 0 && lengthOf(chunks[chunks.length - 1] as string) > width) placeLongWord(chunks, line, used, width, options);
    if (line.length > 0 && isBlank(line[line.length - 1] as string)) line.pop();
    if (line.length > 0) lines.push(line.join(''));
  }
  return lines;
}
