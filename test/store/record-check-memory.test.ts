/**
 * The check a resume, a replay, a fork and a repair make of every record (that
 * each text it refers to is held whole) holds a bounded memory, whatever the
 * store holds. Before, it read every chunk and text digest of the store into
 * two sets first: about 100 bytes per distinct digest, some 8% of the distinct
 * text a run wrote, a gigabyte for 500,000 calls of 8,000-token replies.
 *
 * What the check holds is measured as it grows with the store, between a store
 * of 100,000 chunks and the same store doubled: what it holds whatever the
 * store (compiled code, a batch of records, the bounded sets) cancels out, and
 * so does the share of the process's heap that other work on a loaded machine
 * leaves live, where one reading against a fixed bound (8 MB against 4.1 MB
 * measured) had only that margin. The old check grew by 10.6 MB there, this one by under 0.1 MB.
 */
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { expect } from 'vitest';
import { Store } from '../../src/store/store.ts';
import { chunkDigest, textDigest } from '../../src/store/texts.ts';
import { test } from '../fixtures.ts';
import { putText, storedCall } from './stored-texts.ts';

/** Call records added each time, each referring to one text of this many chunks: 100,000 distinct chunks. */
const RECORDS = 1000;
const CHUNKS_PER_TEXT = 100;

/** The shortest time between two samples of the heap. */
const MIN_SAMPLE_MS = 50;
/** Samples are spaced at this many times what a full collection took, so that collecting takes a tenth of the time at most. */
const GC_SHARE = 10;
/** The growth allowed: well under the old check's 10.6 MB per 100,000 chunks, well over the noise of sampling. */
const GROWTH_LIMIT = 4 * 2 ** 20;

/** Adds RECORDS calls from `first` on, each with a text of its own. */
async function fill(store: Store, first: number): Promise<void> {
  for (let record = first; record < first + RECORDS; record++) {
    const text = await putText(store, Array.from({ length: CHUNKS_PER_TEXT }, (_, i) => `chunk ${record}.${i}`));
    await store.calls().put(`p1/0/solution/${record}/k`, storedCall(`p1/0/solution/${record}/k`, record, text));
  }
}

/**
 * The most heap the check holds above what was live before it, sampled as it goes, each sample after a full
 * collection. Samples are spaced at ten times what the last collection took: in a test fork that kept a large heap
 * from earlier files (vitest's isolate: false), a collection every 50 ms took most of the time, and the test ran
 * 20 times longer in the suite (past its timeout) than alone.
 */
async function heldByCheck(store: Store, gc: () => void): Promise<number> {
  gc();
  const before = process.memoryUsage().heapUsed;
  let held = 0;
  let timer: NodeJS.Timeout | undefined;
  const sample = () => {
    const started = performance.now();
    gc();
    held = Math.max(held, process.memoryUsage().heapUsed - before);
    timer = setTimeout(sample, Math.max(MIN_SAMPLE_MS, GC_SHARE * (performance.now() - started)));
  };
  timer = setTimeout(sample, MIN_SAMPLE_MS);
  try {
    expect(await store.danglingRecords()).toEqual([]);
  } finally {
    clearTimeout(timer);
  }
  return held;
}

test('the check that every record reads back holds no more for a store twice as large (before: 10.6 MB more per 100,000 chunks)', async ({ dir }) => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const store = await Store.open(dir, { create: true });
  try {
    await fill(store, 0);
    const small = await heldByCheck(store, gc);
    await fill(store, RECORDS);
    const large = await heldByCheck(store, gc);
    expect(large - small, `held ${small} bytes on ${RECORDS * CHUNKS_PER_TEXT} chunks, ${large} on twice as many`).toBeLessThan(GROWTH_LIMIT);

    // Still found: a record whose text lost a chunk.
    await store.chunks().del(chunkDigest('chunk 7.42'));
    expect(await store.danglingRecords()).toEqual([`call record p1/0/solution/7/k (text ${textDigest(Array.from({ length: CHUNKS_PER_TEXT }, (_, i) => chunkDigest(`chunk 7.${i}`)))})`]);
  } finally {
    await store.close();
  }
}, 120_000);
