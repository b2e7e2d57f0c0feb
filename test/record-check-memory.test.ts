/**
 * The check a resume, a replay, a fork and a repair make of every record (that
 * each text it refers to is held whole) holds a bounded memory, whatever the
 * store holds. Before, it read every chunk and text digest of the store into
 * two sets first: about 100 bytes per distinct digest, some 8% of the distinct
 * text a run wrote, a gigabyte for 500,000 calls of 8,000-token replies.
 */
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { expect } from 'vitest';
import { Store, type CallRecord } from '../src/store/store.ts';
import { chunkDigest, textDigest } from '../src/store/texts.ts';
import { test } from './fixtures.ts';

/** Call records, each referring to one text of this many chunks: 200,000 distinct chunks in all. */
const RECORDS = 2000;
const CHUNKS_PER_TEXT = 100;

/** A journaled call whose response is a text of the store, as a store keeps it: the record, and where its text goes. */
function storedCall(index: number, text: string): unknown {
  const record: CallRecord = {
    key: `p1/0/solution/${index}/k`,
    role: 'solution',
    problem: 'p1',
    iteration: 0,
    index,
    request: { baseUrl: 'http://sim', model: 'm', messages: [{ role: 'user', content: 'Q?' }], maxTokens: 100, temperature: null, seed: index },
    fit: { promptTokens: 10, dropped: [] },
    response: { content: '', reasoning: null, finishReason: 'stop' },
    usage: { promptTokens: 10, completionTokens: 10 },
    timings: { startedAt: 0, latencyMs: 1 },
    attempts: 1,
  };
  return [record, [[['response', 'content'], text]]];
}

/** Writes RECORDS calls and their texts' chunks straight into the store's sublevels (a chunk's size does not matter to the check, its count does). */
async function fill(store: Store): Promise<void> {
  for (let record = 0; record < RECORDS; record++) {
    const chunks = Array.from({ length: CHUNKS_PER_TEXT }, (_, i) => `chunk ${record}.${i}`);
    const digests = chunks.map(chunkDigest);
    await store.chunks().batch(chunks.map((chunk, i) => ({ type: 'put' as const, key: digests[i] as string, value: chunk })));
    const text = textDigest(digests);
    await store.texts().put(text, digests);
    await store.calls().put(`p1/0/solution/${record}/k`, storedCall(record, text));
  }
}

test('the check that every record reads back holds under 8 MB while it reads 200,000 chunks (before: every digest in two sets, some 20 MB)', async ({ dir }) => {
  const store = await Store.open(dir, { create: true });
  try {
    await fill(store);
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    const before = process.memoryUsage().heapUsed;
    let held = 0;
    // What the check holds, sampled as it goes: each sample collects what it no longer refers to first.
    const sampler = setInterval(() => {
      gc();
      held = Math.max(held, process.memoryUsage().heapUsed - before);
    }, 50);
    let dangling: string[];
    try {
      dangling = await store.danglingRecords();
    } finally {
      clearInterval(sampler);
    }
    expect(dangling).toEqual([]);
    expect(held).toBeLessThan(8 * 2 ** 20);

    // Still found: a record whose text lost a chunk.
    await store.chunks().del(chunkDigest('chunk 7.42'));
    expect(await store.danglingRecords()).toEqual([`call record p1/0/solution/7/k (text ${textDigest(Array.from({ length: CHUNKS_PER_TEXT }, (_, i) => chunkDigest(`chunk 7.${i}`)))})`]);
  } finally {
    await store.close();
  }
});
