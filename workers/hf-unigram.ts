/**
 * A Unigram model (T5's, XLM's, ALBERT's) gathering a text's tokens without
 * spreading them as arguments. The library (`@huggingface/tokenizers`,
 * `Unigram.encode`) appends each word's tokens with `push(...tokens)`, and V8
 * takes at most about 120,000 arguments: a word of 200,000 characters the
 * vocabulary cuts one by one (a model repeating one letter, a long number)
 * failed with "Maximum call stack size exceeded", and the count with it, on
 * every resume alike. Each word is still cut by the library's own lattice.
 */

/** What this file uses of the library's Unigram model (its package does not export the class). */
interface UnigramModel {
  config: { type?: unknown };
  tokenize(word: string): string[];
  encode(words: string[]): string[];
}

function isUnigram(model: unknown): model is UnigramModel {
  if ((typeof model !== 'object' && typeof model !== 'function') || model === null) return false;
  const candidate = model as Partial<UnigramModel>;
  return candidate.config?.type === 'Unigram' && typeof candidate.tokenize === 'function' && typeof candidate.encode === 'function';
}

/** Routes the words of `model`, when it is a Unigram model, through the library's lattice, their tokens appended one by one. */
export function unigramWithoutSpread(model: unknown): void {
  if (!isUnigram(model)) return;
  model.encode = (words: string[]): string[] => {
    const tokens: string[] = [];
    for (const word of words) for (const token of model.tokenize(word)) tokens.push(token);
    return tokens;
  };
}
