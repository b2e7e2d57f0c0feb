/**
 * A message log that lost its last messages, or all of them. A gap in the
 * log's middle is found as it is read (message-sequence.ts), but a log whose
 * tail was deleted reads as a shorter run without a gap: with the whole log
 * gone, a resume of a finished run exited 0 and wrote over its metrics.json
 * one of 0 problems, 0 iterations, 0 tokens and no Pass@1, `tmas log` printed
 * nothing and `replay` compared against nothing. Each process that wrote the
 * outputs kept, in the store's `processes` records, the sequence number its
 * log had reached (`endSeq`, host/outputs/gateway-block.ts): the log must
 * reach it too, unless a repair noted those messages as lost.
 */
import type { Store } from '../store.ts';
import { UserError } from '../../kernel/errors.ts';

/** The sequence number the processes that wrote the run's outputs had logged up to (not included), 0 when none kept a record. */
async function loggedUpTo(store: Store): Promise<number> {
  let end = 0;
  for await (const counts of store.processes().values()) {
    const seq = (counts as { endSeq?: unknown } | null)?.endSeq;
    if (typeof seq === 'number' && Number.isSafeInteger(seq)) end = Math.max(end, seq);
  }
  return end;
}

/** The messages `[first, last]` the log lost at its end, or null when it reaches what its processes logged (a repair's noted gaps count as reached: Store.nextSeq). */
export async function lostLogTail(store: Store): Promise<[number, number] | null> {
  const logged = await loggedUpTo(store);
  const next = await store.nextSeq();
  return next >= logged ? null : [next, logged - 1];
}

/** Refuses a store whose message log lost its last messages (TMAS_STORE_DAMAGED naming them), before a reader takes it for a shorter run. */
export async function checkLogEnd(runDir: string, store: Store): Promise<void> {
  const lost = await lostLogTail(store);
  if (lost === null) return;
  const [first, last] = lost;
  const held = first === 0 ? 'holds no message' : `ends at message ${first - 1}`;
  throw new UserError(
    'TMAS_STORE_DAMAGED',
    `The store of ${runDir} is damaged: its message log ${held}, where the processes that wrote the run logged up to message ${last} (the store's process records say so): ` +
      `messages ${first} to ${last} are lost, and read as they are, the run's figures would leave them out. Nothing was changed. Restore the run directory from a copy; ` +
      `\`tmas repair ${runDir}\` accepts the loss instead (the outputs a resume writes after it leave those messages out; the journal still answers their calls).`,
  );
}
