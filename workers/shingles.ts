/**
 * A text's shingles and their Jaccard similarity, the reference definition
 * of bank deduplication (docs/concepts/tmas-loop.md, step 4). Lowercase a text,
 * split it into words on every run of characters that are not letters,
 * combining marks or digits (Unicode-aware), and take every `shingle`
 * consecutive words. A text with fewer words than that has one shingle, its
 * whole word sequence, so a short record still matches its exact repeat; a
 * text with no words has none. Jaccard similarity is |A∩B| / |A∪B|, and two
 * texts without words count as identical (1).
 */

/** Words per shingle when the task does not say. */
export const DEFAULT_SHINGLE = 3;

const WORD = /[\p{L}\p{M}\p{N}]+/gu;

/** The words of `text`, lowercased. */
export function toWords(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/** The set of shingles of `text` (words joined by a space, which no word contains). */
export function toShingles(text: string, shingle = DEFAULT_SHINGLE): Set<string> {
  checkShingle(shingle);
  const words = toWords(text);
  const shingles = new Set<string>();
  if (words.length === 0) return shingles;
  if (words.length < shingle) {
    shingles.add(words.join(' '));
    return shingles;
  }
  for (let start = 0; start + shingle <= words.length; start++) {
    shingles.add(words.slice(start, start + shingle).join(' '));
  }
  return shingles;
}

/** Jaccard similarity from set sizes and intersection: the one formula both paths use. */
export function similarity(sizeA: number, sizeB: number, shared: number): number {
  return sizeA === 0 && sizeB === 0 ? 1 : shared / (sizeA + sizeB - shared);
}

/** Reference Jaccard similarity of two texts, by brute force on shingle strings. For tests and one-off checks. */
export function jaccard(a: string, b: string, shingle = DEFAULT_SHINGLE): number {
  const setA = toShingles(a, shingle);
  const setB = toShingles(b, shingle);
  let shared = 0;
  for (const item of setA) if (setB.has(item)) shared += 1;
  return similarity(setA.size, setB.size, shared);
}

/** Throws a TypeError unless `shingle` (words per shingle) is a positive integer. */
export function checkShingle(shingle: number): void {
  if (!Number.isInteger(shingle) || shingle < 1) {
    throw new TypeError(`shingle must be a positive integer, got ${shingle}`);
  }
}
