/**
 * Bank evolution: E(t) = dedup(E(t-1) ∪ new) and G(t) = dedup(G(t-1) ∪ new),
 * where a new record is dropped when its Jaccard similarity to a kept one is at
 * least the threshold. The similarity is computed in the worker pool.
 */
import type { DedupBanksInput, DedupBanksOutput } from '../../machines/contract.ts';
import type { Pool } from '../pool/pool.ts';

/** How the banks are kept: the shingle size of the similarity, and each bank's cap. */
export interface BankPolicy {
  /** Words per shingle (3: near-verbatim repeats; 1: word sets). */
  shingle: number;
  /** Records a bank keeps at most (0: no limit). */
  maxRecords: number;
}

/** Keeps the newest `max` records (0: all): a bank is appended in iteration order, so the oldest go first. */
function capped<T>(records: T[], max: number): T[] {
  return max > 0 && records.length > max ? records.slice(records.length - max) : records;
}

/**
 * Merges the new records into both banks, then evicts the oldest records of a
 * bank over its cap (the strategy's own when its input names one, else the
 * run's). Experience records are compared on their text; guideline records on
 * their strategy, since the outcome of the same strategy changes from one
 * iteration to the next.
 */
export async function dedupBanks(pool: Pool, input: DedupBanksInput, policy: BankPolicy, signal?: AbortSignal): Promise<DedupBanksOutput> {
  const options = signal ? { signal } : {};
  const { shingle } = policy;
  const maxRecords = input.maxRecords ?? policy.maxRecords;
  const [experience, guidelines] = await Promise.all([
    pool.dedup({ existing: input.experience.map((r) => r.text), incoming: input.newExperience.map((r) => r.text), threshold: input.threshold, shingle }, options),
    pool.dedup({ existing: input.guidelines.map((r) => r.strategy), incoming: input.newGuidelines.map((r) => r.strategy), threshold: input.threshold, shingle }, options),
  ]);
  return {
    experience: capped([...input.experience, ...input.newExperience.filter((_, i) => experience.keep[i])], maxRecords),
    guidelines: capped([...input.guidelines, ...input.newGuidelines.filter((_, i) => guidelines.keep[i])], maxRecords),
  };
}
