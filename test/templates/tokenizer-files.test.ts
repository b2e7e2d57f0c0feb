/**
 * What `--tokenizer-path` is given that is not a tokenizer.json: a model's
 * GGUF weights, a SentencePiece model, a named pipe, a file in another
 * encoding than UTF-8, a damaged tokenizer_config.json. Each is refused with
 * TMAS_TOKENIZER naming the file and what to give instead, before a pool
 * thread reads it whole (or forever). Small hand-written tokenizers: the real
 * ones are counted in tokenizer-path.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, open, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { hfTokenizerName } from '../../src/pool/pool.ts';
import { lendPool } from '../../src/pool/shared-pool.ts';
import { runTokenizerAt } from '../../src/settings/files/tokenizer-file.ts';
import { countHf, loadHfTokenizer } from '../../workers/hf-tokenizer.ts';
import { runCli, test } from '../fixtures.ts';

/** A word-level tokenizer.json of a few words, `café` among them. */
const WORDS = JSON.stringify({
  version: '1.0',
  added_tokens: [],
  normalizer: null,
  pre_tokenizer: { type: 'WhitespaceSplit' },
  post_processor: null,
  decoder: null,
  model: { type: 'WordLevel', vocab: { '[UNK]': 0, café: 1, au: 2, lait: 3 }, unk_token: '[UNK]' },
});

/** A sparse file of `size` bytes that begins with `head`: gigabytes that take no disk. */
async function sparseFile(file: string, head: string, size: number): Promise<void> {
  const handle = await open(file, 'w');
  await handle.write(head, 0, 'latin1');
  await handle.truncate(size);
  await handle.close();
}

function refusal(given: string): string {
  try {
    hfTokenizerName(given);
  } catch (error) {
    expect((error as { code?: string }).code).toBe('TMAS_TOKENIZER');
    return (error as Error).message;
  }
  throw new Error(`${given} was accepted`);
}

describe('--tokenizer-path given something else than a tokenizer.json', () => {
  test('GGUF weights of 6 GiB are refused from their size and first bytes, as a coded user error (exit 2), not read', async ({ dir }) => {
    const gguf = path.join(dir, 'model-Q4_K_M.gguf');
    await sparseFile(gguf, 'GGUF\x03\x00\x00\x00', 6 * 2 ** 30);
    expect(refusal(gguf)).toMatch(/model-Q4_K_M\.gguf is 6144 MiB, a GGUF model file; .*give the Hugging Face model directory that holds the model's tokenizer\.json/);
    // A directory that holds only the weights says so.
    expect(refusal(dir)).toMatch(/No tokenizer\.json at .*It holds model-Q4_K_M\.gguf, a GGUF model file/);
    // The run: before, the digest read the file (an internal error past 2 GiB, exit 1; below, gigabytes per pool thread).
    const output = path.join(dir, 'out');
    const { code, stderr } = await runCli(['run', '--demo', '--output-file', output, '--tokenizer-path', gguf]);
    expect(code, stderr).toBe(2);
    expect(stderr).toContain('TMAS_TOKENIZER');
    expect(existsSync(output)).toBe(false);
  });

  test('a SentencePiece model, given as a file or as the only tokenizer of a directory, is named as one', async ({ dir }) => {
    const model = path.join(dir, 'tokenizer.model');
    await writeFile(model, Buffer.from([0x0a, 0x0b, 0x0a, 0x05, 0x3c, 0x75, 0x6e, 0x6b, 0x3e]));
    expect(refusal(model)).toMatch(/tokenizer\.model is not JSON: it looks like a SentencePiece model/);
    expect(refusal(dir)).toMatch(/It holds tokenizer\.model, a SentencePiece model, .*save_pretrained/);
  });

  test.skipIf(process.platform === 'win32')('a named pipe where tokenizer.json should be is refused rather than read forever', async ({ dir }) => {
    execFileSync('mkfifo', [path.join(dir, 'tokenizer.json')]);
    expect(refusal(dir)).toMatch(/tokenizer\.json is not a regular file/);
  });

  test('a tokenizer.json that is not UTF-8 is refused (read leniently, its non-ASCII tokens became U+FFFD and counted wrong); a byte-order mark is dropped', async ({ dir }) => {
    const file = path.join(dir, 'tokenizer.json');
    await writeFile(file, Buffer.from(WORDS, 'latin1'));
    expect(() => loadHfTokenizer(file)).toThrow(`${file} is not UTF-8 text`);
    await writeFile(file, `\uFEFF${WORDS}`);
    expect(countHf(loadHfTokenizer(file), 'café au lait')).toBe(3);
    expect(loadHfTokenizer(file).encode('café', { add_special_tokens: false }).ids).toEqual([1]);
  });

  test('a damaged tokenizer_config.json is named, not the tokenizer.json beside it', async ({ dir }) => {
    const file = path.join(dir, 'tokenizer.json');
    await writeFile(file, WORDS);
    await writeFile(path.join(dir, 'tokenizer_config.json'), '{"chat_template": "{{ x }}",');
    expect(() => loadHfTokenizer(file)).toThrow(`${path.join(dir, 'tokenizer_config.json')} is not JSON`);
  });

  test('tokens that tokenizer_config.json adds (added_tokens_decoder, special tokens) count as one each, as transformers loads them', async ({ dir }) => {
    const file = path.join(dir, 'tokenizer.json');
    // Character pieces: a token the config adds is one where its text alone would be many.
    const letters = Object.fromEntries([...'[UNK]<>/abdefgiklnorstu_|'].map((c, i) => [c, i]));
    await writeFile(file, JSON.stringify({ ...JSON.parse(WORDS), pre_tokenizer: { type: 'Split', pattern: { Regex: '.' }, behavior: 'Isolated', invert: false }, model: { type: 'WordLevel', vocab: letters, unk_token: '[UNK]' } }));
    const text = 'a<tool>b</tool><|end|>';
    expect(countHf(loadHfTokenizer(file), text)).toBe(text.length);
    await writeFile(
      path.join(dir, 'tokenizer_config.json'),
      JSON.stringify({ added_tokens_decoder: { 40: { content: '<tool>', special: false }, 41: { content: '</tool>', special: false } }, eos_token: { __type: 'AddedToken', content: '<|end|>' } }),
    );
    expect(countHf(loadHfTokenizer(file), text)).toBe(5);
  });

  test.skipIf(process.platform === 'win32')('a tokenizer_config.json replaced by a pipe is refused by the digest, not read forever', async ({ dir }) => {
    const tokenizer = path.join(dir, 'model');
    await mkdir(tokenizer);
    await writeFile(path.join(tokenizer, 'tokenizer.json'), WORDS);
    execFileSync('mkfifo', [path.join(tokenizer, 'tokenizer_config.json')]);
    expect(() => runTokenizerAt(tokenizer)).toThrow(/tokenizer_config\.json is not a regular file/);
  });

  test('the runs of one process share the pool of a tokenizer file while it holds what it held; edited in place, the next run counts with the edit', async ({ dir }) => {
    const tokenizer = path.join(dir, 'model');
    await mkdir(tokenizer);
    const file = path.join(tokenizer, 'tokenizer.json');
    await writeFile(file, WORDS);
    const countWith = async (at: { tokenizer: string; tokenizerDigest: string }) => {
      const pool = lendPool({ encoding: at.tokenizer, digest: at.tokenizerDigest });
      try {
        return await pool.countTokens(['café au lait']);
      } finally {
        await pool.close();
      }
    };
    const words = runTokenizerAt(tokenizer);
    expect(await countWith(words)).toEqual([3]);
    // The same file, now one token per character: another digest, and a pool that loads what the file holds now.
    await writeFile(file, JSON.stringify({ ...JSON.parse(WORDS), pre_tokenizer: { type: 'Split', pattern: { Regex: '.' }, behavior: 'Isolated', invert: false } }));
    const characters = runTokenizerAt(tokenizer);
    expect(characters.tokenizerDigest).not.toBe(words.tokenizerDigest);
    expect(await countWith(characters)).toEqual(['café au lait'.length]);
  });
});
