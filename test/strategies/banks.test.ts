import { afterAll, describe, expect, it } from 'vitest';
import { dedupBanks } from '../../src/host/banks.ts';
import { createPool } from '../../src/pool/pool.ts';
import type { ExperienceRecord, GuidelineRecord } from '../../src/kernel/protocol.ts';

const pool = createPool();
/** The default policy: 3-word shingles, no cap. */
const SHINGLES = { shingle: 3, maxRecords: 0 };
afterAll(() => pool.close());

const provenance = { iteration: 0, candidate: 0, callKey: 'k' };
const experience = (text: string): ExperienceRecord => ({ kind: 'conclusion', text, provenance });
const guideline = (strategy: string, outcome: string): GuidelineRecord => ({ strategy, outcome, provenance });

describe('bank evolution with Jaccard deduplication in the pool', () => {
  it('drops a near-duplicate experience record and keeps a distinct one', async () => {
    const kept = experience('The sum of the roots of the quadratic equals minus b over a, so the roots add up to seven.');
    const nearDuplicate = experience('The sum of the roots of the quadratic equals minus b over a, so the roots add up to 7.');
    const distinct = experience('Checking small cases shows the sequence is periodic with period six from the third term on.');
    const merged = await dedupBanks(pool, { experience: [kept], newExperience: [nearDuplicate, distinct], guidelines: [], newGuidelines: [], threshold: 0.7 }, SHINGLES);
    expect(merged.experience).toEqual([kept, distinct]);
  });

  it('compares guidelines on their strategy, so a known strategy with a new outcome is not added again', async () => {
    const old = guideline('Induction on the number of vertices of the graph', '2 of 3 correct');
    const again = guideline('Induction on the number of vertices of the graph', '0 of 4 correct');
    const merged = await dedupBanks(pool, { experience: [], newExperience: [], guidelines: [old], newGuidelines: [again], threshold: 0.7 }, SHINGLES);
    expect(merged.guidelines).toEqual([old]);
  });

  it('a lower threshold drops more', async () => {
    const a = experience('the answer is the number of lattice points inside the circle of radius five');
    const b = experience('the answer is the number of lattice points inside the square of side five');
    const strict = await dedupBanks(pool, { experience: [a], newExperience: [b], guidelines: [], newGuidelines: [], threshold: 0.95 }, SHINGLES);
    const loose = await dedupBanks(pool, { experience: [a], newExperience: [b], guidelines: [], newGuidelines: [], threshold: 0.3 }, SHINGLES);
    expect(strict.experience).toHaveLength(2);
    expect(loose.experience).toHaveLength(1);
  });

  it('word-set Jaccard (--jaccard-shingle 1) also drops a rewording that 3-word shingles keep', async () => {
    const kept = experience('the roots of the quadratic sum to seven by the formula of vieta');
    const reworded = experience('by the formula of vieta the quadratic roots sum to seven');
    const shingles = await dedupBanks(pool, { experience: [kept], newExperience: [reworded], guidelines: [], newGuidelines: [], threshold: 0.7 }, SHINGLES);
    const words = await dedupBanks(pool, { experience: [kept], newExperience: [reworded], guidelines: [], newGuidelines: [], threshold: 0.7 }, { shingle: 1, maxRecords: 0 });
    expect(shingles.experience).toHaveLength(2);
    expect(words.experience).toEqual([kept]);
  });

  it('a bank over --bank-max-records evicts its oldest records first', async () => {
    const bank = ['first', 'second', 'third'].map((word) => experience(`${word} record about a distinct lemma number ${word}`));
    const fresh = [experience('a brand new fact about modular inverses and primes')];
    const merged = await dedupBanks(pool, { experience: bank, newExperience: fresh, guidelines: [guideline('casework', 'ok')], newGuidelines: [guideline('induction', 'ok'), guideline('invariants', 'ok')], threshold: 0.7 }, { shingle: 3, maxRecords: 2 });
    expect(merged.experience).toEqual([bank[2], fresh[0]]);
    expect(merged.guidelines.map((record) => record.strategy)).toEqual(['induction', 'invariants']);
  });
});
