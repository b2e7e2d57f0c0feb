/**
 * A WordPiece model (BERT's) matching each word as the library does, in time
 * bounded by its longest token. The library (`@huggingface/tokenizers`,
 * `WordPieceTokenizer.encode`) takes the longest vocabulary entry at each
 * place by trying every end from the word's last character down, each
 * candidate joined anew: a cube of the word's length. Real files stop it at
 * `max_input_chars_per_word` (100: a longer word is [UNK]); a file that
 * raises it (1e9) took 85 s of a pool thread for one word of 2,000 digits,
 * and hours for a longer one. No entry is longer than the vocabulary's
 * longest token, so trying ends from there on gives the same tokens.
 */

/** What this file uses of the library's WordPiece model (its package does not export the class). */
interface WordPieceModel {
  config: { type?: unknown; continuing_subword_prefix?: unknown };
  tokens_to_ids: Map<string, number>;
  unk_token: string;
  max_input_chars_per_word: number;
  encode(tokens: string[]): string[];
}

function isWordPiece(model: unknown): model is WordPieceModel {
  if ((typeof model !== 'object' && typeof model !== 'function') || model === null) return false;
  const candidate = model as Partial<WordPieceModel>;
  return candidate.config?.type === 'WordPiece' && typeof candidate.encode === 'function' && candidate.tokens_to_ids instanceof Map;
}

/** Routes the words of `model`, when it is a WordPiece model, to the bounded match below. */
export function wordPieceFast(model: unknown): void {
  if (!isWordPiece(model)) return;
  let longest = 0;
  for (const token of model.tokens_to_ids.keys()) longest = Math.max(longest, [...token].length);
  // Written as the library writes it, `undefined` included where the file gives none.
  const prefix = String(model.config.continuing_subword_prefix);
  model.encode = (tokens: string[]): string[] => tokens.flatMap((token) => wordPieces(model, [...token], prefix, longest));
}

/** The pieces of one word (its characters, by code point): the longest entry at each place, or the unknown token for the whole word. */
function wordPieces(model: WordPieceModel, chars: string[], prefix: string, longest: number): string[] {
  if (chars.length > model.max_input_chars_per_word) return [model.unk_token];
  const pieces: string[] = [];
  for (let start = 0; start < chars.length; ) {
    let found: string | null = null;
    let end = Math.min(chars.length, start + longest);
    for (; end > start; end--) {
      const piece = (start > 0 ? prefix : '') + chars.slice(start, end).join('');
      if (model.tokens_to_ids.has(piece)) {
        found = piece;
        break;
      }
    }
    if (found === null) return [model.unk_token];
    pieces.push(found);
    start = end;
  }
  return pieces;
}
