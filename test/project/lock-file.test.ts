/**
 * The lock file installs anywhere: `npm ci` refuses a lock that lacks an
 * optional package a locked one names (another platform's native build of
 * rollup or esbuild), with npm 11 as with npm 10, and one whose root differs
 * from package.json.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { REPO } from '../fixtures.ts';

interface LockedPackage {
  version?: string;
  engines?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const lock = JSON.parse(readFileSync(path.join(REPO, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockedPackage> };
const manifest = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { engines?: Record<string, string> };

/** Where Node would find `name` from the package at `at`: its own node_modules, then each one above it. */
function resolvedFrom(at: string, name: string): string | null {
  for (let dir = at; ; dir = dir.slice(0, Math.max(0, dir.lastIndexOf('/node_modules/')))) {
    const candidate = `${dir === '' ? '' : `${dir}/`}node_modules/${name}`;
    if (candidate in lock.packages) return candidate;
    if (dir === '') return null;
  }
}

test("every optional package a locked package names is locked too, for every platform; the root's engines are package.json's", () => {
  const missing = Object.entries(lock.packages).flatMap(([at, locked]) =>
    Object.keys(locked.optionalDependencies ?? {}).flatMap((name) => (resolvedFrom(at, name) === null ? [`${name} (of ${at || 'the root'})`] : [])),
  );
  expect(missing).toEqual([]);
  expect(Object.keys(lock.packages).filter((at) => at.includes('@rollup/rollup-')).length).toBeGreaterThan(20);
  expect(lock.packages['']?.engines).toEqual(manifest.engines);
});
