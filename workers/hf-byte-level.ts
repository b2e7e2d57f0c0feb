/**
 * The byte-level pre-tokenizer of a Hugging Face tokenizer (Qwen's, Llama 3's,
 * DeepSeek's: every model's tokenizer here) mapped a character at a time.
 *
 * The library (`@huggingface/tokenizers`, `ByteLevel.pre_tokenize_text`)
 * writes each piece as its UTF-8 bytes, each byte as one printable character,
 * through `Array.from(bytes, byte => table[byte]).join('')`: an array entry
 * and a lookup per byte, 0.8 s of CPU a million characters, the largest share
 * of a count with a model's tokenizer. A piece's bytes are its characters'
 * bytes one after another (UTF-8 encodes each code point alone; a lone
 * surrogate is U+FFFD, alone too), so each character's byte-level text is
 * worked out once, by the library's own table, and the piece is those texts
 * joined: the same strings, in a fraction of the time.
 */

/** What this file uses of the library's `ByteLevel` pre-tokenizer (its package does not export the class). */
interface ByteLevelPreTokenizer {
  config: { type?: unknown };
  add_prefix_space: boolean;
  use_regex: boolean;
  pattern: RegExp;
  byte_encoder: Record<number, string>;
  pre_tokenize_text(text: string, options?: unknown): string[];
}

/** The library's pre-tokenizers are callable objects: functions with the class's prototype. */
function isByteLevel(value: unknown): value is ByteLevelPreTokenizer {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const candidate = value as Partial<ByteLevelPreTokenizer>;
  return candidate.config?.type === 'ByteLevel' && typeof candidate.pre_tokenize_text === 'function' && typeof candidate.byte_encoder === 'object' && candidate.pattern instanceof RegExp;
}

/** The pre-tokenizers a sequence holds, or none. */
function childrenOf(value: unknown): unknown[] {
  const tokenizers = (value as { tokenizers?: unknown } | null)?.tokenizers;
  return Array.isArray(tokenizers) ? tokenizers : [];
}

/** Routes every byte-level pre-tokenizer in `preTokenizer` (itself, or inside a sequence) to the mapping below. */
export function byteLevelFast(preTokenizer: unknown): void {
  if (isByteLevel(preTokenizer)) {
    const toBytes = byteLevelText(preTokenizer.byte_encoder);
    preTokenizer.pre_tokenize_text = (text: string): string[] => {
      const prefixed = preTokenizer.add_prefix_space && !text.startsWith(' ') ? ` ${text}` : text;
      const pieces = preTokenizer.use_regex ? (prefixed.match(preTokenizer.pattern) ?? []) : [prefixed];
      return pieces.map(toBytes);
    };
    return;
  }
  for (const child of childrenOf(preTokenizer)) byteLevelFast(child);
}

/** `piece` as byte-level text: each character's UTF-8 bytes written through `byteEncoder`, a byte a character. */
export function byteLevelText(byteEncoder: Record<number, string>): (piece: string) => string {
  const utf8 = new TextEncoder();
  const encodeSlowly = (text: string) => Array.from(utf8.encode(text), (byte) => byteEncoder[byte]).join('');
  // One entry per UTF-16 code unit outside the surrogates, filled as met; pairs are encoded each time (rare).
  const units: Array<string | undefined> = new Array(0x10000);
  return (piece) => {
    let out = '';
    for (let i = 0; i < piece.length; i++) {
      const unit = piece.charCodeAt(i);
      if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < piece.length) {
        const next = piece.charCodeAt(i + 1);
        if (next >= 0xdc00 && next <= 0xdfff) {
          out += encodeSlowly(piece.slice(i, i + 2));
          i++;
          continue;
        }
      }
      let text = units[unit];
      if (text === undefined) units[unit] = text = encodeSlowly(String.fromCharCode(unit));
      out += text;
    }
    return out;
  };
}
