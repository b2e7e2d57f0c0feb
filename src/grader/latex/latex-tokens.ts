/**
 * Tokens of a LaTeX math expression, for the translator to mathjs. Plain-text
 * spellings ("sqrt(2)", "pi", "sin x") are recognised too, because models mix
 * them with LaTeX.
 */

/** One token: a number, a letter or known word, a command, or a character. */
export type Token =
  | { t: 'num'; v: string }
  | { t: 'id'; v: string }
  | { t: 'cmd'; v: string }
  | { t: 'op'; v: string };

/** Words written without a backslash that still mean the function or constant. */
const PLAIN_WORDS = [
  'arcsin', 'arccos', 'arctan', 'sqrt', 'sinh', 'cosh', 'tanh', 'sin', 'cos', 'tan', 'sec', 'csc', 'cot',
  'log', 'ln', 'exp', 'abs', 'pi',
];

/** Splits a run of letters into known words and single-letter symbols ("sinx" → sin, x). */
function splitLetters(run: string, out: Token[]): void {
  let i = 0;
  while (i < run.length) {
    const word = PLAIN_WORDS.find((w) => run.startsWith(w, i));
    if (word !== undefined) {
      out.push({ t: 'cmd', v: word });
      i += word.length;
    } else {
      out.push({ t: 'id', v: run[i] ?? '' });
      i += 1;
    }
  }
}

/** "FF_{16}", "1A_{12}": digits and capital letters before the base they are a numeral in. */
const LETTERED_NUMERAL = /^([0-9A-Z]*[A-Z][0-9A-Z]*)_(?:\{(\d{1,2})\}|(\d{1,2}))/;

/**
 * The numeral in a base over ten that starts at `at` ("FF" of "FF_{16}"),
 * or null. Two characters at least, each a digit of the base: "F_{16}" is
 * a sequence's term, "XY_{16}" no numeral.
 */
function lettered(tex: string, at: number): string | null {
  if (/[\\a-zA-Z0-9]/.test(tex[at - 1] ?? '')) return null;
  const m = LETTERED_NUMERAL.exec(tex.slice(at, at + 40));
  const digits = m?.[1];
  const base = Number(m?.[2] ?? m?.[3]);
  if (digits === undefined || digits.length < 2 || base < 11 || base > 36) return null;
  return [...digits].every((d) => Number.parseInt(d, 36) < base) ? digits : null;
}

/** "0xFF", "0b1010", "0o17": a numeral as programs write it in base 16, 2 or 8. */
const PREFIXED_NUMERAL = /^0([xbo])((?<=x)[0-9A-Fa-f]+|(?<=b)[01]+|(?<=o)[0-7]+)(?![0-9a-zA-Z])/;
const PREFIX_BASES: Readonly<Record<string, number>> = { x: 16, b: 2, o: 8 };

/** Tokenizes cleaned LaTeX; never throws (unknown characters become `op` tokens). */
export function tokenize(tex: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < tex.length) {
    const ch = tex[i] ?? '';
    if (/\s/.test(ch)) {
      i += 1;
      continue;
    }
    const numeral = lettered(tex, i);
    if (numeral !== null) {
      out.push({ t: 'num', v: numeral });
      i += numeral.length;
      continue;
    }
    const prefixed = PREFIXED_NUMERAL.exec(tex.slice(i, i + 80));
    if (prefixed !== null && !/[\\a-zA-Z0-9.]/.test(tex[i - 1] ?? '')) {
      out.push({ t: 'num', v: String(Number.parseInt(prefixed[2] ?? '', PREFIX_BASES[prefixed[1] ?? 'x'] ?? 16)) });
      i += prefixed[0].length;
      continue;
    }
    // Scientific notation ("1.5e3", "2E-4") is one number: models write it
    // far more often than a product with Euler's number.
    const num = /^(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+(?![\d.]))?/.exec(tex.slice(i, i + 400));
    if (num !== null) {
      out.push({ t: 'num', v: num[0] });
      i += num[0].length;
      continue;
    }
    if (ch === '\\') {
      const name = /^\\([a-zA-Z]+)/.exec(tex.slice(i, i + 60));
      if (name?.[1] !== undefined) {
        out.push({ t: 'cmd', v: name[1] });
        i += name[0].length;
      } else {
        const next = tex[i + 1] ?? '';
        out.push(next === '\\' ? { t: 'op', v: '\\\\' } : { t: 'cmd', v: next });
        i += 2;
      }
      continue;
    }
    const letters = /^[a-zA-Z]+/.exec(tex.slice(i, i + 200));
    if (letters !== null) {
      splitLetters(letters[0], out);
      i += letters[0].length;
      continue;
    }
    out.push({ t: 'op', v: ch });
    i += 1;
  }
  return out;
}
