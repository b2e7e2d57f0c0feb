/**
 * A Hugging Face tokenizer (`tokenizer.json`, with `tokenizer_config.json`
 * beside it when present, whose added and special tokens count as
 * transformers counts them: hf-config-tokens.ts) read from local disk, through the
 * `@huggingface/tokenizers` library: the model's own tokenizer for the
 * context budget (`--tokenizer-path`). Nothing is downloaded.
 *
 * A tokenizer is named in tasks as `hf:` + the absolute path of its
 * `tokenizer.json`, so the name alone tells a worker what to load.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { byteLevelFast } from './hf-byte-level.ts';
import { withConfigTokens } from './hf-config-tokens.ts';
import { mergeLongWordsFast } from './hf-long-words.ts';
import { wordPieceFast } from './hf-word-piece.ts';
import { unigramWithoutSpread } from './hf-unigram.ts';
import { modelProblem, withModelType } from './hf-model-check.ts';
import { readTokenizerText, tokenizerFileProblem } from './hf-tokenizer-file.ts';
import { nestedRepetition, regexPatterns } from './hf-regex-check.ts';

/** The prefix of a Hugging Face tokenizer's name in tasks and the manifest. */
export const HF_PREFIX = 'hf:';

/** True when a tokenizer name names a Hugging Face tokenizer file. */
export function isHfTokenizerName(name: string): boolean {
  return name.startsWith(HF_PREFIX);
}

/** The `tokenizer.json` a `--tokenizer-path` names: the file itself, or the one inside a directory. Null when there is none. */
export function tokenizerFileOf(given: string): string | null {
  const resolved = path.resolve(given);
  if (!existsSync(resolved)) return null;
  const file = statSync(resolved).isDirectory() ? path.join(resolved, 'tokenizer.json') : resolved;
  return existsSync(file) ? file : null;
}

/** The JSON object of a tokenizer file; throws naming the file when it is not one (JSON.parse's own message names none). */
function readJsonObject(file: string): Record<string, unknown> {
  const text = readTokenizerText(file);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SyntaxError(`${file} is not JSON: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new SyntaxError(`${file} holds no JSON object`);
  return json as Record<string, unknown>;
}

/** Reads a tokenizer and its config; throws with the file named when either is not JSON or not a tokenizer. */
export function loadHfTokenizer(file: string): Tokenizer {
  const problem = tokenizerFileProblem(file);
  if (problem !== null) throw new SyntaxError(problem);
  const read = readJsonObject(file);
  if (typeof read['model'] !== 'object' || read['model'] === null) throw new SyntaxError(`${file} has no "model": it is not a Hugging Face tokenizer.json`);
  const wrongModel = modelProblem(read);
  if (wrongModel !== null) throw new SyntaxError(`${file}: ${wrongModel}`);
  const json = withModelType(read);
  checkPatterns(file, json);
  checkModelSize(file, json['model'] as Record<string, unknown>);
  const configFile = path.join(path.dirname(file), 'tokenizer_config.json');
  const config = existsSync(configFile) ? readJsonObject(configFile) : {};
  const tokenizer = new Tokenizer(withConfigTokens(json, config), config);
  mergeLongWordsFast(tokenizer.model);
  wordPieceFast(tokenizer.model);
  unigramWithoutSpread(tokenizer.model);
  byteLevelFast(tokenizer.pre_tokenizer);
  return tokenizer;
}

/**
 * The most entries a model's vocabulary or merges may hold: a few times the
 * largest real ones (vocabularies of 262,144 tokens, half a million merges).
 * The library keys each merge by a JSON string in a Map, 2.2 s of CPU and
 * 560 MB of heap a million merges, in every pool thread; a file of 128 MiB
 * holds six million short ones, past a thread's heap.
 */
export const MAX_MODEL_ENTRIES = 1_000_000;

/** Throws naming `file` when its model's vocabulary or merges hold more entries than MAX_MODEL_ENTRIES. */
function checkModelSize(file: string, model: Record<string, unknown>): void {
  for (const field of ['vocab', 'merges']) {
    const value = model[field];
    const entries = Array.isArray(value) ? value.length : typeof value === 'object' && value !== null ? Object.keys(value).length : 0;
    if (entries > MAX_MODEL_ENTRIES) {
      throw new SyntaxError(`${file}: its model's ${field} holds ${entries.toLocaleString('en-US')} entries, more than any model's tokenizer (tmas loads at most ${MAX_MODEL_ENTRIES.toLocaleString('en-US')})`);
    }
  }
}

/** Throws naming `file` and the pattern when its normalizer or pre-tokenizer has one that backtracks without bound (hf-regex-check.ts). */
function checkPatterns(file: string, json: Record<string, unknown>): void {
  const patterns = [...regexPatterns(json['normalizer'], 'normalizer'), ...regexPatterns(json['pre_tokenizer'], 'pre_tokenizer')];
  for (const { pattern, where } of patterns) {
    const nested = nestedRepetition(pattern);
    if (nested === null) continue;
    throw new SyntaxError(
      `${file}: the ${where}'s pattern ${JSON.stringify(pattern)} repeats a repetition (${JSON.stringify(nested)}), which backtracks for hours on a run of characters it fails to match; no model's tokenizer splits so, and tmas does not load it`,
    );
  }
}

/**
 * Tokens of `text` as the library counts them, without the special tokens a
 * template would add (the per-message framing is counted apart).
 */
export function countHf(tokenizer: Tokenizer, text: string): number {
  return tokenizer.encode(text, { add_special_tokens: false }).ids.length;
}
