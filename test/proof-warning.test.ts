import { expect, test } from 'vitest';
import { proofModeWarning } from '../src/cli/run.command.ts';

test('tmas run warns when a proof-mode run has problems with answers and no reference solutions, and only then', () => {
  const answered = [{ answer: '2' }, { answer: '5' }, {}];
  expect(proofModeWarning({ proof: true }, answered)).toMatch(/proof mode \(the default\), but 2 of its 3 problems carry a short answer.*add --no-proof/);
  expect(proofModeWarning({ proof: false }, answered)).toBeNull();
  expect(proofModeWarning({ proof: true }, [{ answer: '2', solution: 'Since 2^3 = 8 ≡ 1 (mod 7), …' }])).toBeNull();
  expect(proofModeWarning({ proof: true }, [{}, {}])).toBeNull();
});
