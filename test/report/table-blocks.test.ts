import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ClassicLevel } from 'classic-level';
import { describe, expect } from 'vitest';
import { checkTable } from '../../src/store/disk/table-blocks.ts';
import { markFailingBlocks } from '../../src/store/disk/block-check.ts';
import { test } from '../fixtures.ts';

/** Text that Snappy shrinks (repeated words) but that differs per key, as the store's records do. */
function valueOf(i: number): string {
  return JSON.stringify({ key: i, text: `step ${i}: `.repeat(20) + 'x'.repeat(i % 97), score: i / 7 });
}

/** A LevelDB database in `dir` written and closed twice, so that its entries lie in table files (a close leaves them in the log; the next open moves the log into a table). Returns its table files. */
async function tableFiles(dir: string, entries: number): Promise<string[]> {
  const db = new ClassicLevel<string, string>(dir);
  await db.batch(Array.from({ length: entries }, (_, i) => ({ type: 'put' as const, key: String(i).padStart(6, '0'), value: valueOf(i) })));
  await db.close();
  const reopened = new ClassicLevel<string, string>(dir);
  await reopened.open();
  await reopened.close();
  return (await readdir(dir)).filter((name) => name.endsWith('.ldb')).map((name) => path.join(dir, name));
}

/** Reads every entry back through LevelDB: what it reads as whole. */
async function readBack(dir: string): Promise<{ entries: number; error: string | null }> {
  const db = new ClassicLevel<string, string>(dir);
  let entries = 0;
  try {
    for await (const [key, value] of db.iterator()) {
      if (value !== valueOf(Number(key))) return { entries, error: `entry ${key} reads back as other text` };
      entries++;
    }
    return { entries, error: null };
  } catch (error) {
    return { entries, error: (error as Error).message };
  } finally {
    await db.close();
  }
}

describe('every block of a LevelDB table is checked against its checksum', () => {
  test('a whole table passes; a byte flipped anywhere in its blocks, compressed data and index included, is named with the block it lies in', async ({ dir }) => {
    const [table] = await tableFiles(dir, 3000);
    const bytes = await readFile(table as string);
    expect(checkTable(bytes)).toEqual({ damage: null, failing: [] });
    // Every 61st byte, and every byte of the index and metaindex blocks and the footer's handles (the last 300 before the padding).
    const footer = bytes.length - 48;
    const positions = [...Array.from({ length: Math.ceil(footer / 61) }, (_, i) => i * 61), ...Array.from({ length: 300 }, (_, i) => footer - 300 + i), ...Array.from({ length: 8 }, (_, i) => footer + i)];
    const missed = positions.filter((at) => {
      const flipped = Buffer.from(bytes);
      flipped[at] = (flipped[at] as number) ^ 0x20;
      return checkTable(flipped).damage === null;
    });
    expect(missed).toEqual([]);
  });

  test('a flipped byte in a compressed block that LevelDB reads back as other text without an error is found; repair marking makes LevelDB refuse that block and keep the others', async ({ dir }) => {
    const [table] = await tableFiles(dir, 3000);
    const bytes = await readFile(table as string);
    // A byte whose flip LevelDB does not notice: it only parses blocks, and Snappy's literals hold text as it is.
    let silent: Buffer | null = null;
    for (let at = Math.floor(bytes.length / 2); at < bytes.length && silent === null; at += 37) {
      const flipped = Buffer.from(bytes);
      flipped[at] = (flipped[at] as number) ^ 0x01;
      await writeFile(table as string, flipped);
      const read = await readBack(dir);
      if (read.error !== null && /other text/.test(read.error)) silent = flipped;
    }
    expect(silent, 'no flip LevelDB reads back as other text').not.toBeNull();
    const check = checkTable(silent as Buffer);
    expect(check.damage).toMatch(/^the block at bytes \d+-\d+ fails its checksum$/);
    expect(check.failing).toHaveLength(1);

    expect(await markFailingBlocks(dir)).toEqual([`store/${path.basename(table as string)} (1 block)`]);
    const read = await readBack(dir);
    // LevelDB now refuses the marked block where it read it as other text before.
    expect(read.error).toMatch(/Corruption/);
  });
});
