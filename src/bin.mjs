#!/usr/bin/env node
// The `tmas` executable. It runs the build in dist/ (src/build.mjs, run by
// `npm install` and `npm run build`) while that build is newer than every
// source file; otherwise tsx compiles the TypeScript sources on the fly, so a
// clean clone, an edited checkout or an install without dev dependencies runs
// the sources as they are.
import { readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = new URL('..', import.meta.url);
const SOURCE_DIRS = ['src', 'machines', 'workers'];

/** Whether dist/ holds a build of the sources as they are now. */
function builtIsCurrent() {
  let built;
  try {
    built = statSync(new URL('dist/.built', ROOT)).mtimeMs;
  } catch {
    return false;
  }
  // About 300 files: a few milliseconds.
  for (const dir of SOURCE_DIRS) {
    const root = fileURLToPath(new URL(`${dir}/`, ROOT));
    for (const name of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
      if (statSync(root + name).mtimeMs > built) return false;
    }
  }
  return true;
}

if (process.env.TMAS_FROM_SOURCES !== '1' && builtIsCurrent()) {
  await import('../dist/src/cli/main.js');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./cli/main.ts');
}
