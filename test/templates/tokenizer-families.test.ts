/**
 * Tokenizers of other families than the three shipped ones (byte-level BPE):
 * SentencePiece-style BPE with byte fallback (a `Prepend`/`Replace`
 * normalizer as Llama 2's, a `Metaspace` pre-tokenizer as Mistral's), a
 * Unigram model under NFKC (as T5's and XLM's), WordPiece (as BERT's), each
 * with added tokens that strip the spaces beside them. Hand-written
 * vocabularies of real shape: tmas counts each as the library does. And
 * hostile files, refused when loaded rather than holding the run: a pattern
 * that backtracks for hours, a model of millions of merges.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { describe, expect } from 'vitest';
import { countHf, loadHfTokenizer } from '../../workers/hf-tokenizer.ts';
import { runCli, test } from '../fixtures.ts';

const LETTERS = [...'abcdefghijklmnopqrstuvwxyz'];

function added(id: number, content: string, strip = false) {
  return { id, content, single_word: false, lstrip: strip, rstrip: strip, normalized: false, special: true };
}

/** A SentencePiece-style vocabulary: specials, the 256 byte pieces, `▁` and letters, then what the merges make. */
function pieces(merges: string[]): Record<string, number> {
  const vocab: Record<string, number> = { '<unk>': 0, '<s>': 1, '</s>': 2 };
  const add = (piece: string) => (vocab[piece] ??= Object.keys(vocab).length);
  for (let byte = 0; byte < 256; byte++) add(`<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`);
  ['▁', ...LETTERS].forEach(add);
  merges.forEach((merge) => add(merge.replace(' ', '')));
  return vocab;
}

const MERGES = ['▁ t', 'h e', '▁t he', 'i n', '▁ a', 'a n', 'an d', '▁a nd', 'e r'];
const SPECIALS = [added(0, '<unk>'), added(1, '<s>'), added(2, '</s>'), added(3, '[INST]', true)];
const BPE = { type: 'BPE', dropout: null, unk_token: '<unk>', continuing_subword_prefix: null, end_of_word_suffix: null, fuse_unk: true, byte_fallback: true, ignore_merges: false };

const FAMILIES: Record<string, Record<string, unknown>> = {
  'Llama 2 (Prepend and Replace, byte fallback)': {
    added_tokens: SPECIALS,
    normalizer: { type: 'Sequence', normalizers: [{ type: 'Prepend', prepend: '▁' }, { type: 'Replace', pattern: { String: ' ' }, content: '▁' }] },
    pre_tokenizer: null,
    model: { ...BPE, vocab: pieces(MERGES), merges: MERGES },
  },
  'Mistral (Metaspace, merges as pairs)': {
    added_tokens: SPECIALS,
    normalizer: null,
    pre_tokenizer: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'first', split: false },
    model: { ...BPE, vocab: pieces(MERGES), merges: MERGES.map((merge) => merge.split(' ')) },
  },
  'T5 / XLM (Unigram under NFKC)': {
    added_tokens: [added(0, '<pad>'), added(1, '</s>'), added(2, '<unk>')],
    normalizer: { type: 'Sequence', normalizers: [{ type: 'NFKC' }, { type: 'Replace', pattern: { Regex: ' {2,}' }, content: ' ' }] },
    pre_tokenizer: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true },
    model: { type: 'Unigram', unk_id: 2, byte_fallback: false, vocab: [['<pad>', 0], ['</s>', 0], ['<unk>', 0], ['▁', -2], ['▁the', -3], ['▁and', -3.5], ['th', -4], ['▁a', -4.5], ...LETTERS.map((c, i) => [c, -5 - i / 10])] },
  },
  'BERT (WordPiece)': {
    added_tokens: [added(0, '[PAD]'), added(100, '[UNK]'), added(101, '[CLS]'), added(102, '[SEP]'), added(103, '[MASK]', true)],
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries([['[PAD]', 0], ['[UNK]', 100], ['[CLS]', 101], ['[SEP]', 102], ['[MASK]', 103], ['the', 104], ['cat', 105], ['##s', 106], ...LETTERS.map((c, i) => [c, 110 + i]), ...LETTERS.map((c, i) => [`##${c}`, 140 + i])]),
    },
  },
};

const TEXTS = ['the cat and the dog', 'Héllo wörld 😀 \\frac{a}{b}', '  two  spaces [INST]  x [MASK] y', 'ж的 x² ＡＢＣ ﬁ ½', 'the'.repeat(400), '😀'.repeat(300), '<s>the</s> and', ' '.repeat(300) + 'cats'];

/** A whole tokenizer.json of `parts`. */
function whole(parts: Record<string, unknown>): Record<string, unknown> {
  return { version: '1.0', post_processor: null, decoder: null, ...parts };
}

async function tokenizerIn(dir: string, parts: Record<string, unknown>): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, 'tokenizer.json');
  await writeFile(file, JSON.stringify(whole(parts)));
  return file;
}

describe('tokenizers of other families', () => {
  test.for(Object.entries(FAMILIES))('%s counts as the library does', async ([, json], { dir }) => {
    const file = await tokenizerIn(dir, json);
    const library = new Tokenizer(whole(json), {});
    const ours = loadHfTokenizer(file);
    for (const text of TEXTS) expect(countHf(ours, text), text.slice(0, 40)).toBe(library.encode(text, { add_special_tokens: false }).ids.length);
  });
});

describe('long words', () => {
  test('a Unigram model counts a word of 200,000 characters it cuts one by one, where the count failed with "Maximum call stack size exceeded"', async ({ dir }) => {
    // The library appended each word's tokens as arguments of one push(), and V8 takes about 120,000 of them.
    const json = FAMILIES['T5 / XLM (Unigram under NFKC)'] as Record<string, unknown>;
    const file = await tokenizerIn(dir, json);
    const ours = loadHfTokenizer(file);
    const library = new Tokenizer(whole(json), {});
    expect(countHf(ours, 'x'.repeat(100_000))).toBe(library.encode('x'.repeat(100_000), { add_special_tokens: false }).ids.length);
    expect(countHf(ours, 'x'.repeat(200_000))).toBe(200_001);
  });
});

describe('models the library would count wrong without a word', () => {
  test('a model without a type, of an unknown type, with a vocab of another shape is refused when loaded, naming the file', async ({ dir }) => {
    const llama2 = FAMILIES['Llama 2 (Prepend and Replace, byte fallback)'] as { model: Record<string, unknown> };
    // What each counted before: a word each as 1 token (no type nor the fields of one), as BPE (an unknown type); a Unigram vocab of a text, 1 token.
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ vocab: { a: 0 } }, 'its model has no "type" (one of BPE, WordPiece, WordLevel, Unigram) nor the fields of one'],
      [{ ...llama2.model, type: 'Fancy' }, 'its model\'s type "Fancy" is none the library counts with'],
      [{ ...llama2.model, vocab: [['a', 0]] }, 'its BPE vocab is not an object of tokens and their ids'],
      [{ type: 'Unigram', unk_id: 0, vocab: 'x' }, 'its Unigram vocab is not a list of [piece, score] pairs'],
      [{ type: 'Unigram', unk_id: 9, vocab: [['<unk>', 0], ['a', -1]] }, 'its unk_id 9 is no entry of its vocab (2 entries)'],
    ];
    for (const [index, [model, message]] of cases.entries()) {
      const file = await tokenizerIn(path.join(dir, `m${index}`), { ...llama2, model });
      expect(() => loadHfTokenizer(file), message).toThrow(`${file}: ${message}`);
    }
    const { code, stderr } = await runCli(['run', '--demo', '--output-file', path.join(dir, 'out'), '--tokenizer-path', path.join(dir, 'm0')]);
    expect(code, stderr).toBe(2);
    expect(stderr).toMatch(/m0\/tokenizer\.json: its model has no "type" .*\[TMAS_TOKENIZER\]/);
  });

  test.for(Object.entries(FAMILIES))('a file saved without the model\'s "type" (gpt2\'s, bert-base-uncased\'s, t5-small\'s on the Hub) loads and counts as the typed one: %s', async ([, json], { dir }) => {
    // Such files were refused as "saved by an old release", where main and Python's tokenizers read the type from the fields.
    const { type: _type, ...untyped } = json['model'] as Record<string, unknown>;
    const file = await tokenizerIn(dir, { ...json, model: untyped });
    const ours = loadHfTokenizer(file);
    const typed = new Tokenizer(whole(json), {});
    for (const text of TEXTS) expect(countHf(ours, text), text.slice(0, 40)).toBe(typed.encode(text, { add_special_tokens: false }).ids.length);
    // And through the same fast paths as the typed one: a long word of one letter (Unigram's overflowed the stack).
    expect(countHf(ours, 'x'.repeat(200_000))).toBe(countHf(loadHfTokenizer(await tokenizerIn(path.join(dir, 'typed'), json)), 'x'.repeat(200_000)));
  });
});

describe('hostile tokenizer files', () => {
  test('a pre-tokenizer pattern that repeats a repetition is refused when loaded, naming it; the run stops with exit 2 before anything is written', async ({ dir }) => {
    // `(.+)+x` tries 2^n ways on each line of n characters without an x: a question of 40 characters held the run for hours.
    const split = (pattern: string) => ({ type: 'Split', pattern: { Regex: pattern }, behavior: 'Isolated', invert: false });
    const json = { added_tokens: [], normalizer: null, pre_tokenizer: { type: 'Sequence', pretokenizers: [split('\\s+'), split('(.+)+x')] }, model: { type: 'WordLevel', vocab: { '[UNK]': 0 }, unk_token: '[UNK]' } };
    const file = await tokenizerIn(path.join(dir, 'model'), json);
    expect(() => loadHfTokenizer(file)).toThrow(`${file}: the pre_tokenizer's pattern "(.+)+x" repeats a repetition ("(.+)+")`);
    const output = path.join(dir, 'out');
    const { code, stderr } = await runCli(['run', '--demo', '--output-file', output, '--tokenizer-path', path.join(dir, 'model')]);
    expect(code, stderr).toBe(2);
    expect(stderr).toMatch(/pattern "\(\.\+\)\+x" repeats a repetition.*\[TMAS_TOKENIZER\]/);
    expect(existsSync(output)).toBe(false);
    // A normalizer's pattern too; the patterns of real tokenizers (repetitions of characters and classes) load.
    await tokenizerIn(path.join(dir, 'model'), { ...json, pre_tokenizer: null, normalizer: { type: 'Replace', pattern: { Regex: '(?:[a-z]+\\s?)*$' }, content: '' } });
    expect(() => loadHfTokenizer(file)).toThrow(/the normalizer's pattern .* repeats a repetition/);
    await tokenizerIn(path.join(dir, 'model'), { ...json, pre_tokenizer: split("(?i:'s|'t|'re)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+|(?:\\r?\\n)+") });
    expect(countHf(loadHfTokenizer(file), 'a'.repeat(60) + '!')).toBe(2);
  });

  test('the split patterns of real tokenizer families load and count as the library counts, a right-to-left digit split with its fixed-count lookahead among them', async ({ dir }) => {
    // `(?:\p{N}{3})*` repeats a fixed count, one way to share a run: it was refused as a repetition of a repetition.
    const split = (pattern: string) => ({ type: 'Split', pattern: { Regex: pattern }, behavior: 'Isolated', invert: false });
    const patterns = [
      "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+",
      "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
      ' ?[^(\\s|[.,!?…。，、।۔،])]+',
      '\\p{N}{1,3}(?=(?:\\p{N}{3})*(?:\\P{N}|$))',
      '(?=(\\d{3})+(?!\\d))',
      '(?:\\r?\\n)+|[ \\t]+',
    ];
    const vocab = { '[UNK]': 0 };
    for (const [index, pattern] of patterns.entries()) {
      const json = { added_tokens: [], normalizer: null, pre_tokenizer: { type: 'Sequence', pretokenizers: [split(pattern)] }, model: { type: 'WordLevel', vocab, unk_token: '[UNK]' } };
      const ours = loadHfTokenizer(await tokenizerIn(path.join(dir, `p${index}`), json));
      const library = new Tokenizer(whole(json), {});
      for (const text of ['1234567 and 89, 12345678901\n\n  x', "It's 3.14159 — ok?\r\nДа 的"]) expect(countHf(ours, text), `${pattern} on ${text}`).toBe(library.encode(text, { add_special_tokens: false }).ids.length);
    }
  });

  test('a WordPiece model that matches words of any length counts a long word in its longest token\'s time, as the library counts it', async ({ dir }) => {
    // BERT's limit is 100 characters a word (longer is [UNK]); raised, the library tried every end of the word at each place: 85 s for 2,000 digits, 12 s for these 1,500.
    const digits = Object.fromEntries(['[UNK]', ...'0123456789', '12', '123', '##0', '##1', '##2', '##3', '##4', '##5', '##6', '##7', '##8', '##9', '##23', '##45', '##456'].map((token, id) => [token, id]));
    const json = { added_tokens: [], normalizer: null, pre_tokenizer: { type: 'BertPreTokenizer' }, model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 1e9, vocab: digits } };
    const file = await tokenizerIn(dir, json);
    const ours = loadHfTokenizer(file);
    const library = new Tokenizer(whole(json), {});
    for (const text of ['123456 1234567890', '12'.repeat(100), '9876543210'.repeat(20), '45x6 1', '123 456'.repeat(30), '1234567890'.repeat(30)]) {
      expect(countHf(ours, text), text.slice(0, 20)).toBe(library.encode(text, { add_special_tokens: false }).ids.length);
    }
    const started = performance.now();
    expect(countHf(ours, '1234567890'.repeat(150))).toBe(1_049);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  test('a model of more than a million merges is refused when loaded (each pool thread spent seconds and gigabytes on it)', async ({ dir }) => {
    const merges = Array.from({ length: 1_000_001 }, (_, i) => `a${i} b`);
    const file = await tokenizerIn(dir, { added_tokens: [], normalizer: null, pre_tokenizer: null, model: { ...BPE, byte_fallback: false, vocab: pieces([]), merges } });
    expect(() => loadHfTokenizer(file)).toThrow(`${file}: its model's merges holds 1,000,001 entries, more than any model's tokenizer (tmas loads at most 1,000,000)`);
  });
});
