/** The README's error table and the one list of codes in the kernel say the same. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { ERROR_CODES } from '../src/kernel/errors.ts';

const README = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'README.md');

/** The codes in the first column of the README's "Error codes" table. */
function documentedCodes(): string[] {
  const text = readFileSync(README, 'utf8');
  const section = text.slice(text.indexOf('## Error codes'), text.indexOf('\n## ', text.indexOf('## Error codes') + 1));
  const codes = section
    .split('\n')
    .filter((line) => line.startsWith('| `TMAS_'))
    .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`(TMAS_[A-Z_]+)`/g)].map((match) => match[1] ?? ''));
  return codes.sort();
}

test('every error code tmas raises is in the README table, and the table lists no other', () => {
  const documented = documentedCodes();
  expect(documented.length).toBeGreaterThan(10);
  expect(new Set(documented).size).toBe(documented.length);
  expect(documented).toEqual(Object.keys(ERROR_CODES).sort());
});
