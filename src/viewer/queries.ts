/**
 * The viewer's reads of a run's store. Each one walks a LevelDB key range with
 * a limit, or a bounded number of records, so that a page of a run of any size
 * costs the same and nothing of the run is held between requests.
 */
import { errorMessageFilter } from './error-messages.ts';
import type { CandidateResult, Envelope } from '../kernel/protocol.ts';
import type { Problem } from '../input/problems.ts';
import type { BankRecord, CallRecord, IterationRecord, Store } from '../store/store.ts';

/** Most records one request reads before it answers with what it has and a cursor to go on from. */
export const SCAN_BUDGET = 5000;

/** The key of a problem in the `problems` sublevel: its input position, zero-padded. */
export function ordinalKey(ordinal: number): string {
  return String(ordinal).padStart(6, '0');
}

/** A row of the problem table: the problem and its last completed iteration's candidates, in brief. */
export interface ProblemRow {
  ordinal: number;
  id: string;
  answer: string | null;
  iterations: number;
  /** Per candidate of the last iteration: its answer, grade (rule; the judge's majority when judged) and score. */
  candidates: Array<{ answer: string | null; correct: boolean | null; score: number | null; failures: number }>;
}

/**
 * A candidate's grade as the metrics count it: the judge's when it gave
 * verdicts (correct only when more than half of its parseable passes say so,
 * so a 2-2 split is not correct), else the rule-based grader's.
 */
export function gradeOf(candidate: CandidateResult): boolean | null {
  if (candidate.correctJudge !== null && candidate.correctJudge !== undefined) return candidate.correctJudge > 0.5;
  return candidate.correct;
}

/** Which problems a table page keeps: all, those with a correct or a wrong candidate, or those with failed calls. */
export type ProblemFilter = 'all' | 'correct' | 'wrong' | 'failed';

async function lastRecord(store: Store, ordinal: number): Promise<IterationRecord | undefined> {
  const prefix = `${ordinalKey(ordinal)}!`;
  for await (const record of store.iterationRecords({ gte: prefix, lt: `${prefix}~`, reverse: true, limit: 1 })) return record;
  return undefined;
}

function keeps(filter: ProblemFilter, row: ProblemRow, search: string): boolean {
  if (search !== '' && !row.id.toLowerCase().includes(search)) return false;
  if (filter === 'correct') return row.candidates.some((c) => c.correct === true);
  if (filter === 'wrong') return row.candidates.some((c) => c.correct === false);
  if (filter === 'failed') return row.candidates.some((c) => c.failures > 0);
  return true;
}

/** One page of the problem table, from input position `from`; `next` is where the following page starts. */
export async function problemPage(
  store: Store,
  options: { from: number; limit: number; filter: ProblemFilter; search: string },
): Promise<{ rows: ProblemRow[]; next: number | null; total: number }> {
  const rows: ProblemRow[] = [];
  let total = 0;
  for await (const _ of store.problems().keys()) total++;
  let ordinal = options.from;
  for await (const [key, value] of store.problems().iterator({ gte: ordinalKey(options.from) })) {
    ordinal = Number(key);
    if (rows.length >= options.limit) return { rows, next: ordinal, total };
    const problem = value as Problem;
    const record = await lastRecord(store, ordinal);
    const row: ProblemRow = {
      ordinal,
      id: problem.id,
      answer: problem.answer ?? null,
      iterations: record ? record.iteration + 1 : 0,
      candidates: (record?.candidates ?? []).map((c) => ({ answer: c.answer, correct: gradeOf(c), score: c.summaryScore, failures: c.failures.length })),
    };
    if (keeps(options.filter, row, options.search.toLowerCase())) rows.push(row);
  }
  return { rows, next: null, total };
}

/** A problem with its completed iterations (candidates and rollouts; texts of calls are fetched apart). */
export async function problemDetail(store: Store, ordinal: number): Promise<{ problem: Problem; iterations: IterationRecord[] } | undefined> {
  const problem = (await store.problems().get(ordinalKey(ordinal))) as Problem | undefined;
  if (!problem) return undefined;
  const prefix = `${ordinalKey(ordinal)}!`;
  const iterations: IterationRecord[] = [];
  for await (const record of store.iterationRecords({ gte: prefix, lt: `${prefix}~` })) iterations.push(record);
  return { problem, iterations };
}

/** The banks E(t) and G(t) as they stood after an iteration. */
export function banksAfter(store: Store, ordinal: number, iteration: number): Promise<BankRecord | undefined> {
  return store.getBanks(ordinal, iteration);
}

/** Filters of the call list; each given one must match. `search` looks in the prompt, the response and the reasoning. */
export interface CallFilters {
  problem?: string;
  iteration?: number;
  role?: string;
  search?: string;
}

/** The journal key range that holds every call the filters can match (keys start `problem/iteration/role/`). */
export function callRange(filters: CallFilters): { gte?: string; lt?: string } {
  if (filters.problem === undefined) return {};
  let prefix = `${filters.problem}/`;
  if (filters.iteration !== undefined) {
    prefix += `${filters.iteration}/`;
    if (filters.role !== undefined) prefix += `${filters.role}/`;
  }
  return { gte: prefix, lt: `${prefix}\uffff` };
}

/**
 * The journaled calls of one problem whose keys go on with `below` after its
 * id and a `/` (`3/`, `3/judge/`), in key order, at most `limit`. An id may
 * hold a `/`, so the range of `a` at iteration 1 (`a/1/`) also holds every
 * call of a problem named `a/1`: those are skipped, and not counted.
 */
export async function* problemCallsUnder(store: Store, problem: string, below = '', limit = Infinity): AsyncGenerator<CallRecord> {
  if (limit <= 0) return;
  const prefix = `${problem}/${below}`;
  let kept = 0;
  for await (const call of store.callRecords({ gte: prefix, lt: `${prefix}\uffff` })) {
    if (call.problem !== problem) continue;
    yield call;
    if (++kept >= limit) return;
  }
}

/** True when a journaled call passes the filters. */
export function callMatches(call: CallRecord, filters: CallFilters): boolean {
  if (filters.problem !== undefined && call.problem !== filters.problem) return false;
  if (filters.iteration !== undefined && call.iteration !== filters.iteration) return false;
  if (filters.role !== undefined && call.role !== filters.role) return false;
  if (filters.search !== undefined && filters.search !== '') {
    const needle = filters.search.toLowerCase();
    const inPrompt = call.request.messages.some((m) => m.content.toLowerCase().includes(needle));
    if (!inPrompt && !call.response.content.toLowerCase().includes(needle) && !(call.response.reasoning ?? '').toLowerCase().includes(needle)) return false;
  }
  return true;
}

/**
 * Streams the journaled calls that pass the filters, in key order, after the
 * key `after`; stops after `limit` matches or SCAN_BUDGET records read, and
 * says where to go on (`next`, null at the end of the range).
 */
export async function callPage(
  store: Store,
  filters: CallFilters,
  options: { after?: string; limit: number; budget?: number },
): Promise<{ calls: CallRecord[]; next: string | null }> {
  const range = callRange(filters);
  const calls: CallRecord[] = [];
  let scanned = 0;
  let last: string | null = null;
  const budget = options.budget ?? SCAN_BUDGET;
  const bounds = options.after === undefined ? range : { ...range, gte: undefined, gt: options.after };
  for await (const [key, call] of store.callEntries(dropUndefined(bounds))) {
    last = key;
    scanned++;
    if (callMatches(call, filters)) calls.push(call);
    if (calls.length >= options.limit || scanned >= budget) return { calls, next: last };
  }
  return { calls, next: null };
}

function dropUndefined<T extends object>(bounds: T): T {
  return Object.fromEntries(Object.entries(bounds).filter(([, value]) => value !== undefined)) as T;
}

/** Filters of the message list: problem, iteration, and a type or a type prefix ending in `.`. */
export interface MessageFilters {
  problem?: string;
  iteration?: number;
  type?: string;
}

function messageMatches(envelope: Envelope, filters: MessageFilters, isError: (message: Envelope['message']) => boolean): boolean {
  const { message } = envelope;
  if (filters.problem !== undefined && message.problem !== filters.problem) return false;
  if (filters.iteration !== undefined && message.iteration !== filters.iteration) return false;
  // Something went wrong: a call failed for good, an output could not be used, a prompt was cut (error-messages.ts).
  if (filters.type === 'errors') return isError(message);
  if (filters.type !== undefined && !(filters.type.endsWith('.') ? message.type.startsWith(filters.type) : message.type === filters.type)) return false;
  return true;
}

/** One page of the message log after sequence key `after`, bounded as callPage is. */
export async function messagePage(
  store: Store,
  filters: MessageFilters,
  options: { after?: string; limit: number },
): Promise<{ messages: Envelope[]; next: string | null }> {
  const messages: Envelope[] = [];
  let scanned = 0;
  let last: string | null = null;
  const isError = errorMessageFilter();
  for await (const [key, envelope] of store.messageEntries(options.after === undefined ? {} : { gt: options.after })) {
    last = key;
    scanned++;
    if (messageMatches(envelope, filters, isError)) messages.push(envelope);
    if (messages.length >= options.limit || scanned >= SCAN_BUDGET) return { messages, next: last };
  }
  return { messages, next: null };
}
