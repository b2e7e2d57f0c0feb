/**
 * The run's LevelDB store, under `<output>/store`, in sublevels:
 * `manifest` (the configuration), `calls` (the call journal), `messages` (the
 * bus log, keyed by zero-padded sequence number), `banks` and `iterations`
 * (per problem and iteration). One process owns a store at a time.
 */
import path from 'node:path';
import { Level } from 'level';
import { UserError } from '../errors.ts';
import type { CandidateResult, Envelope, ExperienceRecord, GuidelineRecord, Rollout } from '../protocol.ts';

/** A completed LLM call as the journal keeps it. */
export interface CallRecord {
  key: string;
  role: string;
  problem: string;
  iteration: number;
  index: number;
  request: { baseUrl: string; model: string; messages: Array<{ role: string; content: string }>; maxTokens: number; temperature: number | null; seed: number };
  response: { content: string; reasoning: string | null; finishReason: string };
  usage: { promptTokens: number; completionTokens: number };
  timings: { startedAt: number; latencyMs: number };
  attempts: number;
}

/** One problem's state at the end of an iteration: what resume and `show` need. */
export interface IterationRecord {
  problem: string;
  /** The problem's position in the input file; keys sort by it so outputs follow the input order. */
  ordinal: number;
  iteration: number;
  candidates: CandidateResult[];
  rollouts: Rollout[];
}

/** The banks E(t) and G(t) after an iteration. */
export interface BankRecord {
  experience: ExperienceRecord[];
  guidelines: GuidelineRecord[];
}

/** Zero-padded so that keys sort as numbers. */
export function seqKey(seq: number): string {
  return String(seq).padStart(12, '0');
}

function iterationKey(ordinal: number, iteration: number): string {
  return `${String(ordinal).padStart(6, '0')}!${String(iteration).padStart(4, '0')}`;
}

/** An open store. */
export class Store {
  private constructor(
    readonly dir: string,
    private readonly db: Level<string, unknown>,
  ) {}

  private sub(name: string) {
    return this.db.sublevel<string, unknown>(name, { valueEncoding: 'json' });
  }

  readonly manifest = () => this.sub('manifest');
  readonly calls = () => this.sub('calls');
  readonly messages = () => this.sub('messages');
  readonly banks = () => this.sub('banks');
  readonly iterations = () => this.sub('iterations');

  /** Opens (creating if needed) the store of a run directory. A second process gets a UserError naming the directory. */
  static async open(runDir: string): Promise<Store> {
    const dir = path.join(runDir, 'store');
    const db = new Level<string, unknown>(dir, { valueEncoding: 'json' });
    try {
      await db.open();
    } catch (error) {
      const code = (error as { cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code;
      if (code === 'LEVEL_LOCKED') {
        throw new UserError('TMAS_LOCKED', `The run directory ${runDir} is in use by another tmas process (its store is locked). Wait for that run to finish or stop it first.`, { cause: error });
      }
      throw error;
    }
    return new Store(dir, db);
  }

  async getCall(key: string): Promise<CallRecord | undefined> {
    return (await this.calls().get(key)) as CallRecord | undefined;
  }

  async putCall(record: CallRecord): Promise<void> {
    await this.calls().put(record.key, record);
  }

  /** Writes a batch of envelopes of the message log. */
  async appendMessages(envelopes: Envelope[]): Promise<void> {
    const messages = this.messages();
    await messages.batch(envelopes.map((envelope) => ({ type: 'put' as const, key: seqKey(envelope.seq), value: envelope })));
  }

  /** The bank update and the iteration-complete mark, as one atomic batch. */
  async saveIteration(record: IterationRecord, banks: BankRecord): Promise<void> {
    const key = iterationKey(record.ordinal, record.iteration);
    await this.db.batch([
      { type: 'put', sublevel: this.banks(), key, value: banks },
      { type: 'put', sublevel: this.iterations(), key, value: record },
    ]);
  }

  /** Every iteration record, in input order then iteration order. Streams: nothing is held beyond one record. */
  async *iterationRecords(): AsyncGenerator<IterationRecord> {
    for await (const value of this.iterations().values()) yield value as IterationRecord;
  }

  async getBanks(ordinal: number, iteration: number): Promise<BankRecord | undefined> {
    return (await this.banks().get(iterationKey(ordinal, iteration))) as BankRecord | undefined;
  }

  async close(): Promise<void> {
    await this.db.close();
  }
}
