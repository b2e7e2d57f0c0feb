/**
 * The message log's sequence without a gap. A run logs its messages under
 * consecutive sequence numbers, each batch atomically, so a log that lacks
 * one in its middle lost it (a record deleted, a block dropped): read as it
 * is, the metrics fold counted one call, its tokens and its output fewer,
 * and the resume wrote them to metrics.json with exit 0, without a word.
 * A stream of the log checks each key against the one before; the gaps a
 * `tmas repair` left knowingly (it dropped those messages, and said so) are
 * noted in the store and read as they are.
 */
import type { RecordRange } from './records.ts';
import { storeDamaged } from './disk/damage.ts';

/** The key, in the store's manifest sublevel, of the gaps a repair left in the message log: `[first, last]` sequence numbers. */
export const MESSAGE_GAPS = 'messageGaps';

/** Inclusive ranges of sequence numbers the log lacks knowingly. */
export type MessageGaps = Array<[number, number]>;

/** The gaps a stored value notes, or none when it notes none (or is no list of ranges). */
export function readMessageGaps(stored: unknown): MessageGaps {
  if (!Array.isArray(stored)) return [];
  return stored.filter((gap): gap is [number, number] => Array.isArray(gap) && gap.length === 2 && gap.every(Number.isSafeInteger));
}

/** The gaps in a log of `keys` (sequence keys in order). */
export async function gapsOf(keys: AsyncIterable<string>): Promise<MessageGaps> {
  const gaps: MessageGaps = [];
  let next = 0;
  for await (const key of keys) {
    const seq = Number(key);
    if (seq > next) gaps.push([next, seq - 1]);
    next = seq + 1;
  }
  return gaps;
}

/** The first sequence number a forward read of `range` must meet, or null when it may start anywhere. */
function firstExpected(range: RecordRange): number | null {
  if (range.reverse === true) return null;
  if (range.gte !== undefined) return Number(range.gte);
  if (range.gt !== undefined) return Number(range.gt) + 1;
  return 0;
}

/**
 * `entries` (a stream of the log over `range`, with their keys) as they come,
 * checked to leave no sequence number out but those of `known`; `onGap`
 * makes the error for the first missing one.
 */
export async function* withoutGaps<T>(entries: AsyncIterable<[string, T]>, range: RecordRange, known: MessageGaps, where: { runDir: string; written: boolean }): AsyncGenerator<[string, T]> {
  const step = range.reverse === true ? -1 : 1;
  let expected = firstExpected(range);
  for await (const entry of entries) {
    const seq = Number(entry[0]);
    if (expected !== null && seq !== expected && !bridged(known, expected, seq)) throw gapDamage(where, expected, seq);
    expected = seq + step;
    yield entry;
  }
}

/** Whether every sequence number strictly between the one expected and the one found (in either order) is a known gap. */
function bridged(known: MessageGaps, expected: number, found: number): boolean {
  const [low, high] = expected < found ? [expected, found - 1] : [found + 1, expected];
  return known.some(([first, last]) => first <= low && high <= last);
}

/** The damage a gap is: the first missing message named, and the next the log holds. */
function gapDamage(where: { runDir: string; written: boolean }, missing: number, found: number): Error {
  const lost = Math.abs(found - missing);
  const what = `its message log has a gap: ${lost === 1 ? `message ${missing} is` : `messages ${Math.min(missing, found + 1)} to ${Math.max(missing, found - 1)} are`} missing, the log going on at ${found}; read as it is, the run's figures would leave out what ${lost === 1 ? 'it' : 'they'} said`;
  return storeDamaged(where.runDir, what, undefined, { written: where.written });
}
