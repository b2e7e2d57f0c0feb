/**
 * Benchmark 5, deduplication at scale: a bank of 5,000 records and 200 new
 * ones (a quarter of them near-copies of bank records or of each other); the
 * time to decide which new ones are kept, and whether the decisions equal
 * brute-force exact Jaccard. Target ≤ 100 ms with the same decisions.
 */
import { createPool } from '../../src/pool/pool.ts';
import { decideKeeps, toShingles } from '../../workers/jaccard.worker.ts';
import { createRandom, randomWords } from './random-text.ts';
import type { Benchmark } from '../harness/types.ts';

const THRESHOLD = 0.7;

function makeBank(records: number, incoming: number): { existing: string[]; incoming: string[] } {
  const random = createRandom(5_000);
  const record = () => randomWords(random, 3_000, 25 + Math.floor(random() * 40));
  const existing = Array.from({ length: records }, record);
  const fresh: string[] = [];
  for (let i = 0; i < incoming; i++) {
    const copyOf = random() < 0.25 ? (random() < 0.5 ? existing[Math.floor(random() * existing.length)] : fresh[Math.floor(random() * Math.max(1, fresh.length))]) : undefined;
    // A near-copy: the source with a word or two changed at the end.
    fresh.push(copyOf === undefined ? record() : `${copyOf} ${randomWords(random, 3_000, 1 + Math.floor(random() * 3))}`);
  }
  return { existing, incoming: fresh };
}

/** Brute force: every incoming record against every kept one, on precomputed shingle sets. */
function exactKeeps(existing: string[], incoming: string[], threshold: number): boolean[] {
  const kept = existing.map((text) => toShingles(text));
  return incoming.map((text) => {
    const set = toShingles(text);
    for (const other of kept) {
      let shared = 0;
      for (const item of set) if (other.has(item)) shared += 1;
      const union = set.size + other.size - shared;
      if ((union === 0 ? 1 : shared / union) >= threshold) return false;
    }
    kept.push(set);
    return true;
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** The dedup benchmark. */
export const dedupBenchmark: Benchmark = {
  name: 'dedup',
  async run({ log }) {
    const { existing, incoming } = makeBank(5_000, 200);
    log('dedup: 5,000 records + 200 new');
    const input = { existing, incoming, threshold: THRESHOLD };
    const direct: number[] = [];
    let keep: boolean[] = [];
    for (let i = 0; i < 7; i++) {
      const started = performance.now();
      keep = decideKeeps(input);
      direct.push(performance.now() - started);
    }
    const pool = createPool({ threads: 1 });
    const pooled: number[] = [];
    try {
      await pool.dedup({ existing: ['warm up'], incoming: ['warm up'], threshold: THRESHOLD });
      for (let i = 0; i < 7; i++) {
        const started = performance.now();
        const output = await pool.dedup(input);
        pooled.push(performance.now() - started);
        if (output.keep.join() !== keep.join()) throw new Error('the pool and the main thread disagree');
      }
    } finally {
      await pool.close();
    }
    const exact = exactKeeps(existing, incoming, THRESHOLD);
    const same = exact.every((value, index) => value === keep[index]);
    const kept = keep.filter(Boolean).length;
    return [
      {
        figure: 'dedup: time to decide (5,000 + 200)',
        target: '≤ 100 ms',
        measured: `${median(pooled).toFixed(1)} ms in the pool (range ${Math.min(...pooled).toFixed(1)}–${Math.max(...pooled).toFixed(1)}); ${median(direct).toFixed(1)} ms in-thread`,
        pass: median(pooled) <= 100,
        note: `median of 7, pool time includes the transfer; ${kept} of 200 kept at θ = ${THRESHOLD}`,
      },
      { figure: 'dedup: decisions equal exact Jaccard', target: 'identical', measured: same ? 'identical' : 'DIFFERENT', pass: same },
    ];
  },
};
