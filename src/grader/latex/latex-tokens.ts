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
