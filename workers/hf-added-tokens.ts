/**
 * The search for added tokens (`<|im_end|>`, `<think>`…) typed in a text, which
 * a Hugging Face tokenizer makes before anything else, once on the text as
 * given and once on each normalized section.
 *
 * The library (`@huggingface/tokenizers`, `DictionarySplitter.split`) walks
 * its trie from every character of the text, a property lookup and, outside
 * Latin-1, a new one-character string each: for the two walks of a count,
 * 0.15 s of CPU a million characters of Cyrillic, 0.06 s of English, where
 * the check below takes a millisecond. A match can only start at a character that
 * starts an added token (a handful: most begin with "<"), so a text holding
 * none of them splits into itself alone, which a regular expression of those
 * characters finds at native speed. Any other text goes to the library's own
 * walk: the sections are the library's in every case.
 */

/** What this file uses of the library's `DictionarySplitter` (its package does not export the class). */
interface Splitter {
  trie: Record<string, unknown>;
  split(text: string): string[];
}

function isSplitter(value: unknown): value is Splitter {
  const candidate = value as Partial<Splitter> | null;
  return typeof candidate === 'object' && candidate !== null && typeof candidate.trie === 'object' && candidate.trie !== null && typeof candidate.split === 'function';
}

/** `\uXXXX` of a UTF-16 code unit, for a character class read unit by unit (no `u` flag: a lone surrogate is a unit too). */
function unitEscape(unit: string): string {
  return `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** Routes the tokenizer's two added-token splitters past the walk on a text where no added token can start. */
export function addedTokensFast(tokenizer: unknown): void {
  for (const field of ['splitter_unnormalized', 'splitter_normalized']) {
    const splitter = (tokenizer as Record<string, unknown>)[field];
    if (!isSplitter(splitter)) continue;
    // The trie's keys are the first code units of the added tokens, as the walk compares them with the text's.
    const starts = Object.keys(splitter.trie);
    const walk = splitter.split.bind(splitter);
    const startsAny = starts.length === 0 ? null : new RegExp(`[${starts.map(unitEscape).join('')}]`);
    splitter.split = (text: string): string[] => {
      if (startsAny === null || !startsAny.test(text)) return text.length === 0 ? [] : [text];
      return walk(text);
    };
  }
}
