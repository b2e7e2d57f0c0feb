/**
 * Fault injection. Whether an attempt fails is a function of (server seed,
 * request body, attempt number of that body on this server), so a retry of
 * the same request eventually succeeds, the same run sees the same faults at
 * any concurrency, and a fault never changes what a successful reply contains.
 */
import { UserError } from '../../kernel/errors.ts';
import { uniformOf } from '../model/random.ts';

/** The faults the simulator can inject. */
export const FAULT_KINDS = ['429', '503', '500', 'reset', 'hang', 'malformed', 'length', 'empty', 'context', 'stall'] as const;

/**
 * One kind of fault: an HTTP status, a dropped or silent connection (`hang`:
 * no headers; `stall`: half the body, streamed or not, then silence), or a
 * damaged reply. New kinds go last: the draw of the others stays the same.
 */
export type FaultKind = (typeof FAULT_KINDS)[number];

/** Probability of each fault per attempt, in [0, 1]; their sum must not exceed 1. */
export type FaultRates = Partial<Record<FaultKind, number>>;

function isFaultKind(name: string): name is FaultKind {
  return (FAULT_KINDS as readonly string[]).includes(name);
}

const SYNTAX = `write kind=rate pairs separated by commas, kind one of ${FAULT_KINDS.join(', ')}, rate in [0, 1], e.g. 429=0.05,503=0.02,reset=0.02`;

/**
 * Parses the CLI fault syntax. Throws a UserError (code `TMAS_USAGE`) naming
 * the bad entry.
 *
 * @example
 * parseFaults('429=0.05,503=0.02,reset=0.02'); // { '429': 0.05, '503': 0.02, reset: 0.02 }
 */
export function parseFaults(spec: string): FaultRates {
  const rates: FaultRates = {};
  for (const raw of spec.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const match = /^([^=\s]+)\s*=\s*(\S*)$/.exec(entry);
    if (!match) throw badEntry(spec, entry, 'expected kind=rate');
    const kind = match[1] ?? '';
    const text = match[2] ?? '';
    if (!isFaultKind(kind)) throw badEntry(spec, entry, `unknown fault kind "${kind}"`);
    const rate = Number(text);
    if (text === '' || !Number.isFinite(rate) || rate < 0 || rate > 1) throw badEntry(spec, entry, `rate "${text}" is not a number in [0, 1]`);
    if (rates[kind] !== undefined) throw badEntry(spec, entry, `"${kind}" is given twice`);
    rates[kind] = rate;
  }
  const total = Object.values(rates).reduce((a, b) => a + b, 0);
  if (total > 1 + 1e-9) {
    throw new UserError('TMAS_USAGE', `invalid fault spec "${spec}": the rates add up to ${total}, more than 1. Lower some rates.`);
  }
  return rates;
}

function badEntry(spec: string, entry: string, what: string): UserError {
  return new UserError('TMAS_USAGE', `invalid fault entry "${entry}" in "${spec}": ${what}. To fix it, ${SYNTAX}.`);
}

/** Throws a TypeError when rates are not what `FaultRates` promises (programmer misuse). */
export function checkFaultRates(rates: FaultRates): void {
  let total = 0;
  for (const [kind, rate] of Object.entries(rates)) {
    if (!isFaultKind(kind)) throw new TypeError(`unknown fault kind "${kind}"; expected one of ${FAULT_KINDS.join(', ')}`);
    if (typeof rate !== 'number' || !(rate >= 0 && rate <= 1)) throw new TypeError(`fault rate of "${kind}" must be in [0, 1], got ${String(rate)}`);
    total += rate;
  }
  if (total > 1 + 1e-9) throw new TypeError(`fault rates add up to ${total}, more than 1`);
}

/**
 * The fault of one attempt, or null. One uniform draw is laid over the kinds
 * in `FAULT_KINDS` order, so each kind happens with exactly its rate.
 */
export function decideFault(rates: FaultRates, seed: number, key: string, attempt: number): FaultKind | null {
  const u = uniformOf(seed, 'fault', key, attempt);
  let edge = 0;
  for (const kind of FAULT_KINDS) {
    edge += rates[kind] ?? 0;
    if (u < edge) return kind;
  }
  return null;
}

/** Whether a 429 carries `Retry-After: 1`: half of them do, keyed like the fault itself. */
export function sendsRetryAfter(seed: number, key: string, attempt: number): boolean {
  return uniformOf(seed, 'retry-after', key, attempt) < 0.5;
}
