/**
 * The check a resume, a replay, a fork and a repair make of every record holds
 * a bounded memory of the chunks it found whole, so a chunk shared by texts is
 * read once. A chunk found whole earlier and then pushed out of that memory by
 * the many chunks of a later text was taken for missing: a whole record was
 * reported damaged (TMAS_STORE_DAMAGED), and `tmas repair` deleted it.
 */
import { expect } from 'vitest';
import { Store } from '../../src/store/store.ts';
import { chunkDigest } from '../../src/store/texts.ts';
import { test } from '../fixtures.ts';
import { putText, storedCall } from './stored-texts.ts';

/** More new chunks than two turns of the memory of chunks found whole (2^17 digests): enough to push out one found before. */
const NEW_CHUNKS = 270_000;

/** The records a batch of the check reads (dangling-records.ts): those before the last fill the first batch. */
const FIRST_BATCH = 256;

test('a record whose text shares a chunk found whole in an earlier batch is whole, however many new chunks come with it', async ({ dir }) => {
  const store = await Store.open(dir, { create: true });
  try {
    // The first batch: records whose text is one chunk, found whole there.
    const small = await putText(store, ['shared chunk']);
    for (let index = 0; index < FIRST_BATCH; index++) await store.calls().put(`p1/0/solution/${index}/k`, storedCall(`p1/0/solution/${index}/k`, index, small));
    // A later record's text: that chunk, then more new ones than the memory holds.
    const large = await putText(store, ['shared chunk', ...Array.from({ length: NEW_CHUNKS }, (_, i) => `chunk ${i}`)]);
    await store.calls().put('p2/0/solution/0/k', storedCall('p2/0/solution/0/k', 0, large));

    expect(await store.danglingRecords()).toEqual([]);
    // And a lost chunk is still found.
    await store.chunks().del(chunkDigest('chunk 12345'));
    expect(await store.danglingRecords()).toEqual([`call record p2/0/solution/0/k (text ${large})`]);
  } finally {
    await store.close();
  }
}, 120_000);
