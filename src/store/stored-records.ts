/**
 * A run's LevelDB database as its records are kept in it: named sublevels,
 * each made once and its values checked as they are read (a value that does
 * not decode, or is not a record of its kind, is damage named by its record);
 * records whose long strings are kept apart, each distinct one once under its
 * digest (texts.ts, text-store.ts), put with the texts they need and read back
 * with them; and damage named by the run directory, not the private view a
 * command may read (repair/check.ts). What the records are and how the run
 * reads and writes them is store.ts.
 */
import path from 'node:path';
import type { AbstractSublevel } from 'abstract-level';
import type { Level } from 'level';
import type { RecordRange } from './records.ts';
import type { Put } from './write-queue.ts';
import { hasTexts } from './texts.ts';
import { MissingText, TextStore } from './text-store.ts';
import { streamRecords } from './record-reads.ts';
import { checkDecodes, checkReads } from './checked-level.ts';
import { storeDamaged } from './disk/damage.ts';
import { corruptionMet } from './disk/block-check.ts';
import { checkShapes } from './record-shapes.ts';
import { STORE_FORMAT } from './store-format.ts';

/** A database of sublevels whose records keep their texts by digest. */
export class StoredRecords {
  protected constructor(
    readonly dir: string,
    protected readonly db: Level<string, unknown>,
  ) {
    // A corrupt block, or a value that no longer decodes (sub), is met by whichever read reaches it first: it names the run directory and the table, as a damage found at open does.
    checkReads(db, this.damageMet);
    this.textStore = new TextStore(this.texts(), this.chunks());
  }

  /** Sublevels are made once: creating one per call showed in the profile at thousands of calls per second. */
  private readonly sublevels = new Map<string, AbstractSublevel<Level<string, unknown>, string | Buffer | Uint8Array, string, unknown>>();

  private sub(name: string): AbstractSublevel<Level<string, unknown>, string | Buffer | Uint8Array, string, unknown> {
    // A value of the wrong shape is damage, named by its record, as a lost text is (record-shapes.ts).
    const sublevel = this.sublevels.get(name) ?? checkShapes(checkDecodes(this.db.sublevel<string, unknown>(name, { valueEncoding: 'json' }), this.damageMet), name, (what) => storeDamaged(this.runDir, what, undefined, this.where));
    this.sublevels.set(name, sublevel);
    return sublevel;
  }

  readonly manifest = () => this.sub('manifest');
  readonly calls = () => this.sub('calls');
  readonly messages = () => this.sub('messages');
  readonly banks = () => this.sub('banks');
  readonly iterations = () => this.sub('iterations');
  readonly problems = () => this.sub('problems');
  readonly texts = () => this.sub('texts');
  readonly chunks = () => this.sub('chunks');
  /** Per problem, its last saved iteration until its `iteration.completed` is logged, then null (host/run/lost-announcements.ts). */
  readonly unannounced = () => this.sub('unannounced');
  /** Per call key asked at the run's window, where a call answered in a smaller one was journaled (refit.ts). */
  readonly refits = () => this.sub('refits');
  /** Per process that wrote the run's outputs, the gateway's counts of the run's calls in it (host/outputs/gateway-block.ts), as given. */
  readonly processes = () => this.sub('processes');

  /** The store's format (STORE_FORMAT once anything refers to `texts`). */
  protected format = 1;

  /** Where the store's run directory is, as errors name it (a private view names the original). */
  runDir = '';

  /** A private view of a run's store (check.ts): what it writes never reaches the run directory. */
  protected isView = false;

  protected readonly damageMet = (error: Error) => corruptionMet(error, { runDir: this.runDir, storeDir: this.dir, written: !this.isView });
  /** The run directory errors name, and whether this process writes the store, as a damage's error says them. */
  protected get where() { return { runDir: this.runDir, written: !this.isView }; }

  /** A message of LevelDB's with the store's own folder named as the run directory's (a view's folder is gone by the time it is read). */
  inRunDir(text: string): string {
    return text.split(this.dir).join(path.join(this.runDir, 'store'));
  }

  /** Texts and chunks (set in the constructor: it needs the database). */
  protected readonly textStore: TextStore;

  /**
   * The puts that store `value` as `key` in `sublevel`: the texts and chunks
   * it needs that are not yet written, then the record, for one batch.
   */
  protected putsOf(sublevel: Put['sublevel'], key: string, value: unknown): Put[] {
    const puts: Put[] = [];
    const stored = this.textStore.take(value, puts);
    if (hasTexts(stored) && this.format < STORE_FORMAT) {
      this.format = STORE_FORMAT;
      puts.push({ sublevel: this.manifest(), key: 'format', value: STORE_FORMAT });
    }
    puts.push({ sublevel, key, value: stored });
    return puts;
  }

  /** A stored record with its texts put back; `where` names it in an error. */
  protected async restore<T>(stored: unknown, where: () => string): Promise<T> {
    return (await this.textStore.restore(stored).catch((error: unknown) => Promise.reject(this.missingText(error, where)))) as T;
  }

  /** A missing text as the damage it is (never read as an empty text: the table that held it is lost); other errors as they are. */
  protected missingText(error: unknown, where: () => string): unknown {
    if (!(error instanceof MissingText)) return error;
    return storeDamaged(this.runDir, `${where()} refers to text ${error.digest}, which the store does not hold whole`, error, { written: !this.isView });
  }

  /** Reads a sublevel's records in key order with their texts put back, cut down by `pick` when given. Streams (record-reads.ts). */
  protected records<T>(sublevel: Put['sublevel'], name: string, range: RecordRange = {}, pick?: (stored: unknown) => unknown): AsyncGenerator<[string, T]> {
    const onError = (error: unknown, key: string) => this.missingText(error, () => `${name} record ${key}`);
    return streamRecords(sublevel, this.textStore, { range, onError, ...(pick === undefined ? {} : { pick }) }) as AsyncGenerator<[string, T]>;
  }
}
