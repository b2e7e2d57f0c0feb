/** The error-code reference page and the one list of codes in the kernel say the same. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { ERROR_CODES } from '../src/kernel/errors.ts';

const PAGE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'reference', 'errors.md');

/** The codes in the first column of the page's table. */
function documentedCodes(): string[] {
  const codes = readFileSync(PAGE, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('| `TMAS_'))
    .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`(TMAS_[A-Z_]+)`/g)].map((match) => match[1] ?? ''));
  return codes.sort();
}

test('every error code tmas raises is in docs/reference/errors.md, and the page lists no other', () => {
  const documented = documentedCodes();
  expect(documented.length).toBeGreaterThan(10);
  expect(new Set(documented).size).toBe(documented.length);
  expect(documented).toEqual(Object.keys(ERROR_CODES).sort());
});
