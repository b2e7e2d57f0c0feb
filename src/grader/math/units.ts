/**
 * Separating a quantity into its value, its unit and a percent sign:
 * "15\text{ cm}^2", "90^\circ", "28 percent", "1,000.99m²", "125 miles".
 * A per mille sign is a value, not a unit: "5‰" is read as 5/1000.
 */
import { compileLatex } from './mathjs-env.ts';
import { scaledByNextCjk } from './cjk-scale.ts';

/** Short units that may be glued to the number ("5cm", "3km^2"). */
const GLUED_UNIT = /^(?:mm|cm|dm|km|kg|mg|ml|mL|ms|min|hr|hrs|ft|in|yd|mi|lb|lbs|oz)(?:\^\{?[23]\}?)?$/;

/**
 * One-letter units. After a number they are as likely a variable ("4m" where
 * the question has an m) as metres, so they are never stripped; the parser
 * records the reading without them (`looseUnit`) and the comparison says
 * `unsure` when only that reading would match.
 */
const LETTER_UNIT = /^(?:m|g|s|h|l|L)(?:\^\{?[23]\}?)?$/;

/** A numeral or a fraction of numerals: what a one-letter unit may follow. */
const NUMERAL = /^-?(?:\d+(?:\.\d+)?|\\frac\{\d+\}\{\d+\})$/;

/** Words that qualify an answer rather than name a unit ("\text{ for all } x", "\text{ is odd}"). */
const NOT_UNIT_WORDS = /^(?:is|are|be|for|all|some|any|every|each|or|and|if|otherwise|where|with|when|such|that|the|of|not|no|none|only|odd|even|prime|integer|integers|real|reals|positive|negative|constant|constants)$/i;

/** True when `tex` is a number (a constant expression): only then may what follows it be a unit. */
function isNumber(tex: string): boolean {
  const c = compileLatex(tex.trim());
  return c !== null && c.vars.length === 0 && c.funcs.length === 0;
}

/** Words that are mathematics, never units. */
const MATH_WORDS = new Set([
  'sin', 'cos', 'tan', 'sec', 'csc', 'cot', 'log', 'ln', 'exp', 'sqrt', 'pi', 'max', 'min', 'gcd', 'lcm',
  'mod', 'abs', 'and', 'or', 'arcsin', 'arccos', 'arctan', 'sinh', 'cosh', 'tanh', 'det',
]);

/** A power of ten, as what a scale word does to the number before it. */
const times10 = (k: number) => (n: string) => `${n} \\cdot 10^{${k}}`;
/** A fraction's denominator, as what "2 thirds" does to its 2. */
const over = (d: number) => (n: string) => `\\frac{${n}}{${d}}`;

/**
 * Words after a number that change its value, singular form: scales ("2.5
 * million"), operations ("5 squared"), a constant ("2 pi") and fractions
 * ("3 halves", "5 hundredths"). "Quarters" is left out: it also counts coins.
 */
const VALUE_WORDS: Readonly<Record<string, (n: string) => string>> = {
  hundred: times10(2), thousand: times10(3), million: times10(6), billion: times10(9), trillion: times10(12),
  dozen: (n) => `${n} \\cdot 12`, pi: (n) => `${n}\\pi`, squared: (n) => `${n}^{2}`, cubed: (n) => `${n}^{3}`, factorial: (n) => `${n}!`,
  half: over(2), third: over(3), fourth: over(4), fifth: over(5), sixth: over(6), seventh: over(7),
  eighth: over(8), ninth: over(9), tenth: over(10), hundredth: over(100), thousandth: over(1000), millionth: over(1e6),
};

/** A numeral and the word right after it, bare or in \\text. */
const NUMBER_AND_WORD = /(?<![\d.])(\d+(?:\.\d+)?)\s*(?:\\text\{\s*([a-zA-Z]+)\s*\}|([a-zA-Z]+)\b)/g;

/**
 * "2.5 million" is 2.5 \\cdot 10^{6}, "5 squared" 5^{2}, "3 halves" 3/2:
 * such a word changes the value, so it is read as mathematics, never
 * dropped as a unit the way "7 ways" is ("2.5 million dollars" is 2500000
 * dollars).
 */
function valueWords(tex: string): string {
  if (!/\d\s*(?:\\text\{\s*)?[a-zA-Z]/.test(tex)) return tex;
  return tex.replace(NUMBER_AND_WORD, (whole: string, n: string, inText: string | undefined, bare: string | undefined) => {
    const word = (inText ?? bare ?? '').toLowerCase();
    const rule = VALUE_WORDS[word] ?? VALUE_WORDS[word.replace(/ves$/, 'f').replace(/s$/, '')];
    return rule === undefined ? whole : rule(n);
  });
}

/** A value with what was stripped from it. */
export interface Quantity {
  tex: string;
  unit: string | null;
  percent: boolean;
  /** The value without a trailing one-letter unit or variable ("4m" → "4"); null when there is none. */
  looseUnit: string | null;
}

function joinUnit(a: string | null, b: string): string {
  return a === null ? b : `${b} ${a}`;
}

/** Words after a number in scripts that write no mathematics: Chinese, Japanese, Korean, Cyrillic, Arabic, Devanagari. */
const FOREIGN_UNIT = /^(.*[\d})\]])\s*((?:[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Cyrillic}\p{Script=Arabic}\p{Script=Devanagari}]+\s*){1,3})$/u;

/** Splits trailing units, degree marks and percent signs off a value. */
export function splitQuantity(input: string): Quantity {
  let tex = valueWords(input.trim());
  let unit: string | null = null;
  let percent = false;
  for (let guard = 0; guard < 6; guard += 1) {
    const before = tex;
    // Degrees: "90^\circ", "90^{\circ}", "90°", "90\degree".
    const deg = /^(.*?)\s*(?:\^\s*\{?\s*\\circ\s*\}?|\\circ|°|\\degree)\s*([CF])?$/.exec(tex);
    // "\sin 30^\circ": the mark belongs to the function's angle, which the translator reads.
    if (deg?.[1] !== undefined && deg[1] !== '' && !/\\(?:sin|cos|tan|sec|csc|cot)(?![a-zA-Z])/.test(deg[1])) {
      tex = deg[1].trim();
      unit = joinUnit(unit, deg[2] === undefined ? 'deg' : `deg${deg[2]}`);
    }
    const mille = /^(.*?)\s*(?:‰|\\permil(?![a-zA-Z])|\\text\{\s*per\s*mill?e\s*\}|\bper\s*mill?e)$/i.exec(tex);
    if (mille?.[1] !== undefined && mille[1] !== '' && !percent) {
      tex = `\\frac{${mille[1].trim()}}{1000}`;
      break;
    }
    const pct = /^(.*?)\s*(?:%|\\text\{\s*(?:percent|percentage|pct)\s*\}|\b(?:percent|percentage|pct))$/i.exec(tex);
    if (pct?.[1] !== undefined && pct[1] !== '') {
      tex = pct[1].trim();
      percent = true;
    }
    // "\text{ cm}^2" after a value.
    const text = /^(.*\S)\s*\\text\{([^{}]*)\}\s*(\^\s*\{?\s*\d\s*\}?)?$/.exec(tex);
    if (text?.[1] !== undefined && text[2] !== undefined && !/^\s*$/.test(text[2])) {
      const head = text[1].trim();
      const words = text[2].trim().split(/\s+/);
      // "3+4\text{i}": a lone letter in \text is a letter of the answer (i, e) unless it is a unit's symbol.
      const letter = words.length === 1 && /^[a-zA-Z]$/.test(words[0] ?? '') && !LETTER_UNIT.test(words[0] ?? '');
      const unitLike = !letter && words.length <= 3 && words.every((w) => /^[a-zA-Z.\\/^{}0-9]+$/.test(w) && !NOT_UNIT_WORDS.test(w));
      if (head !== '' && unitLike && isNumber(head)) {
        tex = head;
        unit = joinUnit(unit, (text[2] + (text[3] ?? '')).replace(/\s+/g, ''));
      }
    }
    // Bare unit words after a number: "125 miles", "10 units", "1000.99m^2".
    const bare = /^(.*[\d})\]])(\s*)([a-zA-Z][a-zA-Z\s]*(?:\^\s*\{?\d\}?)?)$/.exec(tex);
    if (bare?.[1] !== undefined && bare[3] !== undefined && /\d/.test(bare[1]) && isNumber(bare[1])) {
      const words = bare[3].trim();
      const spaced = (bare[2] ?? '') !== '';
      const wordList = words.replace(/\^.*$/, '').split(/\s+/);
      const unitLike = wordList.every((w) => w.length >= 2 && !MATH_WORDS.has(w.toLowerCase()) && !NOT_UNIT_WORDS.test(w));
      if ((spaced && unitLike) || GLUED_UNIT.test(words)) {
        tex = bare[1].trim();
        unit = joinUnit(unit, words.replace(/\s+/g, ''));
      }
    }
    // "3页", "192公斤", "5 яблок": a counter or unit in a script mathematics does not use names what is counted.
    const foreign = FOREIGN_UNIT.exec(tex);
    // Not "5万" (50000), "5的平方", "5以上": words that make the number another one (cjk-scale.ts).
    if (foreign?.[1] !== undefined && foreign[2] !== undefined && isNumber(foreign[1]) && !scaledByNextCjk(foreign[2])) {
      tex = foreign[1].trim();
      unit = joinUnit(unit, foreign[2].replace(/\s+/g, ''));
    }
    if (tex === before) break;
  }
  const letter = /^(.*[\d})\]])\s*([a-zA-Z](?:\^\s*\{?\d\}?)?)$/.exec(tex);
  const looseUnit = letter?.[1] !== undefined && letter[2] !== undefined && LETTER_UNIT.test(letter[2]) && NUMERAL.test(letter[1].trim()) ? letter[1].trim() : null;
  return { tex, unit, percent, looseUnit };
}

/** Canonical spelling of a unit for strict comparison ("cm^2" = "cm^{2}" = "cm2"). */
export function canonicalUnit(unit: string | null): string {
  if (unit === null) return '';
  return unit
    .toLowerCase()
    .replace(/[\s{}^\\]/g, '')
    .replace(/^(?:mbox|text)/, '')
    // The plural stands before a power as well: "inches^2" is "inch^2", not a unit named "inches".
    .replace(/(?<=[a-z]{2,})s(?=[23]?$)/, '');
}
