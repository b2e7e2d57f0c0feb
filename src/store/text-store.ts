/**
 * The store's side of content-addressed texts (texts.ts): which texts and
 * chunks a record's batch must carry, and reading them back. Two sublevels:
 * `texts` (text digest → its chunk digests) and `chunks` (chunk digest →
 * chunk). What was written is remembered (bounded), so a text that recurs
 * costs a digest; one forgotten is written again, which is harmless.
 */
import type { Put } from './write-queue.ts';
import { chunkDigest, chunkText, hasTexts, referencedTexts, restoreTexts, takeTexts, textDigest } from './texts.ts';
import { SizedLru } from '../pool/sized-lru.ts';
import { DigestSet } from './digest-set.ts';

/**
 * Digests (texts and chunks) known to be in the store, the most recently used
 * kept (digest-set.ts, a few megabytes of typed arrays): enough to remember
 * the chunks of an iteration or more of a large run.
 */
const WRITTEN_DIGESTS = 2 ** 17;

/** Characters of recent texts whose digest is kept: the M verification prompts of a candidate are one text, chunked and hashed once. */
const DIGESTED_CHARS = 4 * 2 ** 20;

/** Characters of texts kept after a read: a solution is read back for each of the M messages that carry it. */
const READ_CHARS = 4 * 2 ** 20;

/** How many keys one read asks LevelDB for. */
const READ_BATCH = 256;

/** A text digest that a record refers to and the store cannot give back. */
export class MissingText extends Error {
  constructor(readonly digest: string) {
    super(`text ${digest} is missing`);
  }
}

/** Texts and chunks of one store. */
export class TextStore {
  private readonly written = new DigestSet(WRITTEN_DIGESTS);
  private readonly digested = new SizedLru<string, string>(DIGESTED_CHARS);
  private readonly read = new SizedLru<string, string>(READ_CHARS);

  constructor(
    private readonly texts: Put['sublevel'],
    private readonly chunks: Put['sublevel'],
  ) {}

  /**
   * `value` as it is to be stored, and the puts of the texts and chunks it
   * needs that were not written before: they go ahead of the record, in its batch.
   */
  take(value: unknown, puts: Put[]): unknown {
    return takeTexts(value, (text) => {
      const known = this.digested.get(text);
      if (known !== undefined && this.written.has(known)) return known;
      const { digest, digests, chunks } = chunkText(text);
      this.digested.set(text, digest, text.length);
      if (this.written.has(digest)) return digest;
      digests.forEach((chunk, i) => {
        if (this.written.has(chunk)) return;
        this.written.add(chunk);
        puts.push({ sublevel: this.chunks, key: chunk, value: chunks[i] });
      });
      this.written.add(digest);
      puts.push({ sublevel: this.texts, key: digest, value: digests });
      return digest;
    });
  }

  /** A stored value with its texts put back; throws MissingText for a text or chunk the store lacks. */
  async restore(stored: unknown): Promise<unknown> {
    if (!hasTexts(stored)) return stored;
    return restoreFrom(stored, await this.load(referencedTexts(stored)));
  }

  /**
   * The texts that a run of stored values refer to, read together: one read of
   * texts and one of chunks for all of them rather than two per record, which
   * is most of the time of streaming a sublevel. Give each value with them to
   * restoreFrom.
   */
  textsOf(stored: unknown[]): Promise<Map<string, string>> {
    return this.load(stored.flatMap(referencedTexts));
  }

  /** The texts of these digests that the store holds whole, from the cache or a read per READ_BATCH keys. */
  private async load(digests: string[]): Promise<Map<string, string>> {
    const texts = new Map<string, string>();
    const wanted = new Set<string>();
    for (const digest of digests) {
      const cached = this.read.get(digest);
      if (cached !== undefined) texts.set(digest, cached);
      else wanted.add(digest);
    }
    if (wanted.size === 0) return texts;
    const lists = await this.getMany(this.texts, [...wanted]);
    const chunks = await this.getMany(this.chunks, [...new Set([...lists.values()].flatMap((list) => (Array.isArray(list) ? (list as string[]) : [])))]);
    // Content-addressed: a chunk or a list that no longer hashes to its key was changed on disk, which LevelDB's reads do not check.
    for (const [key, chunk] of chunks) if (typeof chunk !== 'string' || chunkDigest(chunk) !== key) chunks.delete(key);
    for (const [digest, list] of lists) {
      if (!Array.isArray(list) || textDigest(list as string[]) !== digest) continue;
      const parts = (list as string[]).map((chunk) => chunks.get(chunk));
      // A text with a chunk missing is not given back: the caller reports it as damage.
      if (!parts.every((part) => typeof part === 'string')) continue;
      const text = parts.join('');
      texts.set(digest, text);
      this.read.set(digest, text, text.length);
    }
    return texts;
  }

  private async getMany(sublevel: Put['sublevel'], keys: string[]): Promise<Map<string, unknown>> {
    const found = new Map<string, unknown>();
    for (let from = 0; from < keys.length; from += READ_BATCH) {
      const batch = keys.slice(from, from + READ_BATCH);
      const values = await sublevel.getMany(batch);
      batch.forEach((key, i) => {
        if (values[i] !== undefined) found.set(key, values[i]);
      });
    }
    return found;
  }
}

/** A stored value with its texts put back from `texts` (TextStore.textsOf); throws MissingText for one it lacks. */
export function restoreFrom(stored: unknown, texts: Map<string, string>): unknown {
  const { value, missing } = restoreTexts(stored, texts);
  if (missing !== null) throw new MissingText(missing);
  return value;
}
