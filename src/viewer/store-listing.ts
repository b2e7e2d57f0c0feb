/**
 * A run's row of the runs page from what is small in its store, for a run
 * listed without its metrics.json (one going on in another process, or
 * stopped before writing it). Folding its message log for the row read every
 * message of the run: 1.75 CPU-s for a run of 13,120 calls, and a 400-problem
 * run of 20 iterations at N = M = 8 holds some fifty times more; a live run's
 * was folded again at every refresh of the page. The row reads instead its
 * manifest, the count of its problems, each problem's last iteration record
 * (a seek each) and, of the last iteration, each problem's record with its
 * texts left out: Pass@1 of that iteration as the log's fold gives it. The
 * calls are not counted (only the log or the journal holds them): the row
 * leaves them blank, and the run's page, which folds the log, has them.
 */
import { gradingOf } from '../report/load.ts';
import { mean, scoreIteration } from '../observers/metrics.ts';
import { iterationKey, problemRange, type IterationRecord } from '../store/store.ts';
import { outlineTexts } from '../store/texts.ts';
import { manifestListing, type RunListing } from './run-listing.ts';
import type { ViewedRun } from './viewed-run.ts';

/** Each problem's last saved iteration (-1: none), by input position. */
async function lastIterations(run: ViewedRun): Promise<number[]> {
  const last: number[] = [];
  for await (const key of run.store.problems().keys()) {
    let found = -1;
    for await (const saved of run.store.iterations().keys({ ...problemRange(Number(key)), reverse: true, limit: 1 })) found = Number(saved.slice(saved.indexOf('!') + 1));
    last.push(found);
  }
  return last;
}

/**
 * Pass@1 of iteration `iteration` over the problems that saved it, as the
 * metrics give it: each problem's share of right candidates (scoreIteration),
 * averaged over the graded ones in the order of their ids.
 */
async function pass1Of(run: ViewedRun, last: number[], iteration: number): Promise<number | null> {
  const byProblem: Array<[string, number | null]> = [];
  for (const [ordinal, saved] of last.entries()) {
    if (saved < iteration) continue;
    const key = iterationKey(ordinal, iteration);
    for await (const stored of run.store.iterations().values({ gte: key, lte: key })) {
      const record = outlineTexts(stored) as IterationRecord;
      byProblem.push([record.problem, scoreIteration(record.candidates).pass1]);
    }
  }
  byProblem.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return mean(byProblem.flatMap(([, pass1]) => (pass1 === null ? [] : [pass1])));
}

/** The row of a run from its store's manifest and counts (see above): never its log. */
export async function listingFromStore(base: RunListing, run: ViewedRun): Promise<RunListing> {
  const last = await lastIterations(run);
  const iterations = Math.max(-1, ...last) + 1;
  return {
    ...manifestListing(base, run, gradingOf({}, run.manifest.config.judge.passes)),
    pass1: iterations === 0 ? null : await pass1Of(run, last, iterations - 1),
    iterations,
    calls: null,
    problems: last.length,
  };
}
