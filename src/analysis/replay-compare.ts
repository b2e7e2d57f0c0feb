/**
 * How `tmas replay` compares the replayed messages with the logged ones, in
 * the one store that holds both. Messages are matched by (type, correlation),
 * since a run at concurrency > 1 logs them in arrival order.
 *
 * A message is compared by the digest of its outline: the message with each
 * long text as that text's digest (texts.ts). Two messages of one store with
 * the same outline are the same, so a replay of 332,202 messages reads no
 * text back; only a message whose outline differs from every logged version
 * is read whole and compared again (a store of format 1 keeps its texts
 * inline, so its outlines never match). What is held per logged message is
 * its key, its sequence number and its digest.
 */
import { createHash } from 'node:crypto';
import { TmasError } from '../kernel/errors.ts';
import type { Envelope, Message } from '../kernel/protocol.ts';
import { seqKey, Store } from '../store/store.ts';

/** What a replay found. */
export interface ReplayReport {
  identical: boolean;
  compared: number;
  /** The first replayed message that differs from the log (or is not in it), with the logged version. */
  divergence: { replayed: Envelope; logged: Envelope | null } | null;
  /** Logged messages the replay never produced. */
  notReproduced: number;
  /** Calls the journal had no answer for: their request changed, or the run stopped before it made them (sent to the endpoint with --live). */
  misses: Array<{ role: string; problem: string; iteration: number; index: number }>;
  /** Problems the log shows started and never completed: the run stopped before its end, and the replay goes on past where its log ends. */
  unfinished: number;
}

function keyOf(message: Message): string {
  return `${message.type}\u0000${message.correlation}`;
}

/** No long text is read: an outline stands for each (store.ts, envelopeOutlines). */
const NO_TEXTS = () => false;

/** 48 bits of the MD5 of a message's outline, as a number: collisions between two versions of one key do not happen in practice. */
function outlineDigest(message: Message): number {
  return createHash('md5').update(JSON.stringify(message)).digest().readUIntBE(0, 6);
}

/** Marks a key the replay produced (or one dropped): a second replayed message of it is not compared again. */
const TAKEN = -1;

/** The logged versions of each key: sequence numbers and digests in two growing arrays, a key's first version by index. */
class LoggedIndex {
  private readonly first = new Map<string, number>();
  /** Versions after the first (a message logged again by a resume), rare. */
  private readonly more = new Map<string, number[]>();
  private seqs = new Float64Array(1024);
  private digests = new Float64Array(1024);
  private count = 0;
  /** Keys logged and not yet produced by the replay. */
  untaken = 0;

  add(key: string, seq: number, digest: number): void {
    if (this.count === this.seqs.length) {
      this.seqs = grown(this.seqs);
      this.digests = grown(this.digests);
    }
    const version = this.count++;
    this.seqs[version] = seq;
    this.digests[version] = digest;
    const first = this.first.get(key);
    if (first === undefined) {
      this.first.set(key, version);
      this.untaken++;
    } else {
      const more = this.more.get(key);
      if (more) more.push(version);
      else this.more.set(key, [version]);
    }
  }

  /** The logged versions of a key as [seq, digest] pairs, the key then taken; null when it was taken before. */
  take(key: string): Array<[number, number]> | null {
    const first = this.first.get(key);
    if (first === TAKEN) return null;
    this.first.set(key, TAKEN);
    if (first === undefined) return [];
    this.untaken--;
    return [first, ...(this.more.get(key) ?? [])].map((version) => [this.seqs[version] as number, this.digests[version] as number]);
  }

  /** Forgets a key's logged versions, as if it had never been logged. */
  drop(key: string): void {
    const first = this.first.get(key);
    if (first === undefined || first === TAKEN) return;
    this.first.delete(key);
    this.untaken--;
  }
}

function grown(array: Float64Array<ArrayBuffer>): Float64Array<ArrayBuffer> {
  const bigger = new Float64Array(array.length * 2);
  bigger.set(array);
  return bigger;
}

/**
 * Compares the replayed messages (seq ≥ logEnd) with the logged ones (seq < logEnd) of one store.
 *
 * A run extended with `--resume --max-iterations` logged some messages more than once: the first
 * process's `problem.completed {iterations: 2}` and the extension's `{iterations: 3}`, its
 * `problem.started {fromIteration: 2}`. Both belong to the run's history, so a replayed message
 * matches when it equals any logged version of its (type, correlation).
 */
export async function compareLogs(work: string, logEnd: number): Promise<ReplayReport> {
  const store = await Store.open(work);
  try {
    const logged = new LoggedIndex();
    const answered = new Set<string>();
    const unfinished = new Set<string>();
    for await (const envelope of store.envelopeOutlines(NO_TEXTS, { lt: seqKey(logEnd) })) {
      const { message } = envelope;
      logged.add(keyOf(message), envelope.seq, outlineDigest(message));
      if (message.type.endsWith('.completed')) answered.add(message.correlation);
      if (message.type === 'problem.started') unfinished.add(message.problem);
      else if (message.type === 'problem.completed') unfinished.delete(message.problem);
    }
    // A call that failed and later succeeded (on resume) is its reply: the replay, served by the journal, never fails it.
    for (const correlation of answered) logged.drop(`llm.failed\u0000${correlation}`);
    answered.clear();
    const misses: ReplayReport['misses'] = [];
    let divergence: ReplayReport['divergence'] = null;
    let compared = 0;
    for await (const replayed of store.envelopeOutlines(NO_TEXTS, { gte: seqKey(logEnd) })) {
      const { message } = replayed;
      if (message.type === 'llm.failed' && message.code === 'TMAS_REPLAY_MISS') {
        misses.push({ role: message.role, problem: message.problem, iteration: message.iteration, index: message.index });
      }
      const versions = logged.take(keyOf(message));
      if (versions === null) continue;
      compared++;
      // Past the first divergence only the counts are left to make.
      if (divergence !== null) continue;
      const digest = outlineDigest(message);
      if (versions.some(([, logged]) => logged === digest)) continue;
      divergence = await compareWhole(store, replayed.seq, versions);
    }
    return { identical: divergence === null && logged.untaken === 0, compared, divergence, notReproduced: logged.untaken, misses, unfinished: unfinished.size };
  } finally {
    await store.close();
  }
}

/** A replayed message compared whole, texts read back, with its logged versions: null when one is the same, else the divergence. */
async function compareWhole(store: Store, seq: number, versions: Array<[number, number]>): Promise<ReplayReport['divergence']> {
  const replayed = await store.getMessage(seq);
  if (!replayed) throw new TmasError('TMAS_STORE', `replayed message ${seq} is missing from the replay's store`);
  const text = JSON.stringify(replayed.message);
  let last: Envelope | null = null;
  for (const [loggedSeq] of versions) {
    last = (await store.getMessage(loggedSeq)) ?? null;
    if (last && JSON.stringify(last.message) === text) return null;
  }
  return { replayed, logged: last };
}
