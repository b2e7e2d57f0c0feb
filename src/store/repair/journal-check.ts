/**
 * A journal deleted from a store whose iteration records and message log are
 * intact. The commands that read the journal took it for a run that made no
 * call: `tmas calls` printed nothing and exited 0, `tmas export` said 'no call
 * of the run completed', `tmas plan --from` 'a plan can compare or replay only
 * a run that made calls', `tmas replay` listed every call as a divergence
 * (TMAS_REPLAY_MISS), and `tmas fork` sent every call again, paid, without a
 * word. Every call a run makes is journaled before its reply is delivered
 * (a fork's answered from its source included), so a completed iteration with
 * a candidate and an empty journal is a journal lost.
 */
import { UserError } from '../../kernel/errors.ts';
import type { Store } from '../store.ts';

/** How many completed iterations it looks at for a candidate: a run's first iterations have them, unless a strategy's make none (majority's first at small N). */
const ITERATIONS_LOOKED_AT = 64;

/** Whether the journal holds no call while a completed iteration holds a candidate, which only a call could have given. */
async function journalLost(store: Store): Promise<boolean> {
  for await (const _ of store.calls().keys({ limit: 1 })) return false;
  for await (const record of store.iterationRecords({ limit: ITERATIONS_LOOKED_AT }, ['candidates'])) {
    if (record.candidates.length > 0) return true;
  }
  return false;
}

/**
 * Refuses, for a command that reads the run's journal (`use`: what it would do with it), a store whose journal was
 * lost: TMAS_STORE_DAMAGED naming the run directory, before anything is read out or sent.
 */
export async function checkJournalHeld(runDir: string, store: Store, use: string): Promise<void> {
  if (!(await journalLost(store))) return;
  throw new UserError(
    'TMAS_STORE_DAMAGED',
    `The store of ${runDir} is damaged: its journal holds no call, yet the run completed iterations with candidates, which only calls give (every call is journaled before its reply is used): the journal was deleted. ` +
      `${use}. Nothing was changed. Restore the run directory from a copy; its message log, results.jsonl and metrics.json are intact, and tmas log, show and report read them.`,
  );
}
