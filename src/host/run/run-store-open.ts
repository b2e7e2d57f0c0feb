/**
 * The store of a run: a new run's created whole (manifest and problems
 * included), a resumed run's opened as it is and its manifest brought up to
 * date, and where each of its problems picks up.
 */
import type { LoopStart, ProblemInput } from '../../../machines/contract.ts';
import type { Strategy } from '../../../machines/strategies/index.ts';
import type { Problem } from '../../input/problems.ts';
import { hashOf } from '../../kernel/prng.ts';
import { JOURNAL_VERSION } from '../../kernel/journal-version.ts';
import { VERSION } from '../../kernel/version.ts';
import { Store, type ForcedChange, type ForkedFrom } from '../../store/store.ts';

import type { RunConfig } from '../../settings/config.ts';
import { createRunStore } from '../outputs/output-dir.ts';
import { removeStalePartials } from '../outputs/output-file.ts';
import { toProblemInputs } from '../problem-inputs.ts';
import { loadStarts } from '../resume.ts';
import type { RunManifest } from './run-manifest.ts';
import { manifestConfig } from '../../settings/configure/upgrade.ts';
import { forcedChangeOf } from './forced-changes.ts';

/** A run's open store, its manifest, and its problems as the problem actors take them. */
export interface OpenedRun {
  store: Store;
  manifest: RunManifest;
  /** Offline, no endpoint was listed: the run is as simulated as it was. */
  simulated: boolean;
  inputs: ProblemInput[];
  /** This resume changed what the calls are of a run with iterations done (forced-changes.ts); null otherwise. */
  forcedChange: ForcedChange | null;
}

/** Opens (resume) or creates (new run) the store; `cleanups` gets its close. */
export async function openRunStore(
  config: RunConfig,
  problems: Problem[],
  options: { strategy: Strategy; forkedFrom?: ForkedFrom | undefined; resume: boolean; offline: boolean; simulated: boolean; encodeJson: (value: unknown) => Promise<Uint8Array>; cleanups: Array<() => Promise<void> | void>; iterationsOf?: ReadonlyMap<string, number> | undefined },
): Promise<OpenedRun> {
  // A resumed run's store must exist (never created over a damaged one); a new run's is created whole, manifest included.
  const resumed = options.resume ? await Store.open(config.outputs.dir) : null;
  if (resumed) options.cleanups.push(() => resumed.close());
  const previous = await resumed?.getManifest();
  const simulated = options.offline && previous ? previous.simulated : options.simulated;
  const runId = previous?.run ?? hashOf({ config, at: Date.now() }, 12);
  // A fork's origin, as its first process recorded it: kept by every resume.
  const forkedFrom = previous ? previous.forkedFrom : options.forkedFrom;
  const manifest: RunManifest = {
    run: runId,
    config,
    configHash: hashOf(config),
    tmasVersion: VERSION,
    journalVersion: JOURNAL_VERSION,
    simulated,
    strategy: options.strategy.name,
    createdAt: previous?.createdAt ?? new Date().toISOString(),
    ...(forkedFrom === undefined ? {} : { forkedFrom }),
    ...(previous?.forcedChanges === undefined ? {} : { forcedChanges: previous.forcedChanges }),
  };
  const store = resumed ?? (await createRunStore(config.outputs.dir, manifest, problems));
  if (!resumed) options.cleanups.push(() => store.close());
  store.encodeWith(options.encodeJson);
  // The run holds its directory now: a temporary output file a killed process left in it goes (output-file.ts).
  await removeStalePartials(config.outputs.dir);
  const starts: LoopStart[] | null = options.resume ? await loadStarts(store, problems.length, config.judge.passes > 0) : null;
  // A replay's store is a copy thrown away: what it replays with is no change of the run's.
  const forcedChange = previous && starts && !options.offline ? forcedChangeOf(manifestConfig(previous, config.outputs.dir), config, starts) : null;
  if (forcedChange) manifest.forcedChanges = [...(manifest.forcedChanges ?? []), forcedChange];
  if (resumed) await store.manifest().put('manifest', manifest);
  return { store, manifest, simulated, inputs: toProblemInputs(runId, config, problems, starts, options.iterationsOf), forcedChange };
}
