/**
 * Whether a run's manifest is the one its run wrote, and of a tmas this one
 * can read. Resume, fork and replay run the manifest's settings against the
 * run's journal: a setting edited in the store (another seed, another
 * strategy) would have them pay again for calls the journal holds and write
 * over the run's outputs, and another run's manifest would have them compare
 * two runs as one. Two checks, each a read: the configuration against the
 * `configHash` every tmas wrote beside it (the same hash, of the configuration
 * as stored), and the run id against the one the message log's first message
 * carries (every message names its run). A run of a later journal version is
 * refused by every reader: its messages and records may carry fields this tmas
 * would read as its own, or leave out, without a word.
 */
import { UserError } from '../../kernel/errors.ts';
import { JOURNAL_VERSION } from '../../kernel/journal-version.ts';
import { hashOf } from '../../kernel/prng.ts';
import type { Envelope } from '../../kernel/protocol.ts';
import { VERSION } from '../../kernel/version.ts';
import { manifestDamaged } from '../disk/damage.ts';
import type { Store } from '../store.ts';

/** How a manifest differs from what its run wrote, and what to do; null when it is its run's. */
export interface ManifestMismatch {
  what: string;
  advice?: string;
}

/**
 * Refuses a manifest whose configuration or run id is not what its run wrote (TMAS_STORE_DAMAGED naming `runDir`), or
 * that a later journal version wrote (TMAS_STORE_FORMAT). A store without one passes (another tool's LevelDB: the caller
 * says it holds no run) unless its message log holds a run's messages: a run writes its manifest before any, so the
 * manifest was deleted, and the run was said to hold no tmas run ("give the output directory of an earlier tmas run").
 */
export async function checkManifest(runDir: string, store: Store): Promise<void> {
  const manifest = await store.getManifest();
  if (manifest === undefined) {
    const logged = await firstLoggedRun(store);
    if (logged !== undefined) throw manifestDamaged(runDir, `it is missing from the store, whose message log holds the messages of run ${String(logged)} (a run writes its manifest before any message)`);
    return;
  }
  checkReadableVersion(runDir, manifest);
  const mismatch = await manifestMismatch(runDir, store);
  if (mismatch !== null) throw manifestDamaged(runDir, mismatch.what, mismatch.advice);
}

/** Refuses a run written under a journal version later than this tmas's (TMAS_STORE_FORMAT naming `runDir` and the tmas that wrote it). */
function checkReadableVersion(runDir: string, manifest: { journalVersion: unknown; tmasVersion?: unknown }): void {
  const written = manifest.journalVersion;
  // Anything but a whole number is damage, which resume and replay name (checkJournalVersion); readers read on.
  if (!Number.isSafeInteger(written) || (written as number) <= JOURNAL_VERSION) return;
  const tmas = `tmas ${String(manifest.tmasVersion)}`;
  throw new UserError(
    'TMAS_STORE_FORMAT',
    `${runDir} was written by ${tmas} (journal version ${String(written)}); this tmas ${VERSION} reads journal versions up to ${JOURNAL_VERSION}, and would read its messages and records as its own. ` +
      `Nothing was changed. Read, resume or repair it with ${tmas} (journal version ${String(written)}) or later.`,
  );
}

/** What a stored manifest that holds no configuration is, in words: another JSON value, or an object and its fields. */
function describeValue(manifest: unknown): string {
  if (Array.isArray(manifest)) return 'a list';
  if (typeof manifest !== 'object' || manifest === null) return `the ${typeof manifest} ${JSON.stringify(manifest)?.slice(0, 40)}`;
  const fields = Object.keys(manifest);
  return fields.length === 0 ? 'an empty object' : `an object of ${fields.slice(0, 6).join(', ')}${fields.length > 6 ? ', …' : ''}`;
}

/** How the store's manifest differs from what its run wrote (module doc), or null; the advice names `runDir`. */
export async function manifestMismatch(runDir: string, store: Store): Promise<ManifestMismatch | null> {
  const manifest = (await store.getManifest()) as { run?: unknown; config?: unknown; configHash?: unknown } | undefined;
  if (manifest === undefined) return null;
  // Hashed as it is stored: the JSON a run hashed is the JSON it stored (hashOf hashes JSON.stringify).
  const hash = manifest.config === undefined ? null : hashOf(manifest.config);
  if (manifest.configHash !== hash) {
    return {
      what:
        hash === null
          ? `it holds no configuration, which every manifest tmas writes holds (it is ${describeValue(await store.manifest().get('manifest'))})`
          : `its configuration hashes to ${hash}, not to the configHash written with it (${String(manifest.configHash)}): a setting was changed in the store after the run wrote it`,
      // A fork reads the configuration: of a manifest without one there is nothing to fork.
      advice: `Restore the run directory from a copy${hash === null ? '.' : `; to run its problems with other settings, fork the run as it was: tmas fork ${runDir} --output-file NEW with the flags to change.`}`,
    };
  }
  const logged = await firstLoggedRun(store);
  if (logged !== undefined && logged !== manifest.run) {
    return { what: `it names ${manifest.run === undefined ? 'no run' : `run ${String(manifest.run)}`}, and the run's message log was written by run ${String(logged)} (a manifest copied from another run's store?)` };
  }
  return null;
}

/** The run the first logged message names, or undefined for an empty log. One record read, its texts left out. */
async function firstLoggedRun(store: Store): Promise<unknown> {
  for await (const envelope of store.envelopeOutlines(() => false, { limit: 1 })) return (envelope as Partial<Envelope>).message?.run;
  return undefined;
}
