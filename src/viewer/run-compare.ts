/**
 * The overlay of several runs' Pass@1 curves, with the report's caveats: runs
 * are put in groups whose accuracy compares (graded alike, one problem
 * set, one T: report/comparable.ts), and the fields in which each run differs
 * from the first one selected are named.
 */
import { comparisonGroups, gradingDifferences, type RunGroup } from '../report/comparable.ts';
import type { RunCatalog } from './run-catalog.ts';
import type { RunFacts } from './run-listing.ts';

/** One curve of the overlay. */
export interface OverlaidRun {
  index: number;
  label: string;
  strategy: string | null;
  grading: string | null;
  live: boolean;
  /** The comparison group it belongs to (`A`, `B`, …). */
  group: string;
  points: Array<{ iteration: number; pass1: number | null }>;
  /** The fields in which it differs from the first run selected, as `path: a vs b` (the first's, then its), and the settings --force changed on a resume. */
  differs: string[];
}

/** What the runs page draws for a selection. */
export interface Overlay {
  runs: OverlaidRun[];
  /** Groups of runs whose Pass@1 compare; runs indexes are the catalog's. */
  groups: RunGroup[];
}

/** The settings of a run compared field by field: its evaluation block, or, for a run without one yet, its listing. */
function settingsOf(facts: RunFacts): Record<string, unknown> {
  const { strategy, models, n, m, t, grading, proof } = facts.listing;
  return { strategy, models, nCandidates: n, nVerifications: m, maxIterations: t, grading, proof };
}

/**
 * What sets a run apart from the first: its evaluation block (else its listing), and the settings a `--resume --force`
 * changed after some iterations were done, which the block (the settings the run ended with) does not show: a run
 * resumed with --force --temperature 0.9 after iteration 1 read as differing only in temperature.
 */
function differences(run: RunFacts, first: RunFacts): string[] {
  // How each was graded, in the runs table's words: a judge against the rule is one line, not the judge's block as JSON against null.
  const words: [string, string] = [first.listing.grading ?? '?', run.listing.grading ?? '?'];
  const settings = run.evaluation !== null && first.evaluation !== null ? gradingDifferences(first.evaluation, run.evaluation, words) : gradingDifferences(settingsOf(first), settingsOf(run));
  const forced = (facts: RunFacts) => (facts.listing.forcedChanges.length === 0 ? 'none' : facts.listing.forcedChanges.join('; '));
  return forced(first) === forced(run) ? settings : [...settings, `changed on resume with --force: ${forced(first)} vs ${forced(run)}`];
}

/** The overlay of the catalog's runs `indexes` (those that cannot be read are left out). */
export async function overlayRuns(catalog: RunCatalog, indexes: number[]): Promise<Overlay> {
  const all = await Promise.all(indexes.filter((index) => index >= 0 && index < catalog.size).map((index) => catalog.facts(index)));
  const facts = all.filter((f) => f.listing.error === null);
  const groups = comparisonGroups(facts).map((group) => ({ ...group, runs: group.runs.map((at) => facts[at]?.listing.index ?? -1) }));
  const first = facts[0];
  return {
    groups,
    runs: facts.map((f) => ({
      index: f.listing.index,
      label: f.listing.label,
      strategy: f.listing.strategy,
      grading: f.listing.grading,
      live: f.listing.status === 'live',
      group: groups.find((g) => g.runs.includes(f.listing.index))?.name ?? '?',
      points: f.iterations.map((it) => ({ iteration: it.iteration, pass1: it.pass1 })),
      differs: first && f !== first ? differences(f, first) : [],
    })),
  };
}
