/**
 * The store's layout version (`format` in its manifest sublevel), and the
 * check every open makes of it: a later tmas's store is refused as such
 * (TMAS_STORE_FORMAT), and a value that is no version at all (a string, a
 * number below 1, edited in place) as damage, where before a word was said
 * to come from a newer tmas and a negative number was read as format 1.
 */
import { UserError } from '../kernel/errors.ts';
import { manifestDamaged } from './disk/damage.ts';

/**
 * The store's layout. 1 (no `format` key): every record holds its texts inline. 2: long strings are kept once
 * in `texts` and `chunks` (texts.ts) and records refer to them by digest (records of format 1 still read as they are).
 */
export const STORE_FORMAT = 2;

/** The format a store of `named` says it has (1 when it says none), checked to be one this tmas reads; throws otherwise. */
export function readableFormat(stored: unknown, named: string): number {
  const format = stored ?? 1;
  if (!Number.isSafeInteger(format) || (format as number) < 1) {
    throw manifestDamaged(named, `the store format written beside it is ${JSON.stringify(format)}, not a whole number from 1`);
  }
  if ((format as number) > STORE_FORMAT) {
    throw new UserError(
      'TMAS_STORE_FORMAT',
      `The store of ${named} has format ${JSON.stringify(format)}, written by a newer tmas; this tmas reads formats 1 to ${STORE_FORMAT}. Read or resume it with the tmas that wrote it (its manifest names the version).`,
    );
  }
  return format as number;
}
