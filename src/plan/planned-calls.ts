/**
 * The calls a strategy promises for one problem, iteration by iteration, from
 * its own declarations (machines/contract.ts): `expectedCalls` (exact), and
 * `callBounds` for the roles whose count the replies decide (an upper bound).
 * An iteration's calls are what a run of one more iteration adds, so no
 * strategy has to say how its calls fall into iterations.
 */
import type { LoopSettings, Strategy } from '../../machines/contract.ts';

/** One problem's calls by iteration and role, and what kind of count each role's is. */
export interface PlannedCounts {
  /** perIteration[t][role]: the calls of iteration t. */
  perIteration: Array<Record<string, number>>;
  /** Roles whose count is an upper bound (the run may stop them early). */
  bounded: string[];
  /** Roles of the strategy with no count at all: the plan leaves them out. */
  uncounted: string[];
}

/**
 * The most judge calls of a strategy that does not count its own: each of its
 * passes over each response a candidate-writing role (kind `solution`) can
 * write, since the judge grades every candidate once per pass and an
 * identical request (a candidate kept into a later iteration) reuses its
 * verdict.
 */
function judgeBound(strategy: Strategy, settings: LoopSettings, counts: Record<string, number>): number {
  const writers = Object.keys(counts).filter((role) => strategy.definitions?.[role]?.kind === 'solution');
  return (settings.judgePasses ?? 0) * writers.reduce((sum, role) => sum + (counts[role] ?? 0), 0);
}

function countsOf(strategy: Strategy, settings: LoopSettings, judged: boolean): { exact: Record<string, number>; bounds: Record<string, number> } {
  const exact = { ...strategy.expectedCalls(settings, { from: 0, judged }) } as Record<string, number>;
  const bounds = { ...(strategy.callBounds?.(settings) ?? {}) } as Record<string, number>;
  const declared = exact.judge ?? bounds.judge;
  delete exact.judge;
  delete bounds.judge;
  // Judge calls are a bound: under --judge-when unsure only the candidates the rule is unsure of are
  // judged, and an identical judge request reuses its verdict (the demo: 2,554 of 2,560 asked).
  const judge = judged ? (declared ?? judgeBound(strategy, settings, { ...exact, ...bounds })) : 0;
  if (judge > 0) bounds.judge = judge;
  return { exact, bounds };
}

/** One problem's planned calls under `settings` (judged: the problem has a reference the judge checks). */
export function plannedCounts(strategy: Strategy, settings: LoopSettings, judged: boolean): PlannedCounts {
  const totals = (iterations: number): Record<string, number> => {
    const { exact, bounds } = countsOf(strategy, { ...settings, maxIterations: iterations }, judged);
    return { ...exact, ...bounds };
  };
  const perIteration: Array<Record<string, number>> = [];
  let before: Record<string, number> = {};
  for (let t = 0; t < settings.maxIterations; t++) {
    const upTo = totals(t + 1);
    const own: Record<string, number> = {};
    for (const [role, count] of Object.entries(upTo)) if (count - (before[role] ?? 0) > 0) own[role] = count - (before[role] ?? 0);
    perIteration.push(own);
    before = upTo;
  }
  const { exact, bounds } = countsOf(strategy, settings, judged);
  // The judge is a role of the run only where it has passes and the problem a reference.
  const roles = new Set([...Object.keys(strategy.roles).filter((role) => role !== 'judge'), ...(judged && (settings.judgePasses ?? 0) > 0 ? ['judge'] : [])]);
  const uncounted = [...roles].filter((role) => exact[role] === undefined && bounds[role] === undefined);
  return { perIteration, bounded: Object.keys(bounds), uncounted };
}
