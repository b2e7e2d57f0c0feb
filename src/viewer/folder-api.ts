/**
 * The viewer's answers about the runs together: the runs page's list
 * (`/api/runs`), the overlay of selected runs' curves (`/api/overlay?runs=0,2`),
 * the problem list across selected runs (`/api/problem-list?runs=…&sort=…`)
 * and one problem side by side in selected runs (`/api/compare?runs=0,2&problem=ID`).
 */
import type { RunCatalog } from './run-catalog.ts';
import type { RunListing } from './run-listing.ts';
import { overlayRuns } from './run-compare.ts';
import { problemList, problemListQuery, runProblemStats } from './problem-stats.ts';
import { compareProblem, type ProblemComparison } from './problem-compare.ts';

/** Runs whose listing is read at the same time: each may read a metrics.json or copy a store. */
const LISTING_CONCURRENCY = 8;

/** The runs page: every run's row, whether any is live (the page polls while one is), and what the scan left out. */
export async function listRuns(catalog: RunCatalog): Promise<{ runs: RunListing[]; live: boolean; truncated: string | null }> {
  const runs: RunListing[] = new Array<RunListing>(catalog.size);
  let next = 0;
  const worker = async () => {
    while (next < catalog.size) {
      const index = next++;
      runs[index] = await catalog.listing(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(LISTING_CONCURRENCY, catalog.size) }, worker));
  return { runs, live: runs.some((run) => run.status === 'live'), truncated: catalog.truncated };
}

function selectedRuns(catalog: RunCatalog, params: URLSearchParams): number[] {
  const indexes = (params.get('runs') ?? '').split(',').filter((part) => /^\d+$/.test(part)).map(Number);
  return [...new Set(indexes)].filter((index) => index < catalog.size);
}

/** The answer of `/api/<what>`; undefined when it names nothing (a problem no run selected has). */
export async function answerFolder(catalog: RunCatalog, what: string, params: URLSearchParams): Promise<unknown> {
  if (what === 'compare') return compareProblem(catalog, selectedRuns(catalog, params), params.get('problem') ?? '') satisfies Promise<ProblemComparison | undefined>;
  if (what === 'overlay') return overlayRuns(catalog, selectedRuns(catalog, params));
  if (what === 'problem-list') {
    const query = problemListQuery(params);
    query.runs = query.runs.filter((index) => index < catalog.size);
    const stats = await Promise.all(query.runs.map(async (index) => runProblemStats((await catalog.run(index)).store)));
    return { runs: query.runs, ...problemList(stats, query) };
  }
  return listRuns(catalog);
}
