/**
 * Whether a run's manifest is the one its run wrote. Resume, fork and replay
 * run the manifest's settings against the run's journal: a setting edited in
 * the store (another seed, another strategy) would have them pay again for
 * calls the journal holds and write over the run's outputs, and another run's
 * manifest would have them compare two runs as one. Two checks, each a read:
 * the configuration against the `configHash` every tmas wrote beside it (the
 * same hash, of the configuration as stored), and the run id against the one
 * the message log's first message carries (every message names its run).
 */
import { hashOf } from '../../kernel/prng.ts';
import type { Envelope } from '../../kernel/protocol.ts';
import { manifestDamaged } from '../disk/damage.ts';
import type { Store } from '../store.ts';

/** Refuses a manifest whose configuration or run id is not what its run wrote (TMAS_STORE_DAMAGED naming `runDir`); a store without one passes. */
export async function checkManifest(runDir: string, store: Store): Promise<void> {
  const manifest = (await store.getManifest()) as { run?: unknown; config?: unknown; configHash?: unknown } | undefined;
  if (manifest === undefined) return;
  // Hashed as it is stored: the JSON a run hashed is the JSON it stored (hashOf hashes JSON.stringify).
  const hash = manifest.config === undefined ? null : hashOf(manifest.config);
  if (manifest.configHash !== hash) {
    throw manifestDamaged(
      runDir,
      `${hash === null ? 'it holds no configuration' : `its configuration hashes to ${hash}`}, not to the configHash written with it (${String(manifest.configHash)}): a setting was changed in the store after the run wrote it`,
      `Restore the run directory from a copy; to run its problems with other settings, fork the run as it was: tmas fork ${runDir} --output-file NEW with the flags to change.`,
    );
  }
  const logged = await firstLoggedRun(store);
  if (logged !== undefined && logged !== manifest.run) {
    throw manifestDamaged(runDir, `it names ${manifest.run === undefined ? 'no run' : `run ${String(manifest.run)}`}, and the run's message log was written by run ${String(logged)} (a manifest copied from another run's store?)`);
  }
}

/** The run the first logged message names, or undefined for an empty log. One record read, its texts left out. */
async function firstLoggedRun(store: Store): Promise<unknown> {
  for await (const envelope of store.envelopeOutlines(() => false, { limit: 1 })) return (envelope as Partial<Envelope>).message?.run;
  return undefined;
}
