/**
 * The run's LevelDB store, under `<output>/store`, in sublevels:
 * `manifest` (the configuration, and the store's `format`), `calls` (the call
 * journal), `messages` (the bus log, keyed by zero-padded sequence number),
 * `banks` and `iterations` (per problem and iteration), `texts` and `chunks`: the long strings
 * of all of these, each distinct one once under its digest (texts.ts), and `unannounced` and
 * `processes`, small records of the host's. Records are read through the methods here, which put
 * their texts back (their shapes and keys: records.ts). One process owns a store at a time.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Level } from 'level';
import { TmasError } from '../kernel/errors.ts';
import type { Problem } from '../input/problems.ts';
import type { Envelope } from '../kernel/protocol.ts';
import { ANSWER_FIELDS, batchedRange, iterationKey, manifestOf, problemRange, seqKey, type BankRecord, type CallAnswer, type CallRecord, type IterationRecord, type Manifest, type RecordRange } from './records.ts';
import type { Put } from './write-queue.ts';
import { TrackedWrites } from './tracked-writes.ts';
import { hasTexts, outlineTexts, outlineTextsBut, pickFields, type TextsRead } from './texts.ts';
import { StoredRecords } from './stored-records.ts';
import { danglingRecords } from './dangling-records.ts';
import { BatchedGets } from './record-reads.ts';
import { acquireRunLock } from './run-lock.ts';
import { checkDecodes } from './checked-level.ts';
import { openError } from './disk/damage.ts';
import { TABLE_OPTIONS } from './table-options.ts';
import { MESSAGE_GAPS, readMessageGaps, withoutGaps, type MessageGaps } from './message-sequence.ts';
import { readableFormat, STORE_FORMAT } from './store-format.ts';

export { describeForcedChange, iterationKey, keptIterations, problemRange, seqKey, type BankRecord, type CallAnswer, type CallRecord, type ForcedChange, type ForkedFrom, type IterationRecord, type Manifest, type RecordRange } from './records.ts';
export { REPAIR_ADVICE } from './disk/damage.ts';
export { STORE_FORMAT } from './store-format.ts';

/** How many messages loggedCallKeys reads at a time. */
const LOG_SCAN_BATCH = 1024;

/** A reply's journal key as JSON writes it: `"call":{"key":"…"`, the string's escapes kept. */
const CALL_KEY = /"call":\{"key":"((?:[^"\\]|\\.)*)"/g;

/** An open store: the run's records, read and written (its sublevels and texts: stored-records.ts). */
export class Store extends StoredRecords {
  private constructor(dir: string, db: Level<string, unknown>) {
    super(dir, db);
    this.writes = new TrackedWrites(db);
  }

  /** Every write of the run, in order, one batch per event-loop turn, each tracked until it settles (tracked-writes.ts). */
  private readonly writes: TrackedWrites;

  /** The first write error, if any write failed. */
  get writeError(): unknown {
    return this.writes.error;
  }

  /** Rejects with the first write that failed (a full disk, a lost mount), so the runtime can stop the run cleanly instead of going on without a journal. */
  get failed(): Promise<never> {
    return this.writes.failed;
  }

  /**
   * The keys journaled by this process, when the journal was empty at open: a
   * fresh run then answers a lookup of any other key without a read. null: the
   * journal held calls at open (resume, replay), so every lookup reads.
   */
  private journalKeys: Set<string> | null = null;

  /** The gaps a repair left in the message log, which its streams read as they are (message-sequence.ts); a repair sets those it notes. */
  messageGaps: MessageGaps = [];

  /** The run manifest as it was written, or undefined for a store that never started a run. */
  async getManifest(): Promise<Manifest | undefined> {
    return manifestOf(await this.manifest().get('manifest'));
  }

  /** Writes the manifest and the problems of a new run, in one batch. */
  async startRun(manifest: Manifest, problems: Problem[]): Promise<void> {
    this.format = STORE_FORMAT;
    await this.db.batch([
      { type: 'put', sublevel: this.manifest(), key: 'manifest', value: manifest },
      { type: 'put', sublevel: this.manifest(), key: 'format', value: STORE_FORMAT },
      ...problems.map((problem, ordinal) => ({ type: 'put' as const, sublevel: this.problems(), key: String(ordinal).padStart(6, '0'), value: problem })),
    ]);
  }

  /** The problems of the run, in input order. */
  async loadProblems(): Promise<Problem[]> {
    const problems: Problem[] = [];
    for await (const value of this.problems().values()) problems.push(value as Problem);
    return problems;
  }

  /**
   * The sequence number after the last logged message (0 for an empty log), or after the last a repair noted as
   * lost: a log that lost its end goes on past it, so the numbers of the messages lost are never taken again.
   */
  async nextSeq(): Promise<number> {
    const pastGaps = Math.max(0, ...this.messageGaps.map(([, last]) => last + 1));
    for await (const key of this.messages().keys({ reverse: true, limit: 1 })) return Math.max(Number(key) + 1, pastGaps);
    return pastGaps;
  }

  /** The last completed iteration of a problem, with its banks, or undefined when none completed. */
  async lastIteration(ordinal: number): Promise<{ record: IterationRecord; banks: BankRecord } | undefined> {
    for await (const [key, record] of this.records<IterationRecord>(this.iterations(), 'iteration', { ...problemRange(ordinal), reverse: true, limit: 1 })) {
      const banks = await this.getBanksAt(key);
      if (!banks) throw new TmasError('TMAS_STORE', `iteration ${key} has no banks: the store is damaged`);
      return { record, banks };
    }
    return undefined;
  }

  /** A problem's iteration records with their long texts left out (outlineTexts), in iteration order: for a reader of none of them. Streams. */
  async *iterationOutlines(ordinal: number): AsyncGenerator<IterationRecord> {
    for await (const stored of this.iterations().values(problemRange(ordinal))) yield outlineTexts(stored) as IterationRecord;
  }

  /** The logged envelopes in a range of sequence keys (all by default), in sequence order. Streams. */
  async *envelopes(range: RecordRange = {}): AsyncGenerator<Envelope> {
    for await (const [, envelope] of this.messageEntries(range)) yield envelope;
  }

  /**
   * The logged envelopes in sequence order, each long text left out
   * (outlineTexts) unless `reads` asks for it by its message's type and its
   * path in the envelope: for a fold that reads few texts, such as the
   * metrics. Streams.
   */
  async *envelopeOutlines(reads: TextsRead, range: RecordRange = {}): AsyncGenerator<Envelope> {
    for await (const [key, stored] of withoutGaps(this.messages().iterator(batchedRange(range)), range, this.messageGaps, this.where)) {
      const type = ((hasTexts(stored) ? stored[0] : stored) as Envelope).message.type;
      const outline = outlineTextsBut(stored, (path) => reads(type, path));
      yield hasTexts(outline) ? await this.restore<Envelope>(outline, () => `message record ${String(key)}`) : (outline as Envelope);
    }
  }

  /** The logged envelopes with their keys (see seqKey), in sequence order. Streams. */
  messageEntries(range: RecordRange = {}): AsyncGenerator<[string, Envelope]> {
    return withoutGaps(this.records<Envelope>(this.messages(), 'message', range), range, this.messageGaps, this.where);
  }

  /** The logged envelope of a sequence number, or undefined. */
  async getMessage(seq: number): Promise<Envelope | undefined> {
    const key = seqKey(seq);
    const stored = await this.messages().get(key);
    return stored === undefined ? undefined : this.restore<Envelope>(stored, () => `message record ${key}`);
  }

  /** The journaled calls in a range of call keys (all by default), in key order, with their keys. Streams. */
  callEntries(range: RecordRange = {}): AsyncGenerator<[string, CallRecord]> {
    return this.records<CallRecord>(this.calls(), 'call', range);
  }

  /** The journaled calls in a range of call keys (all by default), in key order. Streams. */
  async *callRecords(range: RecordRange = {}): AsyncGenerator<CallRecord> {
    for await (const [, call] of this.callEntries(range)) yield call;
  }

  /** Some top-level fields of the journaled calls, in key order: only those fields' texts are read. Streams. */
  async *callFields<F extends keyof CallRecord>(fields: readonly F[], range: RecordRange = {}): AsyncGenerator<Pick<CallRecord, F>> {
    for await (const [, call] of this.records<Pick<CallRecord, F>>(this.calls(), 'call', range, (stored) => pickFields(stored, fields))) yield call;
  }

  /**
   * Opens the store of a run directory. `create` makes a new one (a new run);
   * otherwise the store must exist: LevelDB's create-if-missing would make an
   * empty database over a damaged one and delete its table files. A second
   * process gets TMAS_LOCKED (from the run directory's own lock, run-lock.ts,
   * then LevelDB's); a store LevelDB cannot open gets TMAS_STORE_DAMAGED.
   * `named`: the run directory its errors name, where `runDir` holds a private view of that run's store (check.ts).
   * `heldLock`: the release of the run directory's lock, taken already by this process (a new run, output-dir.ts).
   * `openTables`: table files LevelDB keeps open, where more than TABLE_OPTIONS' (table-options.ts says why it is few).
   */
  static async open(runDir: string, options: { create?: boolean; named?: string; heldLock?: () => Promise<void>; openTables?: number } = {}): Promise<Store> {
    const dir = path.join(runDir, 'store');
    const create = options.create === true;
    if (create) await mkdir(runDir, { recursive: true });
    const unlock = options.heldLock ?? (await acquireRunLock(runDir));
    const tables = options.openTables === undefined ? {} : { maxOpenFiles: Math.max(TABLE_OPTIONS.maxOpenFiles, options.openTables) };
    const db = new Level<string, unknown>(dir, { valueEncoding: 'json', ...TABLE_OPTIONS, ...tables, createIfMissing: create, errorIfExists: create });
    try {
      await db.open();
    } catch (error) {
      await unlock();
      throw openError(error, options.named ?? runDir, dir);
    }
    try {
      return await Store.ready(runDir, options.named ?? runDir, db, unlock);
    } catch (error) {
      await db.close().catch(() => {});
      await unlock();
      throw error;
    }
  }

  /** The store on an open database: its format read, its journal's emptiness known. */
  private static async ready(runDir: string, named: string, db: Level<string, unknown>, unlock: () => Promise<void>): Promise<Store> {
    const store = new Store(path.join(runDir, 'store'), db);
    store.runDir = named;
    store.isView = named !== runDir;
    store.unlock = unlock;
    let empty = true;
    let stored: unknown;
    try {
      for await (const _ of store.calls().keys({ limit: 1 })) empty = false;
      stored = await store.manifest().get('format');
      store.messageGaps = readMessageGaps(await store.manifest().get(MESSAGE_GAPS));
    } catch (error) {
      throw openError(error, named, store.dir);
    }
    store.format = readableFormat(stored, named);
    if (empty) store.journalKeys = new Set();
    return store;
  }

  /** The records that refer to a text the store does not hold whole, or are not records of their kind, read as stored, not refused as reads refuse them (dangling-records.ts); `drop` deletes them. */
  danglingRecords(options: { drop?: boolean } = {}): Promise<string[]> {
    const stored = (name: string) => checkDecodes(this.db.sublevel<string, unknown>(name, { valueEncoding: 'json' }), this.damageMet);
    return danglingRecords(this, { call: stored('calls'), message: stored('messages'), iteration: stored('iterations'), banks: stored('banks') }, options);
  }

  /**
   * The journal keys the logged replies name (a `*.completed` message's `call.key`), a batch of messages at
   * a time, in log order. Read from each message's stored text, never parsed: checking them all against the
   * journal (repair/journal-check.ts) reads the whole log, which parsed cost ten times as much. A text a
   * message holds cannot hold the pattern: its quotes are escaped in JSON.
   */
  async *loggedCallKeys(): AsyncGenerator<string[]> {
    const raw = checkDecodes(this.db.sublevel<string, string>('messages', { valueEncoding: 'utf8' }), this.damageMet);
    const iterator = raw.iterator({ ...batchedRange(), keys: false });
    try {
      for (;;) {
        const entries = await iterator.nextv(LOG_SCAN_BATCH);
        if (entries.length === 0) return;
        yield entries.flatMap(([, text]) => [...(text ?? '').matchAll(CALL_KEY)].map((match) => JSON.parse(`"${match[1]}"`) as string));
      }
    } finally {
      await iterator.close();
    }
  }

  /** Reads every key of the store: LevelDB reads each table it holds, so a truncated or corrupted table fails here. Returns the number of entries. */
  async readAll(): Promise<number> {
    let entries = 0;
    for await (const _ of this.db.keys({ ...batchedRange(), keyEncoding: 'buffer', fillCache: false })) entries++;
    return entries;
  }

  async getCall(key: string): Promise<CallRecord | undefined> {
    if (this.journalKeys && !this.journalKeys.has(key)) return undefined;
    const stored = await this.calls().get(key);
    return stored === undefined ? undefined : this.restore<CallRecord>(stored, () => `call record ${key}`);
  }

  /** The journal's lookups of answers: those asked in one event-loop turn are read together (record-reads.ts). */
  private answers: BatchedGets | null = null;

  /** What a journaled call answered (its prompt left unread), or undefined when the journal lacks it. */
  async getCallAnswer(key: string): Promise<CallAnswer | undefined> {
    if (this.journalKeys && !this.journalKeys.has(key)) return undefined;
    this.answers ??= new BatchedGets(this.calls(), this.textStore, (error, at) => this.missingText(error, () => `call record ${at}`), (stored) => pickFields(stored, ANSWER_FIELDS));
    return (await this.answers.get(key)) as CallAnswer | undefined;
  }

  /**
   * Serialises large values to JSON in UTF-8 with `encode` (a pool thread)
   * rather than on the main thread. Writes still land in order.
   */
  encodeWith(encode: (value: unknown) => Promise<Uint8Array>): void {
    this.writes.encoder = encode;
  }

  /** Journals a call, and `alsoPut` in the same batch (refit.ts); resolves once it is on disk (with the writes queued before it). */
  async putCall(record: CallRecord, alsoPut: Put[] = []): Promise<void> {
    await this.writes.write([...this.putsOf(this.calls(), record.key, record), ...alsoPut]);
    this.journalKeys?.add(record.key);
  }

  /** Logs a bus message (an `iteration.completed` with its iteration's mark cleared). It lands after every write queued before it; `flushed()` waits for it. */
  logMessage(envelope: Envelope): void {
    const { message } = envelope;
    const announced = message.type === 'iteration.completed' ? [{ sublevel: this.unannounced(), key: message.problem, value: null }] : [];
    void this.writes.write([...this.putsOf(this.messages(), seqKey(envelope.seq), envelope), ...announced]);
  }

  /** Resolves once every write made so far is on disk; rejects with the first write error. */
  flushed(): Promise<void> {
    return this.writes.flushed();
  }

  /** The bank update and the iteration-complete mark, as one atomic batch, with the mark that its announcement is still to be logged. */
  async saveIteration(record: IterationRecord, banks: BankRecord): Promise<void> {
    const [key, unannounced] = [iterationKey(record.ordinal, record.iteration), { sublevel: this.unannounced(), key: record.problem, value: record.iteration }];
    await this.writes.write([...this.putsOf(this.banks(), key, banks), ...this.putsOf(this.iterations(), key, record), unannounced]);
  }

  /** The iteration records in a range of iteration keys (all by default), in input order then iteration order; with `fields`, those fields only, whose texts alone are read. Streams: nothing is held beyond one record. */
  async *iterationRecords<F extends keyof IterationRecord = keyof IterationRecord>(range: RecordRange = {}, fields?: readonly F[]): AsyncGenerator<Pick<IterationRecord, F>> {
    const pick = fields === undefined ? undefined : (stored: unknown) => pickFields(stored, fields);
    for await (const [, record] of this.records<Pick<IterationRecord, F>>(this.iterations(), 'iteration', range, pick)) yield record;
  }

  /** The iteration record under an iteration key (see iterationKey), or undefined. */
  async getIteration(key: string): Promise<IterationRecord | undefined> {
    const stored = await this.iterations().get(key);
    return stored === undefined ? undefined : this.restore<IterationRecord>(stored, () => `iteration record ${key}`);
  }

  async getBanks(ordinal: number, iteration: number): Promise<BankRecord | undefined> {
    return this.getBanksAt(iterationKey(ordinal, iteration));
  }

  private async getBanksAt(key: string): Promise<BankRecord | undefined> {
    const stored = await this.banks().get(key);
    return stored === undefined ? undefined : this.restore<BankRecord>(stored, () => `banks record ${key}`);
  }

  /** Called once the database is closed (a private view removes itself). */
  onClosed: (() => Promise<void>) | null = null;

  /** Releases the run directory's lock (run-lock.ts). */
  private unlock: () => Promise<void> = async () => {};

  async close(): Promise<void> {
    await this.writes.settled();
    try {
      await this.db.close();
    } finally {
      await this.unlock();
    }
    await this.onClosed?.();
  }
}
