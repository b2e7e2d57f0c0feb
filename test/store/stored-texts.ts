/**
 * Stores filled straight through their sublevels, as a store keeps records and
 * texts, for the tests of the check of every record (dangling-records.ts): a
 * text of any number of chunks, and a call record whose response is one.
 */
import type { CallRecord, Store } from '../../src/store/store.ts';
import { chunkDigest, textDigest } from '../../src/store/texts.ts';

/** Chunks written per batch. */
const CHUNK_BATCH = 10_000;

/** A journaled call under `key` whose response is the stored text `text`, as the store keeps it (the record, and where its text goes). */
export function storedCall(key: string, index: number, text: string): unknown {
  const record: CallRecord = {
    key,
    role: 'solution',
    problem: key.split('/')[0] as string,
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

/** Writes `chunks` and the text they make; returns the text's digest. */
export async function putText(store: Store, chunks: readonly string[]): Promise<string> {
  const digests = chunks.map(chunkDigest);
  for (let from = 0; from < chunks.length; from += CHUNK_BATCH) {
    await store.chunks().batch(chunks.slice(from, from + CHUNK_BATCH).map((chunk, i) => ({ type: 'put' as const, key: digests[from + i] as string, value: chunk })));
  }
  const text = textDigest(digests);
  await store.texts().put(text, digests);
  return text;
}
