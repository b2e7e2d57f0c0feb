/**
 * Values a closing sentence lists in prose, in the order of what it names: "The smallest and largest values are 12 and
 * 13, respectively." Read as no answer (no math, several numbers), the right pair was unsure against (12, 13).
 */

/** A verb that states them, then two numbers or more joined by commas or "and", then "respectively" and the full stop. */
const RESPECTIVE = /\b(?:are|were|is|equal|become)\b[^\n$*\d]{0,30}?(-?\d+(?:\.\d+)?(?:\s*(?:,\s*(?:and\s+)?|\s+and\s+)-?\d+(?:\.\d+)?){1,8})\s*,?\s*respectively\s*[.!]\s*$/i;

/** How far from the end of a paragraph such a sentence may begin. */
const REACH = 300;

/** The values, joined by ", ", and where they start in `text`; null where `text` does not close on such a sentence. */
export function respectiveValues(text: string): { values: string; at: number } | null {
  const from = Math.max(0, text.length - REACH);
  const found = RESPECTIVE.exec(text.slice(from));
  const list = found?.[1];
  if (found === undefined || found === null || list === undefined) return null;
  return { values: list.split(/\s*(?:,\s*(?:and\s+)?|\s+and\s+)/).join(', '), at: from + found.index + found[0].indexOf(list) };
}
