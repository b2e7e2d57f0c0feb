import { afterAll, describe, expect, it } from 'vitest';
import { dedupBanks } from '../src/host/banks.ts';
import { createPool } from '../src/pool/pool.ts';
import type { ExperienceRecord, GuidelineRecord } from '../src/kernel/protocol.ts';

const pool = createPool();
afterAll(() => pool.close());

const provenance = { iteration: 0, candidate: 0, callKey: 'k' };
const experience = (text: string): ExperienceRecord => ({ kind: 'conclusion', text, provenance });
const guideline = (strategy: string, outcome: string): GuidelineRecord => ({ strategy, outcome, provenance });

describe('bank evolution with Jaccard deduplication in the pool', () => {
  it('drops a near-duplicate experience record and keeps a distinct one', async () => {
    const kept = experience('The sum of the roots of the quadratic equals minus b over a, so the roots add up to seven.');
    const nearDuplicate = experience('The sum of the roots of the quadratic equals minus b over a, so the roots add up to 7.');
    const distinct = experience('Checking small cases shows the sequence is periodic with period six from the third term on.');
    const merged = await dedupBanks(pool, { experience: [kept], newExperience: [nearDuplicate, distinct], guidelines: [], newGuidelines: [], threshold: 0.7 });
    expect(merged.experience).toEqual([kept, distinct]);
  });

  it('compares guidelines on their strategy, so a known strategy with a new outcome is not added again', async () => {
    const old = guideline('Induction on the number of vertices of the graph', '2 of 3 correct');
    const again = guideline('Induction on the number of vertices of the graph', '0 of 4 correct');
    const merged = await dedupBanks(pool, { experience: [], newExperience: [], guidelines: [old], newGuidelines: [again], threshold: 0.7 });
    expect(merged.guidelines).toEqual([old]);
  });

  it('a lower threshold drops more', async () => {
    const a = experience('the answer is the number of lattice points inside the circle of radius five');
    const b = experience('the answer is the number of lattice points inside the square of side five');
    const strict = await dedupBanks(pool, { experience: [a], newExperience: [b], guidelines: [], newGuidelines: [], threshold: 0.95 });
    const loose = await dedupBanks(pool, { experience: [a], newExperience: [b], guidelines: [], newGuidelines: [], threshold: 0.3 });
    expect(strict.experience).toHaveLength(2);
    expect(loose.experience).toHaveLength(1);
  });
});
