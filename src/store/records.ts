/**
 * What the store holds, record by record: a journaled call, the manifest, an
 * iteration's state and banks, and how their keys are made and ranged.
 */
import type { BankStats, CandidateResult, ExperienceRecord, FittedValues, GuidelineRecord, Rollout } from '../kernel/protocol.ts';
import type { Sampling } from '../gateway/reply/completion.ts';
import type { ReasoningDialect } from '../gateway/reply/reasoning.ts';

/** A completed LLM call as the journal keeps it. */
export interface CallRecord {
  key: string;
  role: string;
  problem: string;
  iteration: number;
  index: number;
  request: {
    baseUrl: string;
    model: string;
    messages: Array<{ role: string; content: string }>;
    maxTokens: number;
    temperature: number | null;
    seed: number;
    /** top_p, top_k, min_p and --extra-body, when any was set. */
    sampling?: Sampling;
  };
  /** What fitting the prompt to the window gave: its token count and the parts it left out; for a templated system message, its values kept (absent otherwise and in older journals). */
  fit: { promptTokens: number; dropped: string[]; systemValues?: FittedValues };
  /** `reasoningDialect`: how the reasoning arrived, when there was some; `model`: the model the reply named, when another than asked. */
  response: { content: string; reasoning: string | null; finishReason: string; reasoningDialect?: ReasoningDialect; model?: string };
  /**
   * `estimated`: the reply had no usage block, so the run's tokenizer counted it. `reasoningBeside`: of
   * `completionTokens`, the reasoning tokens the server counted beside its completion tokens, which its
   * completion limit did not bound (absent when none). `reasoningApart`: of `completionTokens`, the reasoning
   * tokens a server that counts them among its completion tokens held apart from its completion limit
   * (DeepSeek's reasoner; absent when none).
   */
  usage: { promptTokens: number; completionTokens: number; estimated?: true; reasoningBeside?: number; reasoningApart?: number };
  /** `firstTokenMs`: time to the first streamed text, when streamed. */
  timings: { startedAt: number; latencyMs: number; firstTokenMs?: number };
  attempts: number;
  /**
   * A fork's judge call answered from the run it was forked from, where the same request was asked at
   * another iteration (so with that iteration's seed): the key it was journaled under there. The
   * record is otherwise that run's, `request` included, as it was sent (host/calls/journal-source.ts).
   */
  askedAs?: string;
}

/** What a journaled call answered: all that a resume or a replay reads of it. */
export type CallAnswer = Pick<CallRecord, 'fit' | 'response' | 'usage'>;

/** The fields of a call record that make its answer. */
export const ANSWER_FIELDS = ['fit', 'response', 'usage'] as const satisfies ReadonlyArray<keyof CallAnswer>;

/**
 * What a run directory says about its run. Never holds an API key. The store
 * keeps `config` as it is given and never reads it: its type (`C`) and its
 * upgrades from older versions belong to the host (src/host/run/run-manifest.ts).
 */
export interface Manifest<C = unknown> {
  run: string;
  config: C;
  configHash: string;
  tmasVersion: string;
  /** The journal version it was written under (src/kernel/journal-version.ts). */
  journalVersion: number;
  simulated: boolean;
  strategy: string;
  createdAt: string;
  /** A run made by `tmas fork`: the run it came from; absent in every other run (and in runs made before forks existed). */
  forkedFrom?: ForkedFrom;
  /** Each resume with --force that changed what the calls are while iterations were already done, in order; absent when none did. */
  forcedChanges?: ForcedChange[];
}

/** A manifest as stored, its fields under today's names: runs written before the journal version had its name stored it as `protocolVersion`. */
export function manifestOf(stored: unknown): Manifest | undefined {
  if (stored === undefined) return undefined;
  const { protocolVersion, ...manifest } = stored as Manifest & { protocolVersion?: number };
  return protocolVersion === undefined ? manifest : { ...manifest, journalVersion: protocolVersion };
}

/**
 * Where a forked run came from: the run's id, its directory as the fork was
 * given it (absolute), and the flags whose values the fork changed, each once
 * (`--agents`, `--n-verifications`, …), in the order of `tmas run --help`.
 */
export interface ForkedFrom {
  run: string;
  dir: string;
  changed: string[];
}

/**
 * A resume with --force that changed settings shaping the calls (`--temperature`, `--n-candidates`, …) of a
 * run whose iterations were partly done: those iterations are kept as they were made, under the earlier
 * settings, and the change applies from each problem's next iteration on. `iterationsKept`: the most
 * iterations any problem had done; `problemIterationsKept`: the iterations done over all problems.
 */
export interface ForcedChange {
  changed: string[];
  iterationsKept: number;
  problemIterationsKept: number;
}

/** `iteration 0`, `iterations 0–1`: the iterations a forced change kept, as the warning and the report name them. */
export function keptIterations(change: ForcedChange): string {
  return change.iterationsKept === 1 ? 'iteration 0' : `iterations 0–${change.iterationsKept - 1}`;
}

/** `--temperature changed on resume after iterations 0–1`: a run whose first iterations were made under other settings than it names (the report's settings, the viewer's). */
export function describeForcedChange(change: ForcedChange): string {
  return `${change.changed.join(', ')} changed on resume after ${keptIterations(change)}`;
}

/** One problem's state at the end of an iteration: what resume and `show` need. */
export interface IterationRecord {
  problem: string;
  /** The problem's position in the input file; keys sort by it so outputs follow the input order. */
  ordinal: number;
  iteration: number;
  candidates: CandidateResult[];
  rollouts: Rollout[];
  /** The judge verdicts of the iteration by request key (machines/judge-stage.ts; null: the reply gave none, and its repeats are not asked); absent in runs made before it was kept. */
  judged?: Record<string, boolean | null>;
  /** What the iteration's `bank.updated` said (strategies with banks); absent in runs made before it was kept. */
  bank?: BankStats;
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

/** The key of a problem's iteration in the `iterations` and `banks` sublevels: input position, then iteration. */
export function iterationKey(ordinal: number, iteration: number): string {
  return `${String(ordinal).padStart(6, '0')}!${String(iteration).padStart(4, '0')}`;
}

/** The key range of one problem's iteration records (and banks): every iteration key of its ordinal. */
export function problemRange(ordinal: number): { gte: string; lt: string } {
  const prefix = `${String(ordinal).padStart(6, '0')}!`;
  return { gte: prefix, lt: `${prefix}~` };
}

/** A key range of a sublevel, as LevelDB's iterators take it. */
export interface RecordRange {
  gt?: string;
  gte?: string;
  lt?: string;
  lte?: string;
  reverse?: boolean;
  limit?: number;
}

/** The most bytes one native read of a streamed range takes (classic-level's default, 16 kB, is a dozen calls of a run). */
const ITERATOR_BYTES = 2 ** 20;

/** A range with the iterator options of a streamed read (record-reads.ts): up to ITERATOR_BYTES per native call. */
export function batchedRange(range: RecordRange = {}): RecordRange {
  // classic-level's own option, which a sublevel passes on to it (abstract-level's types do not name it).
  const options: RecordRange & { highWaterMarkBytes: number } = { ...range, highWaterMarkBytes: ITERATOR_BYTES };
  return options;
}
