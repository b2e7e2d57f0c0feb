/**
 * Resuming a run: where each problem picks up, and whether this tmas can
 * reuse the run's journal. Which settings may change is src/settings/resume.ts.
 */
import type { LoopStart } from '../../machines/contract.ts';
import { UserError } from '../kernel/errors.ts';
import { PROTOCOL_VERSION } from '../kernel/protocol.ts';
import type { Manifest, Store } from '../store/store.ts';
import { VERSION } from '../kernel/version.ts';

/** Where each problem of a stored run picks up: after its last completed iteration, with the banks and rollouts of then. */
export async function loadStarts(store: Store, count: number): Promise<LoopStart[]> {
  const starts: LoopStart[] = [];
  for (let ordinal = 0; ordinal < count; ordinal++) {
    const last = await store.lastIteration(ordinal);
    starts.push(
      last
        ? { iteration: last.record.iteration + 1, experience: last.banks.experience, guidelines: last.banks.guidelines, rollouts: last.record.rollouts }
        : { iteration: 0, experience: [], guidelines: [], rollouts: [] },
    );
  }
  return starts;
}

/**
 * Refuses a run written under another protocol version: its journal keys would
 * not match this version's, so a resume or replay would pay for every call again.
 */
export function checkProtocol(manifest: Manifest, runDir: string): void {
  if (manifest.protocolVersion === PROTOCOL_VERSION) return;
  throw new UserError(
    'TMAS_RESUME',
    `${runDir} was written by tmas ${manifest.tmasVersion} (protocol ${manifest.protocolVersion}); this tmas ${VERSION} uses protocol ${PROTOCOL_VERSION} and cannot reuse its journal. Resume or replay it with tmas ${manifest.tmasVersion}.`,
  );
}
