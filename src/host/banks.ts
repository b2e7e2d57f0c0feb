/**
 * Bank evolution: E(t) = dedup(E(t-1) ∪ new) and G(t) = dedup(G(t-1) ∪ new),
 * where a new record is dropped when its Jaccard similarity to a kept one is at
 * least the threshold. The similarity is computed in the worker pool.
 */
import type { DedupBanksInput, DedupBanksOutput } from '../../machines/contract.ts';
import type { Pool } from '../pool/pool.ts';

/**
 * Merges the new records into both banks. Experience records are compared on
 * their text; guideline records on their strategy, since the outcome of the
 * same strategy changes from one iteration to the next.
 */
export async function dedupBanks(pool: Pool, input: DedupBanksInput, signal?: AbortSignal): Promise<DedupBanksOutput> {
  const options = signal ? { signal } : {};
  const [experience, guidelines] = await Promise.all([
    pool.dedup({ existing: input.experience.map((r) => r.text), incoming: input.newExperience.map((r) => r.text), threshold: input.threshold }, options),
    pool.dedup({ existing: input.guidelines.map((r) => r.strategy), incoming: input.newGuidelines.map((r) => r.strategy), threshold: input.threshold }, options),
  ]);
  return {
    experience: [...input.experience, ...input.newExperience.filter((_, i) => experience.keep[i])],
    guidelines: [...input.guidelines, ...input.newGuidelines.filter((_, i) => guidelines.keep[i])],
  };
}
