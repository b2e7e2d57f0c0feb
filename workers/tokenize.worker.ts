/**
 * Token counting and prompt fitting with js-tiktoken (docs/concepts/context-budget.md).
 *
 * Pure functions run by the pool: the only I/O is loading an encoding's ranks,
 * lazily and once per thread, for the encoding a task names.
 */
import type { TiktokenBPE } from 'js-tiktoken/lite';
import type { Tokenizer } from '@huggingface/tokenizers';
import { createBpeCounter, type BpeCounter } from './bpe.ts';
import { countHf, HF_PREFIX, isHfTokenizerName, loadHfTokenizer } from './hf-tokenizer.ts';
import { countGuarded } from './regex-overflow.ts';
import { fitPrompt } from './fit-prompt.ts';
import type { CountTask, EncodingName, FitOutput, FitTask } from './tasks.ts';

/**
 * Tokens counted per chat message for its framing (role markers, separators).
 * Chat templates differ by model, and the server counts a little more than
 * this for some: rendered through their own templates, Qwen3's prompts are
 * 4-5 tokens longer, Llama 3's 6-7 (its begin-of-text and the reply's
 * opening), DeepSeek-V3's 1-5 shorter; a template that writes a default system
 * text (a date line, a model's name) adds a few tens. The completion limit
 * leaves CONTEXT_MARGIN (256) of the window for that difference, so a request
 * is never longer than the window (test/templates/tokenizer-path.test.ts renders each
 * shipped tokenizer's template).
 */
export const MESSAGE_OVERHEAD_TOKENS = 4;

// Each rank file is megabytes of source: import only the one a task asks for.
const RANKS = {
  o200k_base: () => import('js-tiktoken/ranks/o200k_base'),
  cl100k_base: () => import('js-tiktoken/ranks/cl100k_base'),
  p50k_base: () => import('js-tiktoken/ranks/p50k_base'),
} satisfies Record<EncodingName, () => Promise<{ default: TiktokenBPE }>>;

/**
 * An encoding as this thread counts with it. tiktoken splits a text into
 * chunks with the encoding's regex (words, numbers, punctuation runs, spaces)
 * and byte-pair-encodes each chunk on its own, so a text's token count is the
 * sum of its chunks' counts. Words repeat, so each distinct chunk is encoded
 * once and its count kept: on prompts this skips most of the byte-pair merging
 * and UTF-8 encoding that dominated the pool's profile.
 *
 * Exact, not an estimate: a chunk matched on its own is again one whole chunk
 * (the pattern's only lookahead, `\s+(?!\S)`, succeeds at the end of a string,
 * so no earlier alternative or shorter match can win), so encoding it alone
 * gives the tokens it has inside the text.
 */
export interface Encoding {
  encoder: BpeCounter;
  chunks: RegExp;
  chunkTokens: Map<string, number>;
  /** Characters of the chunks `chunkTokens` holds. */
  cachedChars: number;
}

/** A model's own tokenizer (`--tokenizer-path`): counted whole by its library, since its pre-tokenizer and normalizer differ by model. */
interface HfEncoding {
  hf: Tokenizer;
}

/** Distinct chunks whose counts a thread keeps per encoding; the map starts over when full. */
const CHUNK_CACHE_ENTRIES = 200_000;
/**
 * Characters of those chunks, at most: one unbroken chunk can be megabytes
 * (a model repeating one character), and a cache of entries alone could hold
 * gigabytes of them. A chunk longer than this is counted each time.
 */
const CHUNK_CACHE_CHARS = 16 * 2 ** 20;

const encodings = new Map<string, Promise<Encoding | HfEncoding>>();

function isEncodingName(name: string): name is EncodingName {
  return Object.hasOwn(RANKS, name);
}

/** The tiktoken encoding `name`, built once per thread. */
export async function getEncoding(name: EncodingName): Promise<Encoding> {
  const encoding = await getCounter(name);
  if ('hf' in encoding) throw new TypeError(`"${name}" is not a tiktoken encoding`);
  return encoding;
}

/** The encoding `name` (a tiktoken name, or `hf:` + a tokenizer.json path), built once per thread. */
function getCounter(name: string): Promise<Encoding | HfEncoding> {
  let encoding = encodings.get(name);
  if (encoding === undefined) {
    if (isHfTokenizerName(name)) {
      encoding = Promise.resolve().then(() => ({ hf: loadHfTokenizer(name.slice(HF_PREFIX.length)) }));
      encodings.set(name, encoding);
      return encoding;
    }
    if (!isEncodingName(name)) {
      // The pool client checks names before dispatch; reaching this is a bug.
      throw new TypeError(`unknown encoding "${name}"`);
    }
    encoding = RANKS[name]().then(({ default: ranks }) => ({
      encoder: createBpeCounter(ranks),
      chunks: new RegExp(ranks.pat_str, 'gu'),
      chunkTokens: new Map<string, number>(),
      cachedChars: 0,
    }));
    encodings.set(name, encoding);
  }
  return encoding;
}

/**
 * Tokens of `text` as plain text. Special-token strings such as `<|endoftext|>`
 * count as ordinary text: prompts quote model output, and a count must not throw.
 * Linear in the length of the text, however long its unbroken runs (bpe-merge.ts,
 * regex-overflow.ts).
 */
export function countText(encoding: Encoding | HfEncoding, text: string): number {
  if ('hf' in encoding) return countGuarded((part) => countHf(encoding.hf, part), text);
  return countGuarded((part) => countChunks(encoding, part), text);
}

/** Tokens of `text`: the sum of its chunks' tokens. */
function countChunks(encoding: Encoding, text: string): number {
  const { encoder, chunks, chunkTokens } = encoding;
  let tokens = 0;
  for (const [chunk] of text.matchAll(chunks)) {
    let count = chunkTokens.get(chunk);
    if (count === undefined) {
      count = encoder.countChunk(chunk);
      if (chunk.length <= CHUNK_CACHE_CHARS) {
        if (chunkTokens.size >= CHUNK_CACHE_ENTRIES || encoding.cachedChars + chunk.length > CHUNK_CACHE_CHARS) {
          chunkTokens.clear();
          encoding.cachedChars = 0;
        }
        chunkTokens.set(chunk, count);
        encoding.cachedChars += chunk.length;
      }
    }
    tokens += count;
  }
  return tokens;
}

/** Prompt tokens outside the user text: the system message (sent only when non-empty) and both messages' framing. */
function framingTokens(encoding: Encoding | HfEncoding, system: string): number {
  const systemTokens = system === '' ? 0 : countText(encoding, system) + MESSAGE_OVERHEAD_TOKENS;
  return systemTokens + MESSAGE_OVERHEAD_TOKENS;
}

/** The `count` task: tokens of each text. */
export async function count(task: CountTask): Promise<number[]> {
  const encoding = await getCounter(task.encoding);
  return task.texts.map((text) => countText(encoding, text));
}

/**
 * The `fit` task: the prompt fitted to `budget` tokens (fit-prompt.ts), a text part with a token bound
 * (the judge's view) cut to it, or to less when the window leaves less (shorten-values.ts).
 */
export async function fit(task: FitTask): Promise<FitOutput> {
  const encoding = await getCounter(task.encoding);
  const counter = (text: string) => countText(encoding, text);
  return fitPrompt(task, { count: counter, framing: (system) => framingTokens(encoding, system) });
}
