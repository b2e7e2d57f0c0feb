/**
 * Texts of one unbroken piece each, longer than a word (33 to 600 bytes), that
 * the pool merges through its queues (workers/bpe-merge.ts), and what
 * js-tiktoken counts for them in three encodings. js-tiktoken rescans every
 * pair after each join: its counts of these 120 texts took 12 s of the 14 s
 * the test ran, every run of the suite, for the same numbers each time. They
 * are kept in test/fixtures/tiktoken-long-pieces.json under a digest of the
 * texts, written from js-tiktoken when the file is missing; the test still
 * counts every tenth text with js-tiktoken, so the file cannot drift from
 * the library unseen.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Tiktoken } from 'js-tiktoken/lite';
import { createRandom } from '../../src/kernel/prng.ts';

const RECORDED = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'tiktoken-long-pieces.json');

/** One unbroken piece each: the pre-tokenizer cuts nothing inside a run of letters, spaces or punctuation. */
export function longPieces(): string[] {
  const alphabets = ['a', 'ab', 'abc', ' ', '=-', '.', 'aA', '数学是的', '😀🧮', 'ж', 'thequickbrownfox', 'é', 'aaaaab'];
  const random = createRandom(12);
  // js-tiktoken rescans every pair after each join: 600 bytes is about as far as it goes in a test's time.
  return Array.from({ length: 120 }, () => {
    const alphabet = Array.from(alphabets[Math.floor(random() * alphabets.length)] ?? 'a');
    const length = Math.ceil((33 + random() ** 2 * 567) / Buffer.byteLength(alphabet.join('')) * alphabet.length);
    // Half repeat a short unit (a degenerate model), half draw every character.
    const unit = Array.from({ length: 1 + Math.floor(random() * 3) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
    return Array.from({ length }, () => (random() < 0.5 ? unit : (alphabet[Math.floor(random() * alphabet.length)] ?? ''))).join('');
  });
}

/** What js-tiktoken counts for each of `texts`, by encoding: read from the file kept for these texts, or counted and written. */
export function recordedCounts(texts: string[], encoders: Record<string, Tiktoken>): Record<string, number[]> {
  const digest = createHash('sha256').update(JSON.stringify(texts)).digest('hex');
  if (existsSync(RECORDED)) {
    const recorded = JSON.parse(readFileSync(RECORDED, 'utf8')) as { texts: string; counts: Record<string, number[]> };
    if (recorded.texts !== digest) throw new Error(`${RECORDED} holds the counts of other texts: delete it, and the next run writes it from js-tiktoken`);
    return recorded.counts;
  }
  const counts = Object.fromEntries(Object.entries(encoders).map(([encoding, encoder]) => [encoding, texts.map((text) => encoder.encode(text, [], []).length)]));
  writeFileSync(RECORDED, `${JSON.stringify({ texts: digest, counts })}\n`);
  return counts;
}
