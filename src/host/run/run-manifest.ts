/**
 * A tmas run's manifest as the host reads it. The store keeps the manifest's
 * configuration opaque (src/store/store.ts); the host, which owns the
 * settings, reads it in today's shape: what older versions of tmas wrote is
 * upgraded here (settings/configure/upgrade.ts), for resume, replay and every reader of a run.
 */
import type { RunConfig } from '../../settings/config.ts';
import { manifestConfig } from '../../settings/configure/upgrade.ts';
import type { Manifest, Store } from '../../store/store.ts';

/** The manifest of a tmas run, its configuration typed. */
export type RunManifest = Manifest<RunConfig>;

/** The run's manifest with its configuration upgraded to today's shape, or undefined for a store that never started a run. */
export async function readRunManifest(store: Store): Promise<RunManifest | undefined> {
  const manifest = await store.getManifest();
  // The host wrote this configuration (run-evaluation.ts); its shape may be older, and a damaged one (or a strategy that disagrees) is named.
  return manifest && { ...manifest, config: manifestConfig(manifest, store.runDir || store.dir) };
}
