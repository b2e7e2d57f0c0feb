/**
 * Rankings that know part of what the clairvoyant one knows (schedule-rules.ts
 * PARTLY_CLAIRVOYANT): each call's chain to its problem's end is the part it
 * knows, true, plus the rest as the run's means. Where tmas's order stands
 * between them says which knowledge its gap to the bar is made of: the lengths
 * of the calls waiting now, or those of the iterations to come.
 */
import type { IterationPlan } from './schedule-plans.ts';

/** Which lengths a partly clairvoyant ranking knows: the problem's later iterations, or the iteration under way. */
export type Knowing = 'later' | 'current';

/** A call's chain as a ranking sees it, from its true chain within its iteration (`within`: from the call to the iteration's banks) and after it (`later`). */
export type KnownChain = (role: string, within: number, later: number, iterationsAfter: number) => number;

/** The whole truth: the clairvoyant ranking's chain. */
export const TRUE_CHAIN: KnownChain = (_role, within, later) => within + later;

/** The chain a ranking knowing `knows` sees on the draw `plans`, the unknown part as the draw's own mean. */
export function knownChain(knows: Knowing, plans: IterationPlan[][]): KnownChain {
  const { withinByRole, iteration } = meansOf(plans);
  if (knows === 'later') return (role, _within, later) => (withinByRole.get(role) ?? 0) + later;
  return (_role, within, _later, iterationsAfter) => within + iterationsAfter * iteration;
}

/** The mean chain within an iteration from a call of each role, and the mean longest chain of an iteration. */
function meansOf(plans: IterationPlan[][]): { withinByRole: Map<string, number>; iteration: number } {
  const sums = new Map<string, { sum: number; count: number }>();
  const add = (role: string, value: number) => {
    const entry = sums.get(role) ?? { sum: 0, count: 0 };
    entry.sum += value;
    entry.count++;
    sums.set(role, entry);
  };
  let iterations = 0;
  let longest = 0;
  for (const plan of plans.flat()) {
    const banks = Math.max(...plan.banks);
    plan.solutions.forEach((solution, k) => {
      const checks = plan.checks[k] as number[];
      const summary = plan.summaries[k] as number;
      add('solution', solution + Math.max(...checks) + summary + banks);
      for (const check of checks) add('verification', check + summary + banks);
      add('summary', summary + banks);
    });
    plan.banks.forEach((bank, b) => add(b === 0 ? 'experience' : 'guideline', bank));
    iterations++;
    longest += plan.longest;
  }
  const withinByRole = new Map([...sums].map(([role, { sum, count }]) => [role, sum / count]));
  return { withinByRole, iteration: iterations === 0 ? 0 : longest / iterations };
}
