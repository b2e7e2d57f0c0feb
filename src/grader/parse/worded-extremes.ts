/**
 * A minimum and a maximum stated in words, "the minimum is 4 and the maximum
 * is 9", "maximum 9, minimum 4", "the smallest value is 4; the largest value
 * is 9": the parts "\min = 4, \max = 9", which pair by name (named-parts.ts).
 * As words they were free text: the same parts in another order unsure.
 */

/** The names of an extreme and the one each stands for. */
const EXTREME = /^(?:the\s+)?(minimum|maximum|min|max|smallest|largest|least|greatest)(?:\s+(?:possible\s+)?values?)?(?:\s+(?:is|equals|=)|\s*[:=])?\s+(.+)$/i;

/** Parts of the answer: at a comma or semicolon, or at "and" before the next name. */
const PART_BREAK = /\s*[,;]\s*(?:and\s+)?|\s+and\s+(?=(?:the\s+)?\p{L}{3,})/u;

/** A value in mathematics only: no word of two letters or more once commands are set aside. */
function isMathValue(value: string): boolean {
  return value.trim() !== '' && !/\p{L}{2,}/u.test(value.replace(/\\[a-zA-Z]+/g, ' '));
}

/** "\min = 4, \max = 9" for an answer that states a minimum and a maximum in words; null for any other. */
export function wordedExtremes(text: string): string | null {
  if (text.length > 400) return null;
  const parts = text.trim().replace(/[.!]\s*$/, '').split(PART_BREAK);
  if (parts.length !== 2) return null;
  const named = parts.map((part) => {
    const m = EXTREME.exec(part.trim());
    const [name, value] = [m?.[1]?.toLowerCase() ?? '', (m?.[2] ?? '').trim()];
    if (m === null || !isMathValue(value)) return null;
    return { name: /^(?:min|smallest|least)/.test(name) ? '\\min' : '\\max', value };
  });
  const [first, second] = named;
  if (first == null || second == null || first.name === second.name) return null;
  return `${first.name} = ${first.value}, ${second.name} = ${second.value}`;
}
