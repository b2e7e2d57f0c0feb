/**
 * Separating a quantity into its value, its unit and a percent sign:
 * "15\text{ cm}^2", "90^\circ", "28 percent", "1,000.99m²", "125 miles".
 */

/** Short units that may be glued to the number ("5cm", "3m^2"). */
const GLUED_UNIT = /^(?:mm|cm|dm|km|m|kg|mg|g|ml|mL|l|L|s|ms|min|h|hr|hrs|ft|in|yd|mi|lb|lbs|oz)(?:\^\{?[23]\}?)?$/;

/** Words that are mathematics, never units. */
const MATH_WORDS = new Set([
  'sin', 'cos', 'tan', 'sec', 'csc', 'cot', 'log', 'ln', 'exp', 'sqrt', 'pi', 'max', 'min', 'gcd', 'lcm',
  'mod', 'abs', 'and', 'or', 'arcsin', 'arccos', 'arctan', 'sinh', 'cosh', 'tanh', 'det',
]);

/** A value with what was stripped from it. */
export interface Quantity {
  tex: string;
  unit: string | null;
  percent: boolean;
}

function joinUnit(a: string | null, b: string): string {
  return a === null ? b : `${b} ${a}`;
}

/** Splits trailing units, degree marks and percent signs off a value. */
export function splitQuantity(input: string): Quantity {
  let tex = input.trim();
  let unit: string | null = null;
  let percent = false;
  for (let guard = 0; guard < 6; guard += 1) {
    const before = tex;
    // Degrees: "90^\circ", "90^{\circ}", "90°", "90\degree".
    const deg = /^(.*?)\s*(?:\^\s*\{?\s*\\circ\s*\}?|\\circ|°|\\degree)\s*([CF])?$/.exec(tex);
    if (deg?.[1] !== undefined && deg[1] !== '') {
      tex = deg[1].trim();
      unit = joinUnit(unit, deg[2] === undefined ? 'deg' : `deg${deg[2]}`);
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
      if (head !== '' && !/[=<>]$|\\(?:le|ge|ne|in)$/.test(head)) {
        tex = head;
        unit = joinUnit(unit, (text[2] + (text[3] ?? '')).replace(/\s+/g, ''));
      }
    }
    // Bare unit words after a number: "125 miles", "10 units", "1000.99m^2".
    const bare = /^(.*[\d})\]])(\s*)([a-zA-Z][a-zA-Z\s]*(?:\^\s*\{?\d\}?)?)$/.exec(tex);
    if (bare?.[1] !== undefined && bare[3] !== undefined && /\d/.test(bare[1])) {
      const words = bare[3].trim();
      const spaced = (bare[2] ?? '') !== '';
      const wordList = words.replace(/\^.*$/, '').split(/\s+/);
      const unitLike = wordList.every((w) => w.length >= 2 && !MATH_WORDS.has(w.toLowerCase()));
      if ((spaced && unitLike) || GLUED_UNIT.test(words)) {
        tex = bare[1].trim();
        unit = joinUnit(unit, words.replace(/\s+/g, ''));
      }
    }
    if (tex === before) break;
  }
  return { tex, unit, percent };
}

/** Canonical spelling of a unit for strict comparison ("cm^2" = "cm^{2}" = "cm2"). */
export function canonicalUnit(unit: string | null): string {
  if (unit === null) return '';
  return unit
    .toLowerCase()
    .replace(/[\s{}^\\]/g, '')
    .replace(/^(?:mbox|text)/, '')
    .replace(/(?<=[a-z]{2,})s$/, '');
}
