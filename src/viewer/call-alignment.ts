/**
 * A problem's calls and candidates in several runs, aligned: each call next
 * to its counterpart (the same iteration, role and index, the n-th such call
 * in the order they started), each candidate next to its counterpart (the
 * same iteration and number). Two calls are the same request when their
 * journal keys are: a key names what the call is about and ends with the
 * digest of everything that shapes its request (model, window, prompt,
 * temperature, seed, sampling: host/calls/llm-call.ts), so a changed prompt is a
 * changed key.
 */
import type { IterationRecord } from '../store/store.ts';
import { gradeOf } from './queries.ts';

/** A journaled call as the comparison reads it: no texts. */
export interface CallOutline {
  key: string;
  role: string;
  iteration: number;
  index: number;
  startedAt: number;
  tokens: number | null;
}

/** One run's call in a row. */
export interface AlignedCall {
  key: string;
  /** The digest of its request: the key's last part. */
  digest: string;
  tokens: number | null;
}

/** A call and its counterparts, one per run (null where a run made none). */
export interface CallRow {
  /** `iteration/role/index#n`: the row's place, the same in every run. */
  slot: string;
  iteration: number;
  role: string;
  index: number;
  /** `candidate 1 · summary`, or the role for a call about the problem. */
  name: string;
  calls: Array<AlignedCall | null>;
  /** Every run made the call, with the same request. */
  same: boolean;
}

/** A candidate's answer and grade in one run. */
export interface CandidateOutcome {
  answer: string | null;
  correct: boolean | null;
}

/** A candidate of an iteration and its counterparts, one per run (null where a run has none). */
export interface CandidateRow {
  iteration: number;
  candidate: number;
  results: Array<CandidateOutcome | null>;
  /** The runs part here: an answer or a grade differs, or a run lacks the candidate. */
  parts: boolean;
}

function byStart(a: CallOutline, b: CallOutline): number {
  return a.iteration - b.iteration || a.startedAt - b.startedAt || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

/**
 * The rows of the runs' calls, by iteration, then in the order the calls
 * started in the first run that made each (a call only a later run made
 * takes its place in that run's order).
 */
export function alignCalls(perRun: CallOutline[][], nameOf: (role: string, index: number) => string): CallRow[] {
  const rows = new Map<string, { row: CallRow; order: [number, number, number] }>();
  perRun.forEach((calls, run) => {
    const made = new Map<string, number>();
    let rank = 0;
    let iteration = -1;
    for (const call of [...calls].sort(byStart)) {
      if (call.iteration !== iteration) [rank, iteration] = [0, call.iteration];
      const place = `${call.iteration}/${call.role}/${call.index}`;
      const nth = made.get(place) ?? 0;
      made.set(place, nth + 1);
      const slot = `${place}#${nth}`;
      let entry = rows.get(slot);
      if (entry === undefined) {
        const row: CallRow = { slot, iteration: call.iteration, role: call.role, index: call.index, name: nameOf(call.role, call.index), calls: perRun.map(() => null), same: false };
        entry = { row, order: [call.iteration, rank, run] };
        rows.set(slot, entry);
      }
      entry.row.calls[run] = { key: call.key, digest: call.key.slice(call.key.lastIndexOf('/') + 1), tokens: call.tokens };
      rank++;
    }
  });
  const sorted = [...rows.values()].sort((a, b) => a.order[0] - b.order[0] || a.order[1] - b.order[1] || a.order[2] - b.order[2]);
  return sorted.map(({ row }) => ({ ...row, same: row.calls.every((call) => call !== null && call.key === row.calls[0]?.key) }));
}

function parts(results: Array<CandidateOutcome | null>): boolean {
  const [first] = results;
  return results.some((r) => r === null || first === null || first === undefined || r.answer !== first.answer || r.correct !== first.correct);
}

/** The rows of the runs' candidates, by iteration and candidate number; grades as the metrics count them. */
export function alignCandidates(perRun: IterationRecord[][]): CandidateRow[] {
  const rows = new Map<string, CandidateRow>();
  perRun.forEach((records, run) => {
    for (const record of records) {
      for (const c of record.candidates) {
        const place = `${record.iteration}/${c.candidate}`;
        const row = rows.get(place) ?? { iteration: record.iteration, candidate: c.candidate, results: perRun.map(() => null), parts: false };
        rows.set(place, row);
        row.results[run] = { answer: c.answer, correct: gradeOf(c) };
      }
    }
  });
  return [...rows.values()].sort((a, b) => a.iteration - b.iteration || a.candidate - b.candidate).map((row) => ({ ...row, parts: parts(row.results) }));
}
