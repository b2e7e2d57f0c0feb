import path from 'node:path';
import { describe, expect } from 'vitest';
import type { Envelope } from '../../src/kernel/protocol.ts';
import { createPool } from '../../src/pool/pool.ts';
import { Store } from '../../src/store/store.ts';
import { test } from '../fixtures.ts';

function envelope(seq: number, extra: Record<string, unknown> = {}): Envelope {
  return { seq, at: 0, from: 'run', to: 'p1', message: { type: 'problem.started', problem: 'p1', ...extra } } as unknown as Envelope;
}

async function logged(runDir: string): Promise<number[]> {
  const store = await Store.open(runDir);
  try {
    const seqs: number[] = [];
    for await (const value of store.envelopes()) seqs.push(value.seq);
    return seqs;
  } finally {
    await store.close();
  }
}

describe('the store writer', () => {
  test('writes every message when batches are cut by size and by count over many event-loop turns', async ({ dir }) => {
    const runDir = path.join(dir, 'run');
    const store = await Store.open(runDir, { create: true });
    // Large and small messages mixed, so that batches are cut by size and by count.
    for (let seq = 0; seq < 2000; seq++) store.logMessage(envelope(seq, seq % 100 === 0 ? { text: 'x'.repeat(300_000) } : {}));
    await store.flushed();
    await store.close();
    expect(await logged(runDir)).toEqual(Array.from({ length: 2000 }, (_, seq) => seq));
  });

  test('a message that cannot be stored stops the log there: what came before is on disk, nothing after it', async ({ dir }) => {
    const runDir = path.join(dir, 'run');
    const store = await Store.open(runDir, { create: true });
    store.logMessage(envelope(0));
    store.logMessage(envelope(1));
    await store.flushed();
    store.logMessage(envelope(2));
    store.logMessage(envelope(3, { count: 1n }));
    store.logMessage(envelope(4));
    await expect(store.flushed()).rejects.toThrow(/BigInt/);
    await expect(store.failed).rejects.toThrow(/BigInt/);
    await store.close();
    expect(await logged(runDir)).toEqual([0, 1, 2]);
  });

  test('large values encoded on a pool thread read back exactly, in order with the small ones', async ({ dir }) => {
    const runDir = path.join(dir, 'run');
    const pool = createPool({ threads: 1 });
    const texts = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? `∀ε>0 — 数学 😀 "${i}"\n`.repeat(20_000) : `plain ${i}`));
    try {
      const store = await Store.open(runDir, { create: true });
      store.encodeWith((value) => pool.encodeJson(value));
      texts.forEach((text, seq) => store.logMessage(envelope(seq, { text })));
      await store.flushed();
      await store.close();
    } finally {
      await pool.close();
    }
    const store = await Store.open(runDir);
    try {
      const read: unknown[] = [];
      for await (const value of store.envelopes()) read.push((value.message as unknown as { text: string }).text);
      expect(read).toEqual(texts);
    } finally {
      await store.close();
    }
  });
});
