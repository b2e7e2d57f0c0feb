/**
 * Long words of a Hugging Face BPE model merged in O(n log n) by
 * bpe-merge.ts, with the library's own result.
 *
 * The library (`@huggingface/tokenizers`, `BPE.bpe`) merges a word through a
 * priority queue of objects, one per character, each pair looked up by
 * `JSON.stringify([left, right])`: a megabyte of one repeated character took
 * seconds, and ten ran out of heap. Its rule is the usual one (the pair of
 * lowest merge rank, the leftmost on a tie), so the same merges, queued
 * compactly, give the same tokens. Words up to the library's own cache limit
 * stay with it (its cache serves repeated words); longer ones come here.
 */
import { mergeParts } from './bpe-merge.ts';

/** Characters past which a word is merged here: the library caches shorter words, and recomputes longer ones each time. */
const LONG_WORD = 256;

/** Ids of merged parts start above every code point, so that a part's id names its text (a first part's id is its code point). */
const JOINED_BASE = 0x110000;

/** What this file uses of the library's `BPE` model (its package's type declarations do not resolve its models under NodeNext). */
interface BpeModel {
  config: { type?: unknown };
  bpe(word: string): string[];
  bpe_ranks: Map<string, number>;
  merges: unknown[];
  continuing_subword_suffix: string | null;
  end_of_word_suffix?: string | undefined;
}

/** The library's models are callable objects: functions with the model's prototype. */
function isBpeModel(model: unknown): model is BpeModel {
  if ((typeof model !== 'object' && typeof model !== 'function') || model === null) return false;
  const candidate = model as Partial<BpeModel>;
  return candidate.config?.type === 'BPE' && typeof candidate.bpe === 'function' && candidate.bpe_ranks instanceof Map && Array.isArray(candidate.merges);
}

/**
 * Routes the long words of `model`, when it is a BPE model, to the merge of
 * bpe-merge.ts. A model with an end-of-word suffix (the last character of a
 * word carries it) keeps the library's merge throughout.
 */
export function mergeLongWordsFast(model: unknown): void {
  if (!isBpeModel(model) || model.end_of_word_suffix) return;
  const library = model.bpe.bind(model);
  const ranks = model.bpe_ranks;
  const joinedIds = Int32Array.from({ length: model.merges.length }, (_, rank) => JOINED_BASE + rank);
  model.bpe = (word: string): string[] => {
    if (word.length <= LONG_WORD) return library(word);
    return withSuffix(mergeWord(word, ranks, joinedIds), model.continuing_subword_suffix);
  };
}

/** The word's tokens, as `BPE.bpe` makes them before its suffix: characters (code points) joined by `ranks`. */
function mergeWord(word: string, ranks: Map<string, number>, joinedIds: Int32Array): string[] {
  const bounds = new Int32Array(word.length + 1);
  const ids = new Int32Array(word.length);
  let count = 0;
  for (let at = 0; at < word.length; ) {
    const point = word.codePointAt(at) as number;
    bounds[count] = at;
    ids[count++] = point;
    at += point > 0xffff ? 2 : 1;
  }
  bounds[count] = word.length;
  const tokens: string[] = [];
  mergeParts(
    {
      bounds,
      count,
      ids,
      // The library's key for a merge: the pair as a JSON array.
      rank: (a, b, c) => ranks.get(JSON.stringify([word.slice(a, b), word.slice(b, c)])) ?? -1,
      joinedIds,
    },
    (start, end) => tokens.push(word.slice(start, end)),
  );
  return tokens;
}

/** The library's suffix on every token but the last, when the model has one. */
function withSuffix(tokens: string[], suffix: string | null): string[] {
  if (suffix) for (let i = 0; i < tokens.length - 1; i++) tokens[i] += suffix;
  return tokens;
}
