/**
 * The problem list of the viewer: per problem, across the runs selected, the
 * figures a researcher sorts and filters by: final Pass@1, changes between
 * iterations, judge ≠ rule grades, disagreement between the runs, tokens and
 * failed calls.
 *
 * A run's figures are folded once per open store (its iteration records as
 * the metrics grade them, and its journal read without its long texts for the
 * tokens) and kept with it: one entry per problem, so they are as large as the
 * problem file, not the run. A list answer is one bounded page of the sorted rows.
 */
import type { CandidateResult } from '../kernel/protocol.ts';
import { identityDigest, problemDifferences } from '../input/problem-identity.ts';
import { scoreIteration } from '../observers/metrics.ts';
import type { CallRecord, Store } from '../store/store.ts';
import { outlineTexts } from '../store/texts.ts';

/** One problem's figures in one run. */
export interface RunProblemStats {
  problem: string;
  ordinal: number;
  /** Iterations completed. */
  iterations: number;
  /** Pass@1 of the last completed iteration, graded as the metrics grade it. */
  pass1: number | null;
  /** The majority-vote answer of the last completed iteration. */
  answer: string | null;
  /** Iterations after the first whose majority-vote answer or Pass@1 differs from the iteration before. */
  changes: number;
  /** Candidates, over every iteration, whose judge grade and rule grade differ. */
  judgeRule: number;
  /** Prompt and completion tokens of every journaled call of the problem. */
  tokens: number;
  /** Calls behind its candidates that failed for good, over every iteration. */
  failures: number;
  /** Digests of its question and reference answer: two runs' problems of one id are one problem only when both agree. */
  given: { question: string; answer: string };
}

const folded = new WeakMap<Store, Promise<Map<string, RunProblemStats>>>();

function foldIteration(stats: RunProblemStats, candidates: CandidateResult[]): void {
  const figures = scoreIteration(candidates);
  if (stats.iterations > 0 && (figures.answer !== stats.answer || figures.pass1 !== stats.pass1)) stats.changes++;
  stats.iterations++;
  stats.pass1 = figures.pass1;
  stats.answer = figures.answer;
  stats.judgeRule += figures.disagreements;
  stats.failures += candidates.reduce((sum, c) => sum + c.failures.length, 0);
}

async function foldRun(store: Store): Promise<Map<string, RunProblemStats>> {
  const byId = new Map<string, RunProblemStats>();
  let ordinal = 0;
  for await (const value of store.problems().values()) {
    const problem = value as { id: string; question: string; answer?: string };
    byId.set(problem.id, { problem: problem.id, ordinal: ordinal++, iterations: 0, pass1: null, answer: null, changes: 0, judgeRule: 0, tokens: 0, failures: 0, given: identityDigest(problem) });
  }
  // Records stream in input order, then iteration order: each problem's come one after the other.
  for await (const record of store.iterationRecords({}, ['problem', 'candidates'])) {
    const stats = byId.get(record.problem);
    if (stats) foldIteration(stats, record.candidates);
  }
  // The journal without its long texts: only the usage is read, and reading texts back is most of a read's time.
  for await (const stored of store.calls().values()) {
    const call = outlineTexts(stored) as CallRecord;
    const stats = byId.get(call.problem);
    if (stats && call.usage) stats.tokens += call.usage.promptTokens + call.usage.completionTokens;
  }
  return byId;
}

/** A run's per-problem figures, folded once per open store. */
export function runProblemStats(store: Store): Promise<Map<string, RunProblemStats>> {
  let stats = folded.get(store);
  if (!stats) {
    stats = foldRun(store);
    folded.set(store, stats);
    stats.catch(() => folded.delete(store));
  }
  return stats;
}

/** The columns the list sorts by. */
export const SORT_KEYS = ['id', 'pass1', 'changes', 'judgeRule', 'disagreement', 'tokens', 'failures'] as const;
/** A column the list sorts by. */
export type SortKey = (typeof SORT_KEYS)[number];

/** A problem list request: the runs, the sort, the filters (each given one must hold) and the page. */
export interface ProblemListQuery {
  runs: number[];
  sort: SortKey;
  desc: boolean;
  /** Final Pass@1 (mean over the runs): `zero`, `partial` (strictly between), `full`. */
  pass: 'zero' | 'partial' | 'full' | null;
  /** Only problems whose answer or grade changed between iterations. */
  changed: boolean;
  /** Only problems with a candidate the judge and the rule grade differently. */
  judge: boolean;
  /** Only problems the runs grade differently. */
  disagree: boolean;
  /** Only problems with a failed call. */
  failed: boolean;
  minTokens: number;
  /** A piece of the problem id. */
  search: string;
  from: number;
  limit: number;
}

/** One row of the list: the figures across the runs, and each run's own (null where the run lacks the problem). */
export interface ProblemListRow {
  id: string;
  /** Mean of the runs' final Pass@1. */
  pass1: number | null;
  changes: number;
  judgeRule: number;
  /** Highest minus lowest final Pass@1 among the runs; null with fewer than two graded. */
  disagreement: number | null;
  tokens: number;
  failures: number;
  runs: Array<RunProblemStats | null>;
  /**
   * Per run, what of its problem of this id differs from the first run's that has it (`question`, `reference answer`):
   * another version of the data set is another problem, left out of the row's figures. Empty where it is the same.
   */
  otherProblem: string[][];
}

/** Rows per page at most. */
export const MAX_PAGE_ROWS = 500;

function numberParam(params: URLSearchParams, name: string, fallback: number): number {
  const value = Number(params.get(name) ?? '');
  return params.get(name) === null || params.get(name) === '' || !Number.isFinite(value) ? fallback : value;
}

/** Reads a problem list request from a URL's query; what is missing or unknown takes its default. */
export function problemListQuery(params: URLSearchParams): ProblemListQuery {
  const sort = params.get('sort') as SortKey | null;
  const pass = params.get('pass');
  return {
    runs: [...new Set((params.get('runs') ?? '0').split(',').filter((part) => /^\d+$/.test(part)).map(Number))],
    sort: sort !== null && SORT_KEYS.includes(sort) ? sort : 'id',
    desc: params.get('desc') === '1',
    pass: pass === 'zero' || pass === 'partial' || pass === 'full' ? pass : null,
    changed: params.get('changed') === '1',
    judge: params.get('judge') === '1',
    disagree: params.get('disagree') === '1',
    failed: params.get('failed') === '1',
    minTokens: numberParam(params, 'tokens', 0),
    search: (params.get('q') ?? '').toLowerCase(),
    from: Math.max(0, Math.floor(numberParam(params, 'from', 0))),
    limit: Math.min(MAX_PAGE_ROWS, Math.max(1, Math.floor(numberParam(params, 'limit', 50)))),
  };
}

function rowOf(id: string, perRun: Array<RunProblemStats | null>): ProblemListRow {
  const shown = perRun.find((s): s is RunProblemStats => s !== null);
  const otherProblem = perRun.map((s) => (shown && s ? problemDifferences(shown.given, s.given) : []));
  // A paired figure (the mean, the disagreement) over two different problems measures nothing: only the row's own problem counts.
  const present = perRun.filter((s, i): s is RunProblemStats => s !== null && otherProblem[i]?.length === 0);
  const graded = present.flatMap((s) => (s.pass1 === null ? [] : [s.pass1]));
  const sum = (pick: (s: RunProblemStats) => number) => present.reduce((total, s) => total + pick(s), 0);
  return {
    id,
    pass1: graded.length === 0 ? null : graded.reduce((a, b) => a + b, 0) / graded.length,
    changes: sum((s) => s.changes),
    judgeRule: sum((s) => s.judgeRule),
    disagreement: graded.length < 2 ? null : Math.max(...graded) - Math.min(...graded),
    tokens: sum((s) => s.tokens),
    failures: sum((s) => s.failures),
    runs: perRun,
    otherProblem,
  };
}

function keeps(row: ProblemListRow, query: ProblemListQuery): boolean {
  if (query.search !== '' && !row.id.toLowerCase().includes(query.search)) return false;
  if (query.pass === 'zero' && row.pass1 !== 0) return false;
  if (query.pass === 'full' && row.pass1 !== 1) return false;
  if (query.pass === 'partial' && (row.pass1 === null || row.pass1 <= 0 || row.pass1 >= 1)) return false;
  if (query.changed && row.changes === 0) return false;
  if (query.judge && row.judgeRule === 0) return false;
  if (query.disagree && !(row.disagreement !== null && row.disagreement > 0)) return false;
  if (query.failed && row.failures === 0) return false;
  return row.tokens >= query.minTokens;
}

/** Orders rows by a column; rows without a value go last in either direction, ties keep the input order. */
function compareBy(sort: SortKey, desc: boolean): (a: ProblemListRow, b: ProblemListRow) => number {
  return (a, b) => {
    const x = a[sort];
    const y = b[sort];
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
    const order = typeof x === 'string' ? x.localeCompare(y as string, undefined, { numeric: true }) : x - (y as number);
    return desc ? -order : order;
  };
}

/** One page of the problem list over the runs' figures (in the order of `query.runs`). */
export function problemList(perRun: Array<Map<string, RunProblemStats>>, query: ProblemListQuery): { rows: ProblemListRow[]; total: number; matched: number; next: number | null; otherProblems: number } {
  const ids = new Set<string>();
  for (const stats of perRun) for (const id of stats.keys()) ids.add(id);
  const rows = [...ids].map((id) => rowOf(id, perRun.map((stats) => stats.get(id) ?? null)));
  const kept = rows.filter((row) => keeps(row, query)).sort(compareBy(query.sort, query.desc));
  const end = query.from + query.limit;
  // How many ids name another problem in some run: the page says so, since their rows leave those runs out.
  const otherProblems = rows.filter((row) => row.otherProblem.some((what) => what.length > 0)).length;
  return { rows: kept.slice(query.from, end), total: rows.length, matched: kept.length, next: end < kept.length ? end : null, otherProblems };
}
