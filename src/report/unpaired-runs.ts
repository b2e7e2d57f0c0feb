/**
 * The runs of a report that its paired difference cannot be taken for: a run set against a reference (another
 * method against TMAS, a fork against its source) that is in another comparison group (graded otherwise, by another
 * judge or model, over other problems or T). The Markdown report gave them a paired difference all the same
 * ("Pass@1 − a: -16.7 [-50.0, 0.0]" for a run graded by a judge against one graded by the rule), and said that the
 * runs do not all compare only below the runs table: a reader took the difference for a measured one. The
 * report now says at its top which runs it did not pair, and why. Only grading and problems unpair: a fork that
 * changes N, a model or T is an ablation whose difference from its source is the very figure it was run for.
 */
import { basisDifferences, comparisonBasis, type RunGroup } from './comparable.ts';
import type { DifferenceBasis } from './difference-basis.ts';
import type { ReportRun } from './load.ts';

/** A run left without its paired difference: the run, the reference it would be read against, and both groups. */
export interface UnpairedRun {
  run: ReportRun;
  reference: ReportRun;
  group: RunGroup;
  referenceGroup: RunGroup;
}

/** The group holding run index `r`. */
function groupOf(groups: RunGroup[], r: number): RunGroup | undefined {
  return groups.find((group) => group.runs.includes(r));
}

/**
 * Whether a paired difference of `run` from `reference` measures anything: both graded alike, over the same problems.
 * Their budgets and T may differ (the groups of the charts split on those): that is what an ablation changes.
 */
function pairable(run: ReportRun, reference: ReportRun): boolean {
  const apart = (of: ReportRun) => ({ ...comparisonBasis(of), budget: null, maxIterations: null, iterationsDone: null });
  return basisDifferences(apart(run), apart(reference)).length === 0;
}

/** `run`'s reference under `basis` where the two were graded alike over the same problems; null where it has none, or they were not. */
export function pairedReference(basis: DifferenceBasis | null, run: ReportRun): ReportRun | null {
  const reference = basis?.against(run) ?? null;
  return reference === null || !pairable(run, reference) ? null : reference;
}

/** The runs `basis` sets against a reference graded otherwise or over other problems, in the report's order. */
export function unpairedRuns(runs: ReportRun[], groups: RunGroup[], basis: DifferenceBasis | null): UnpairedRun[] {
  if (basis === null || groups.length < 2) return [];
  return runs.flatMap((run, r) => {
    const reference = basis.against(run);
    const group = groupOf(groups, r);
    const referenceGroup = reference === null ? undefined : groupOf(groups, runs.indexOf(reference));
    if (reference === null || reference === run || group === undefined || referenceGroup === undefined || pairable(run, reference)) return [];
    return [{ run, reference, group, referenceGroup }];
  });
}

/**
 * `Not paired with a: d (graded by judge m ×1 · 3 problems · T=2, where a is graded by rule · 3 problems · T=2); …
 * No paired difference is given for them: …`, or null when every run with a reference is paired with it.
 */
export function unpairedSentence(unpaired: UnpairedRun[]): string | null {
  if (unpaired.length === 0) return null;
  const each = unpaired.map(({ run, reference, group, referenceGroup }) => `${run.name} against ${reference.name} (${run.name}: ${group.label}; ${reference.name}: ${referenceGroup.label})`);
  return (
    `Not paired: ${each.join('; ')}. ` +
    'Each pair was graded otherwise (by another judge, or one by a judge and one by the rule), or ran over other problems: a difference of their Pass@1 would mix that with the method, so none is given, and their Pass@1 is to be read on its own, not against the other group\'s.'
  );
}
