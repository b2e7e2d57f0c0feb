/**
 * The page's addresses. Routes live in the URL hash; problems are named by
 * their id, URL-encoded, which stays right when the input is reordered.
 */

/** The hash of a page with its query: `#/problems?runs=0,1&sort=tokens`; true is `1`, false and empty values are left out. */
export function hashOf(page: string, query: Record<string, string | boolean | undefined | null>): string {
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '' || value === false) continue;
    pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(value === true ? '1' : value).replace(/%2C/g, ',')}`);
  }
  return `#/${page}${pairs.length ? `?${pairs.join('&')}` : ''}`;
}

/** The runs a query selects (`runs=0,2`), by their index in the runs page's list. */
export function selection(query: Record<string, string | undefined>): number[] {
  return (query.runs || '')
    .split(',')
    .filter((part) => /^\d+$/.test(part))
    .map(Number);
}

/** The page of a problem at an iteration, in a run. */
export function problemHash(runIndex: number, id: string, iteration: number): string {
  return `#/run/${runIndex}/problem/${encodeURIComponent(id)}/${iteration}`;
}

/** The page of one problem side by side in several runs. */
export function compareHash(runIndexes: number[], id: string): string {
  return `#/compare/${runIndexes.join(',')}/problem/${encodeURIComponent(id)}`;
}

/** A journaled call as a JSON download. */
export function callHref(runIndex: number, key: string): string {
  return `/download/${runIndex}/call?key=${encodeURIComponent(key)}`;
}

/** A candidate's transcript as a JSON download. */
export function candidateHref(runIndex: number, id: string, iteration: number, candidate: number): string {
  return `/download/${runIndex}/problem/${encodeURIComponent(id)}/iteration/${iteration}/candidate/${candidate}`;
}

/** A whole problem (its iterations and every call) as a JSON download. */
export function problemHref(runIndex: number, id: string): string {
  return `/download/${runIndex}/problem/${encodeURIComponent(id)}`;
}
