/**
 * The iterations a store lost before a problem's last one. Records are only
 * ever added, iteration after iteration, so a problem's records run from 0
 * without a gap; a repair that drops a damaged block can leave one (iteration
 * 0 lost, iteration 1 kept). A resume goes on after each problem's last
 * iteration and never redoes one before it, so such a gap stays, and the
 * figures at that iteration count without the problem: the repair says so.
 */
import type { Store } from '../store.ts';

/** `p1 (iteration 0)`, `p2 (iterations 0-2)`: one entry per problem whose iteration records have a gap before its last. */
export async function iterationGaps(store: Store): Promise<string[]> {
  const ids = (await store.loadProblems()).map((problem) => problem.id);
  const gaps: string[] = [];
  let [ordinal, expected] = [-1, 0];
  for await (const key of store.iterations().keys()) {
    const [at, iteration] = key.split('!').map(Number) as [number, number];
    if (at !== ordinal) [ordinal, expected] = [at, 0];
    if (iteration > expected) {
      const missing = iteration - 1 === expected ? `iteration ${expected}` : `iterations ${expected}-${iteration - 1}`;
      gaps.push(`${ids[at] ?? `problem ${at + 1} of the input`} (${missing})`);
    }
    expected = iteration + 1;
  }
  return gaps;
}
