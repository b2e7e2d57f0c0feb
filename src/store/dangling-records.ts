/**
 * The records of a store that cannot be read back (a resume, a replay, a fork
 * and `tmas repair` check them all before they start): those that refer to a
 * text the store does not hold whole, and those that are not records of their
 * kind (record-shapes.ts).
 *
 * Whether a text is whole is asked as the records stream, a batch of records
 * at a time: its chunk list is read and hashed, and each of its chunks read
 * and hashed, once while the bounded memory of those found whole (digest-set.ts)
 * still holds it. Before, every chunk digest and every text digest of the store
 * was read into two sets first: about 100 bytes of memory per distinct
 * digest (a 22-character key sliced from its sublevel's, and a set's entry),
 * some 8% of the distinct text the run wrote (a chunk averages 1,300
 * characters), a gigabyte for 500,000 calls of 8,000-token replies. Now it is
 * the two sets' fixed few megabytes and one batch of records.
 */
import type { Put } from './write-queue.ts';
import { batchedRange } from './records.ts';
import { chunkDigest, referencedTexts, textDigest } from './texts.ts';
import { DigestSet } from './digest-set.ts';
import { recordShapeProblem, type RecordKind } from './record-shapes.ts';

/** Texts and chunks found whole, the most recently used kept: those a solution shares with its M verification prompts and its summary are read once. */
const WHOLE_DIGESTS = 2 ** 17;

/** Records whose texts are asked about together: one read of lists and one of chunks per batch. */
const RECORD_BATCH = 256;

/** How many keys one read asks LevelDB for. */
const READ_BATCH = 256;

/** The values of `keys` in `sublevel` (undefined where none), read READ_BATCH keys at a time. */
async function valuesOf(sublevel: Put['sublevel'], keys: readonly string[]): Promise<unknown[]> {
  const values: unknown[] = [];
  for (let from = 0; from < keys.length; from += READ_BATCH) values.push(...(await sublevel.getMany(keys.slice(from, from + READ_BATCH))));
  return values;
}

/** Which texts a store holds whole: its chunk list hashes to its digest, and every chunk is there and hashes to its key. */
class WholeTexts {
  private readonly texts = new DigestSet(WHOLE_DIGESTS);
  private readonly chunks = new DigestSet(WHOLE_DIGESTS);

  constructor(private readonly store: { texts(): Put['sublevel']; chunks(): Put['sublevel'] }) {}

  /** Those of `digests` the store does not hold whole. */
  async notWhole(digests: readonly string[]): Promise<Set<string>> {
    const asked = [...new Set(digests)].filter((digest) => !this.texts.has(digest));
    if (asked.length === 0) return new Set();
    const lists = await valuesOf(this.store.texts(), asked);
    const listed = [...new Set(lists.flatMap((list) => (Array.isArray(list) ? list.filter((chunk): chunk is string => typeof chunk === 'string') : [])))];
    // Those found whole before and found whole now are both kept apart from the bounded set for this call: adding the
    // chunks found now can push out one found before, which would then be taken for missing (a whole record reported damaged).
    const known = new Set(listed.filter((chunk) => this.chunks.has(chunk)));
    const unknown = listed.filter((chunk) => !known.has(chunk));
    const found = new Set<string>();
    // Content-addressed: a chunk that no longer hashes to its key was changed on disk, which LevelDB's reads do not check.
    (await valuesOf(this.store.chunks(), unknown)).forEach((chunk, i) => {
      const key = unknown[i] as string;
      if (typeof chunk === 'string' && chunkDigest(chunk) === key) found.add(key);
    });
    for (const key of found) this.chunks.add(key);
    const missing = new Set<string>();
    asked.forEach((digest, i) => {
      const list = lists[i];
      const whole = Array.isArray(list) && list.every((chunk) => typeof chunk === 'string' && (found.has(chunk) || known.has(chunk))) && textDigest(list as string[]) === digest;
      if (whole) this.texts.add(digest);
      else missing.add(digest);
    });
    return missing;
  }
}

/** The sublevels whose records may refer to texts, by the name an error gives a record of each. */
export type RecordSublevels = Record<'call' | 'message' | 'iteration' | 'banks', Put['sublevel']>;

/** A record read, and what is wrong with its shape (null: nothing). */
interface Read {
  key: string;
  misshapen: string | null;
  refers: string[];
}

/** The records of one sublevel that cannot be read back, as `<kind> record <key> (<why>)`, with their keys; checked a batch at a time. */
async function danglingIn(name: string, sublevel: Put['sublevel'], whole: WholeTexts): Promise<Array<{ key: string; why: string }>> {
  const dangling: Array<{ key: string; why: string }> = [];
  let batch: Read[] = [];
  const settle = async () => {
    const missing = await whole.notWhole(batch.flatMap((read) => (read.misshapen === null ? read.refers : [])));
    for (const { key, misshapen, refers } of batch) {
      const lost = misshapen === null ? refers.find((digest) => missing.has(digest)) : undefined;
      if (misshapen !== null || lost !== undefined) dangling.push({ key, why: `${name} record ${key} (${misshapen ?? `text ${lost}`})` });
    }
    batch = [];
  };
  for await (const [key, stored] of sublevel.iterator(batchedRange())) {
    const misshapen = recordShapeProblem(name as RecordKind, stored);
    batch.push({ key: key as string, misshapen, refers: misshapen === null ? referencedTexts(stored) : [] });
    if (batch.length >= RECORD_BATCH) await settle();
  }
  await settle();
  return dangling;
}

/**
 * The records that cannot be read back: those that refer to a text the store
 * does not hold whole, as `<kind> record <key> (text <digest>)`, damage (a lost
 * table), never an empty text; and those that are not records of their kind
 * (record-shapes.ts), as `<kind> record <key> (<what is wrong>)`. Reads every
 * record once, and every text and chunk they refer to. `drop` deletes them (a
 * repair: the journal then lacks those calls, which a resume issues again).
 * `records` must read values as stored, without the shape check a store's reads make.
 */
export async function danglingRecords(store: { texts(): Put['sublevel']; chunks(): Put['sublevel'] }, records: RecordSublevels, options: { drop?: boolean } = {}): Promise<string[]> {
  const whole = new WholeTexts(store);
  const dangling: string[] = [];
  for (const [name, sublevel] of Object.entries(records)) {
    const found = await danglingIn(name, sublevel, whole);
    dangling.push(...found.map(({ why }) => why));
    if (options.drop !== true || found.length === 0) continue;
    const lost = found.map(({ key }) => key);
    // An iteration mark and its banks go together: one without the other is damage of its own.
    const together = name === 'iteration' || name === 'banks' ? [records.iteration, records.banks] : [sublevel];
    for (const each of together) await each.batch(lost.map((key) => ({ type: 'del' as const, key })));
  }
  return dangling;
}
