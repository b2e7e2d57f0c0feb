/**
 * What a resume with --force keeps when it changes what the calls are. A resume never does a
 * completed iteration again: those are kept as they were made, under the run's earlier settings,
 * and the new settings apply from each problem's next iteration on. The run's manifest (and so
 * metrics.json's evaluation block, the report and the viewer) then names the new settings alone,
 * so the change is recorded beside them (`forcedChanges`) and said before the run goes on:
 * without it, a run resumed with --force --temperature 0.9 after two iterations at 0.6 read as a
 * run at 0.9 throughout.
 */
import type { LoopStart } from '../../../machines/contract.ts';
import type { RunConfig } from '../../settings/config.ts';
import { changedSettings } from '../../settings/configure/resume.ts';
import { keptIterations, type ForcedChange } from '../../store/store.ts';

/** The change a resume makes to the calls of a run with iterations done, or null when it changes none or nothing was done. */
export function forcedChangeOf(stored: RunConfig, now: RunConfig, starts: readonly LoopStart[]): ForcedChange | null {
  const changed = changedSettings(stored, now)
    .filter((change) => change.shapesCalls)
    .map((change) => change.flag);
  const problemIterationsKept = starts.reduce((sum, start) => sum + start.iteration, 0);
  if (changed.length === 0 || problemIterationsKept === 0) return null;
  return { changed, iterationsKept: Math.max(...starts.map((start) => start.iteration)), problemIterationsKept };
}

/** The warning a resume gives as it goes on under changed settings: what it keeps, and how to run every iteration under them. */
export function forcedChangeWarning(change: ForcedChange, runDir: string): string {
  const flags = change.changed.join(', ');
  return (
    `tmas: warning: --force changes ${flags}, but a resume does no completed iteration again: the ${change.problemIterationsKept} problem-iterations done ` +
    `(${keptIterations(change)}) are kept as they were made, under the earlier settings, and ${flags} applies from each problem's next iteration on. ` +
    `metrics.json and tmas report name the new settings and this change (forcedChanges). For a run made under the new settings throughout: ` +
    `tmas fork ${runDir} --output-file NEW, which takes them (calls whose requests are unchanged are answered from this run's journal).`
  );
}
