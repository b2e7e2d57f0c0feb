/**
 * Content-addressed texts: how the store keeps each distinct text once.
 *
 * A record (a journaled call, a logged envelope, an iteration mark, the banks)
 * is stored with every string of TEXT_MIN_CHARS or more taken out. Each
 * distinct string is a text, kept once in the `texts` sublevel under its
 * digest as the list of its chunks' digests; it is cut into chunks at
 * content-defined boundaries, and each distinct chunk is kept once in the
 * `chunks` sublevel under its own digest. A record with such texts is stored
 * as `[value, refs]`, where `value` has "" at each text's place and `refs`
 * lists `[path, text digest]`; a record without any keeps its plain shape, as
 * every record of a store from before this format did, so both read the same
 * way. A text that recurs (a solution in each of its M verification requests,
 * a verification prompt in each of its M calls) costs one digest per record.
 *
 * Why chunks rather than whole strings: the same text recurs inside larger
 * ones. A candidate's solution is an output, then the middle of each of its M
 * verification prompts, of its summary prompt, of every exploit prompt of the
 * next iteration; a verification's analysis is an output and part of a summary
 * prompt. Boundaries that depend only on the last few characters (a gear hash,
 * as in FastCDC) fall at the same places inside the larger text, so all but
 * the chunks at its edges are shared.
 *
 * Why chunks and texts are written ahead of the record: they go into the same
 * batch as the first record that refers to them (or an earlier one), so a
 * crash never leaves a reference to a missing text.
 */
import { createHash } from 'node:crypto';

/** Strings shorter than this stay inline: a reference would save little and cost a read. */
export const TEXT_MIN_CHARS = 1024;

/**
 * Whether a string is taken out of its record: long, and not blank. A blank
 * string stays inline however long, so that a reader of outlines knows a
 * placeholder stands for a text with something in it (an empty answer is
 * counted without reading any solution back: observers/log-metrics.ts).
 */
function isText(value: string): boolean {
  return value.length >= TEXT_MIN_CHARS && !BLANK.test(value);
}

// `\s` is the set String.prototype.trim removes; the test stops at the first other character.
const BLANK = /^\s*$/;

/** No chunk is shorter, unless the text ends (so that tiny chunks do not cost a key each). */
const CHUNK_MIN_CHARS = 256;
/** No chunk is longer: a text without boundaries is still cut. */
const CHUNK_MAX_CHARS = 8192;
/** A boundary where the hash's top ten bits are zero: one character in 1,024, so chunks average about 1.3 k characters. */
const BOUNDARY_MASK = 0xffc00000;

/** The gear table: one fixed pseudo-random 32-bit value per character's low byte (mulberry32, seed 1). */
const GEAR = (() => {
  const table = new Int32Array(256);
  let state = 1;
  for (let i = 0; i < 256; i++) {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    table[i] = t ^ (t >>> 14);
  }
  return table;
})();

/**
 * The end offsets of a text's chunks. The hash holds the last 32 characters
 * (each shift pushes one out), and its top bits depend on all of them, so a
 * boundary depends on the text around it, not on where the text starts.
 */
export function chunkEnds(text: string): number[] {
  const ends: number[] = [];
  let hash = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    hash = ((hash << 1) + (GEAR[text.charCodeAt(i) & 0xff] as number)) | 0;
    const length = i + 1 - start;
    if (length < CHUNK_MIN_CHARS || ((hash & BOUNDARY_MASK) !== 0 && length < CHUNK_MAX_CHARS)) continue;
    // Never between the halves of a surrogate pair: each chunk stays well-formed text.
    const next = text.charCodeAt(i + 1);
    if (next >= 0xdc00 && next <= 0xdfff) continue;
    ends.push(i + 1);
    start = i + 1;
  }
  if (start < text.length) ends.push(text.length);
  return ends;
}

/** A SHA-256 digest (128 bits, base64url): a chunk's key in the `chunks` sublevel. */
export function chunkDigest(chunk: string): string {
  return createHash('sha256').update(chunk).digest('base64url').slice(0, 22);
}

/** A text's digest, its key in the `texts` sublevel: the digest of its chunks' digests, so the text is hashed once. */
export function textDigest(digests: string[]): string {
  return chunkDigest(digests.join(''));
}

/** A text's chunks, with their digests, and the text's own digest. */
export interface Chunked {
  digest: string;
  digests: string[];
  chunks: string[];
}

/** Cuts a text into chunks and digests each. */
export function chunkText(text: string): Chunked {
  const digests: string[] = [];
  const chunks: string[] = [];
  let start = 0;
  for (const end of chunkEnds(text)) {
    const chunk = text.slice(start, end);
    chunks.push(chunk);
    digests.push(chunkDigest(chunk));
    start = end;
  }
  return { digest: textDigest(digests), digests, chunks };
}

/** Where a text sits in a record: object keys and array indices from the top. */
export type TextPath = Array<string | number>;

/** Which long texts of a logged message a reader needs, by the message's type and the text's path in its envelope (store.ts, envelopeOutlines). */
export type TextsRead = (type: string, path: TextPath) => boolean;

/** A text taken out of a record: its place and its digest. */
export type TextRef = [TextPath, string];

/** A record as stored with its texts taken out. */
export type StoredWithTexts = [unknown, TextRef[]];

/**
 * Takes every long string out of `value`. `onText` returns a string's digest
 * (the caller stores the text). Returns the value to store: the
 * value itself when it holds no long string, else `[copy, refs]`, where the
 * copy shares every part of `value` that holds none. `value` is never changed.
 */
export function takeTexts(value: unknown, onText: (text: string) => string): unknown {
  const refs: TextRef[] = [];
  const path: TextPath = [];
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') {
      if (!isText(node)) return node;
      refs.push([[...path], onText(node)]);
      return '';
    }
    if (node === null || typeof node !== 'object') return node;
    if (Array.isArray(node)) {
      let copy: unknown[] | null = null;
      for (let i = 0; i < node.length; i++) {
        path.push(i);
        const item = walk(node[i]);
        path.pop();
        if (item !== node[i]) (copy ??= [...node])[i] = item;
      }
      return copy ?? node;
    }
    let copy: Record<string, unknown> | null = null;
    // Keys, not entries: a pair per field, for every field of every record stored, showed among a call's allocations.
    for (const key of Object.keys(node)) {
      const field = (node as Record<string, unknown>)[key];
      path.push(key);
      const item = walk(field);
      path.pop();
      // A shallow copy keeps the keys' order: JSON.stringify of the restored record is the original's.
      if (item !== field) (copy ??= { ...(node as Record<string, unknown>) })[key] = item;
    }
    return copy ?? node;
  };
  const stored = walk(value);
  return refs.length === 0 ? value : ([stored, refs] satisfies StoredWithTexts);
}

/** True when a stored value has texts taken out (records are objects; only that form is an array). */
export function hasTexts(stored: unknown): stored is StoredWithTexts {
  return Array.isArray(stored);
}

/** The digests of the texts a stored value refers to, in order, repeats included. */
export function referencedTexts(stored: unknown): string[] {
  return hasTexts(stored) ? stored[1].map(([, digest]) => digest) : [];
}

/**
 * Puts the texts back into a stored value (parsed from JSON, so it is changed
 * in place). `texts` maps each text digest to its text; a digest it lacks is
 * returned for the caller to report, and the value is then incomplete.
 */
export function restoreTexts(stored: unknown, texts: Map<string, string>): { value: unknown; missing: string | null } {
  if (!hasTexts(stored)) return { value: stored, missing: null };
  const [value, refs] = stored;
  for (const [path, digest] of refs) {
    const text = texts.get(digest);
    if (text === undefined) return { value, missing: digest };
    if (path.length === 0) return { value: text, missing: null };
    let node = value as Record<string | number, unknown>;
    for (let i = 0; i < path.length - 1; i++) node = node[path[i] as string | number] as Record<string | number, unknown>;
    node[path[path.length - 1] as string | number] = text;
  }
  return { value, missing: null };
}

/**
 * A stored record cut down to some of its top-level fields, with the
 * references of their texts only: what a reader restores when it needs no
 * other (a journaled call's answer without its prompt).
 */
export function pickFields(stored: unknown, fields: readonly string[]): unknown {
  const [value, refs] = hasTexts(stored) ? stored : [stored, []];
  const record = value as Record<string, unknown>;
  const picked = Object.fromEntries(fields.filter((field) => field in record).map((field) => [field, record[field]]));
  const kept = refs.filter(([path]) => fields.includes(path[0] as string));
  return kept.length === 0 ? picked : ([picked, kept] satisfies StoredWithTexts);
}

/** What stands for a long text in an outline (see outlineTexts): never empty, as the text was not. */
export const TEXT_PLACEHOLDER = '\u0000text ';

/**
 * A stored value with each long text replaced by `TEXT_PLACEHOLDER` and its
 * digest, for a reader that needs none of them: reading texts back is most of
 * the time of reading a record.
 */
export function outlineTexts(stored: unknown): unknown {
  return outlineTextsBut(stored, () => false);
}

/**
 * `outlineTexts` but for the texts at the paths `keep` accepts, whose
 * references are left for the caller to restore: a stored value again, or
 * the outline itself when none is kept.
 */
export function outlineTextsBut(stored: unknown, keep: (path: TextPath) => boolean): unknown {
  if (!hasTexts(stored)) return stored;
  const [value, refs] = stored;
  const kept = refs.filter(([path]) => keep(path));
  const outlined = refs.filter(([path]) => !keep(path));
  const outline = restoreTexts([value, outlined], new Map(outlined.map(([, digest]) => [digest, `${TEXT_PLACEHOLDER}${digest}`]))).value;
  return kept.length === 0 ? outline : ([outline, kept] satisfies StoredWithTexts);
}
