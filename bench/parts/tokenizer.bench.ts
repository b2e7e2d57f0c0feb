/**
 * Benchmark 6, tokenizer: tokens per second counted on the main thread
 * against the pool, how the pool scales from 1 to 2 threads, and how long
 * the pool takes to count one unbroken 10 MB line (a reply that repeats one
 * character, or a whole reply on one line).
 */
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { createPool } from '../../src/pool/pool.ts';
import { countText, getEncoding } from '../../workers/tokenize.worker.ts';
import { createRandom, randomWords } from './random-text.ts';
import type { Benchmark, BenchRow } from '../harness/types.ts';

function makeTexts(chunks: number, words: number): string[] {
  const random = createRandom(6);
  // Prose-like: words, numbers and LaTeX, as the prompts carry.
  return Array.from({ length: chunks }, (_, i) => `Step ${i}: ${randomWords(random, 5_000, words)} so $x^{${i}} + \\frac{1}{${i + 2}}$ holds.`);
}

/** Characters of the long lines: 10 MB of ASCII. */
const LONG_LINE_CHARS = 10 * 2 ** 20;
const REPEATED = 'one character repeated';

/**
 * The pool's time to count 10 MB on one line: one character repeated (one
 * unbroken piece of the byte-pair merge, the worst case: quadratic before,
 * 18 s for 40,000 characters) and prose with no line break. Each text is
 * counted once on a warm thread, so no chunk of it is cached.
 */
async function longLineRows(log: (line: string) => void): Promise<BenchRow[]> {
  const random = createRandom(7);
  const texts = [
    { name: REPEATED, text: 'a'.repeat(LONG_LINE_CHARS) },
    { name: 'prose without a line break', text: randomWords(random, 50_000, LONG_LINE_CHARS / 6).slice(0, LONG_LINE_CHARS) },
  ];
  const pool = createPool({ threads: 1 });
  const rows: BenchRow[] = [];
  try {
    await pool.countTokens(['warm up']);
    for (const { name, text } of texts) {
      log(`tokenizer: counting 10 MB on one line, ${name}`);
      const started = performance.now();
      const [tokens] = await pool.countTokens([text]);
      const seconds = (performance.now() - started) / 1000;
      // The repeated character is the case that was quadratic; prose on one line is counted chunk by chunk, at the pool's rate above.
      const target = name === REPEATED ? '< 1 s' : '—';
      rows.push({ figure: `tokenizer: pool, 10 MB on one line, ${name}`, target, measured: `${seconds.toFixed(2)} s`, pass: target === '—' ? null : seconds < 1, note: `${tokens} tokens, o200k_base, the text's transfer to the thread included` });
    }
  } finally {
    await pool.close();
  }
  return rows;
}

/** The tokenizer benchmark. */
export const tokenizerBenchmark: Benchmark = {
  name: 'tokenizer',
  async run({ quick, log }) {
    const texts = makeTexts(quick ? 32 : 96, 4_000);
    log(`tokenizer: ${texts.length} texts of ~4,000 words`);
    const encoding = await getEncoding('o200k_base');
    const encoder = new Tiktoken(o200k);
    let started = performance.now();
    let tokens = 0;
    for (const text of texts) tokens += encoder.encode(text, [], []).length;
    const encodeRate = tokens / ((performance.now() - started) / 1000);
    countText(encoding, texts[0] ?? '');
    started = performance.now();
    tokens = 0;
    for (const text of texts) tokens += countText(encoding, text);
    const mainRate = tokens / ((performance.now() - started) / 1000);
    const rows: BenchRow[] = [
      { figure: 'tokenizer: main thread, js-tiktoken encode', target: '—', measured: `${(encodeRate / 1e6).toFixed(2)} M tokens/s`, pass: null, note: `${tokens} tokens, o200k_base` },
      { figure: 'tokenizer: main thread, counted by chunk (as the pool does)', target: '—', measured: `${(mainRate / 1e6).toFixed(2)} M tokens/s`, pass: null, note: 'each distinct word, number or punctuation run is encoded once per thread; these texts draw on 5,000 words, prompts on fewer' },
    ];
    for (const threads of [1, 2]) {
      const pool = createPool({ threads });
      try {
        // Warm every thread: each loads its own ranks.
        await Promise.all(Array.from({ length: threads * 2 }, () => pool.countTokens(['warm up'])));
        started = performance.now();
        const counts = await Promise.all(texts.map((text) => pool.countTokens([text])));
        const rate = counts.flat().reduce((sum, n) => sum + n, 0) / ((performance.now() - started) / 1000);
        rows.push({ figure: `tokenizer: pool, ${threads} thread${threads > 1 ? 's' : ''}`, target: '—', measured: `${(rate / 1e6).toFixed(2)} M tokens/s (${((rate / mainRate) * 100).toFixed(0)}% of main thread)`, pass: null, note: threads === 2 ? 'this machine has 2 cores, shared with the runtime and other processes' : undefined });
      } finally {
        await pool.close();
      }
    }
    rows.push(...(await longLineRows(log)));
    return rows;
  },
};
