/**
 * Whether a store still holds the records of every problem its run worked
 * on. A run writes its problems with its manifest, in one batch, and never
 * deletes one; the rest of the store names them: iteration records by their
 * position, the journal's call keys and the announcements by their id. A store
 * whose problem records are gone (deleted by a tool, a sublevel lost) read as a
 * run of fewer problems, or of none: a resume reported "0 problems", wrote
 * empty outputs over the run's and exited 0, and the calls journaled for the
 * lost problems were silently left out. Such a store is damaged; its problem
 * records hold the reference answers, which nothing else in it does, so no
 * repair can make them again.
 *
 * Cheap enough for every open: the problem records are read (as every reader
 * does), the iteration records' last key, the announcements (one a problem),
 * and the journal a seek a problem: never the journal's values.
 */
import type { Store } from '../store.ts';
import { UserError } from '../../kernel/errors.ts';

/** A problem record's key: its position in the input, six digits. */
function positionKey(position: number): string {
  return String(position).padStart(6, '0');
}

/** Up to three of `items`, and how many more. */
function someOf(items: readonly string[]): string {
  return items.length <= 3 ? items.join(', ') : `${items.slice(0, 3).join(', ')} and ${items.length - 3} more`;
}

/** Refuses a store whose problem records are fewer than the rest of it names (see above), naming what is missing; changes nothing. */
export async function checkProblemRecords(runDir: string, store: Store): Promise<void> {
  const ids = new Set<string>();
  const gaps: string[] = [];
  let count = 0;
  for await (const [key, value] of store.problems().iterator()) {
    // Positions run from 0 with no gap: a key past the next one means those between were lost.
    const position = Number(key);
    if (positionKey(count) < key && Number.isSafeInteger(position)) gaps.push(position - count === 1 ? String(count) : `${count} to ${position - 1}`);
    count = position + 1;
    ids.add((value as { id?: unknown }).id as string);
  }
  const lost: string[] = [];
  if (gaps.length > 0) lost.push(`none at input position ${someOf(gaps)}`);
  const lastIteration = await lastIterationPosition(store);
  if (lastIteration !== null && lastIteration >= count) lost.push(`none at input position ${count}${lastIteration > count ? ` to ${lastIteration}` : ''}, which iteration records are kept for`);
  const unnamed = [...new Set([...(await journaledProblems(store)), ...(await announcedProblems(store))])].filter((id) => !ids.has(id));
  if (unnamed.length > 0) lost.push(`none of problem ${someOf(unnamed.map((id) => JSON.stringify(id)))}, which the journal's calls name`);
  if (lost.length === 0) return;
  throw new UserError(
    'TMAS_STORE_DAMAGED',
    `The store of ${runDir} is damaged: problem records are missing (it holds ${ids.size}; ${lost.join('; ')}). Read as it is, the run would be one of fewer problems, the calls journaled for the others left out. ` +
      `Nothing was changed. The problem records hold the reference answers, which nothing else in the store does, so no repair can make them again: restore ${runDir} from a copy, or run the problem file again into a new --output-file.`,
  );
}

/** The input position of the last problem with an iteration record; null when none has one. */
async function lastIterationPosition(store: Store): Promise<number | null> {
  for await (const key of store.iterations().keys({ reverse: true, limit: 1 })) return Number(key.slice(0, key.indexOf('!')));
  return null;
}

/** The ids of the problems the announcement records name (one a problem with an iteration saved). */
async function announcedProblems(store: Store): Promise<string[]> {
  const ids: string[] = [];
  for await (const key of store.unannounced().keys()) ids.push(key);
  return ids;
}

/**
 * The ids of the problems the journal has calls of: a call's key is
 * `problem/iteration/role/index/hash`, so the problem is all but its last four
 * parts (an id may hold a slash). One seek a problem: past its keys, whose
 * iteration is digits, to the next problem's.
 */
async function journaledProblems(store: Store): Promise<string[]> {
  const ids: string[] = [];
  const keys = store.calls().keys();
  try {
    for (let key = await keys.next(); key !== undefined; key = await keys.next()) {
      const parts = key.split('/');
      if (parts.length < 5) continue;
      const id = parts.slice(0, -4).join('/');
      ids.push(id);
      // ':' follows the digits: every key of this problem is before `id/:`.
      keys.seek(`${id}/:`);
    }
  } finally {
    await keys.close();
  }
  return ids;
}
