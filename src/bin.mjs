#!/usr/bin/env node
// The `tmas` executable. It runs the build in dist/ (src/build.mjs, run by
// `npm install` and `npm run build`) while the files it was built from are as
// they were (src/build-fingerprint.mjs); otherwise tsx compiles the TypeScript
// sources on the fly, so an edited checkout, a clone not yet built or an
// install without dev dependencies runs the sources as they are.
// TMAS_FROM_SOURCES=1 runs the sources whatever dist/ holds.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildFingerprint } from './build-fingerprint.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Whether dist/ holds a build of the sources as they are now (src/build-fingerprint.mjs). */
function builtIsCurrent() {
  let built;
  try {
    built = readFileSync(new URL('../dist/.built', import.meta.url), 'utf8');
  } catch {
    return false;
  }
  try {
    return built === buildFingerprint(ROOT);
  } catch {
    // A folder that cannot be read: the sources run, and say what is wrong if it matters.
    return false;
  }
}

if (process.env.TMAS_FROM_SOURCES !== '1' && builtIsCurrent()) {
  await import('../dist/src/main.js');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./main.ts');
}
