/**
 * A journal that lost its records, all or some, from a store whose iteration
 * records and message log are intact. The commands that read the journal
 * took a journal deleted for a run that made no call: `tmas calls` printed
 * nothing and exited 0, `tmas export` said 'no call of the run completed',
 * `tmas plan --from` 'a plan can compare or replay only a run that made
 * calls', `tmas replay` listed every call as a divergence (TMAS_REPLAY_MISS),
 * and `tmas fork` sent every call again, paid, without a word. Every call a
 * run makes is journaled before its reply is delivered (a fork's answered
 * from its source included), so a completed iteration with a candidate and an
 * empty journal is a journal lost; and a reply the message log holds whose
 * call the journal lacks is a call lost, which those commands read past as
 * they did a journal deleted, unless a repair noted it (CALLS_LOST).
 */
import { UserError } from '../../kernel/errors.ts';
import type { Store } from '../store.ts';

/** How many completed iterations it looks at for a candidate: a run's first iterations have them, unless a strategy's make none (majority's first at small N). */
const ITERATIONS_LOOKED_AT = 64;

/** The manifest sublevel's key where `tmas repair` notes how many calls the log refers to that the journal had lost: a reader reads past that many. */
export const CALLS_LOST = 'callsLost';

/** What a command would do with a journal read as it is: `none` when it lost every call, `some` when it lost those the message names. */
export interface JournalUse {
  none: string;
  some: string;
}

/** Whether the journal holds no call while a completed iteration holds a candidate, which only a call could have given. */
async function journalLost(store: Store): Promise<boolean> {
  for await (const _ of store.calls().keys({ limit: 1 })) return false;
  for await (const record of store.iterationRecords({ limit: ITERATIONS_LOOKED_AT }, ['candidates'])) {
    if (record.candidates.length > 0) return true;
  }
  return false;
}

/**
 * The calls the message log's replies name that the journal does not hold, and how many replies name one.
 * Reads the log once, unparsed (Store.loggedCallKeys), and asks the journal whether it holds each batch's keys,
 * so that what it holds in memory is a batch and the calls lost.
 */
export async function callsLost(store: Store): Promise<{ lost: Set<string>; replies: number }> {
  const lost = new Set<string>();
  let replies = 0;
  for await (const keys of store.loggedCallKeys()) {
    replies += keys.length;
    const asked = [...new Set(keys)];
    if (asked.length === 0) continue;
    const held = await store.calls().hasMany(asked);
    asked.forEach((key, i) => {
      if (!held[i]) lost.add(key);
    });
  }
  return { lost, replies };
}

/** How many lost calls a repair noted (0 when none did). */
export async function notedLost(store: Store): Promise<number> {
  const noted = await store.manifest().get(CALLS_LOST);
  return typeof noted === 'number' && Number.isSafeInteger(noted) ? noted : 0;
}

/**
 * Refuses, for a command that reads the run's journal (`use`: what it would do with it), a store whose journal
 * lost its calls, all of them or some the message log names and no repair noted: TMAS_STORE_DAMAGED naming the
 * run directory, before anything is read out or sent.
 */
export async function checkJournalHeld(runDir: string, store: Store, use: JournalUse): Promise<void> {
  await refuseJournalDeleted(runDir, store, use);
  const { lost, replies } = await callsLost(store);
  if (lost.size <= (await notedLost(store))) return;
  const first = [...lost][0];
  throw new UserError(
    'TMAS_STORE_DAMAGED',
    `The store of ${runDir} is damaged: its message log holds the replies of ${lost.size} ${lost.size === 1 ? 'call' : 'calls'} (of ${replies} replies logged) that its journal does not hold (the first: ${first}), and every call is journaled before its reply is logged: their records were lost. ` +
      `${use.some}. Nothing was changed. Restore the run directory from a copy; or accept the loss with \`tmas repair ${runDir}\`, which cannot bring those calls back but notes them as lost, ` +
      'after which the run is read without them, and a resume or a fork sends again (and pays for) those of them it needs.',
  );
}

/**
 * Refuses a store whose journal holds no call while the run completed iterations with candidates (TMAS_STORE_DAMAGED,
 * `use.none` saying what the command would have done): cheap, since it reads a key or two, where checkJournalHeld
 * reads the whole message log.
 */
export async function refuseJournalDeleted(runDir: string, store: Store, use: Pick<JournalUse, 'none'>): Promise<void> {
  if (await journalLost(store)) {
    throw new UserError(
      'TMAS_STORE_DAMAGED',
      `The store of ${runDir} is damaged: its journal holds no call, yet the run completed iterations with candidates, which only calls give (every call is journaled before its reply is used): the journal was deleted. ` +
        `${use.none}. Nothing was changed. Restore the run directory from a copy; its message log, results.jsonl and metrics.json are intact, and tmas log, show and report read them.`,
    );
  }
}
