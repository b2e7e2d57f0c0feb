/**
 * Where this tmas lies, for the files it reads or starts by path (its
 * package.json, the demo problems, the viewer's page, the pool's worker
 * modules, the plugin entry). Found from this module's own location, never
 * from each caller's: the build (src/build.mjs) bundles modules into shared
 * chunks, where a caller's `import.meta.url` no longer says where its source
 * lay. The build is a tree of its own, dist/, laid out as the checkout (with a
 * copy of package.json at its root), so a path relative to the root names the
 * same file in both trees, up to the modules' extension.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildRuns } from './build-fingerprint.mjs';

/** The nearest folder above `from` whose package.json is tmas's. */
function findRoot(from: string): string {
  for (let dir = path.dirname(from); ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'tmas') return dir;
    if (path.dirname(dir) === dir) throw new Error(`tmas: no package.json of tmas above ${from}`);
  }
}

/** The checkout, or dist/ when this runs from the build. */
export const PACKAGE_ROOT = findRoot(fileURLToPath(import.meta.url));

/** Whether this runs from the build: its modules are JavaScript, the sources' TypeScript (tsx may add a query to the URL). */
export const FROM_BUILD = !new URL(import.meta.url).pathname.endsWith('.ts');

/** The path of a file of tmas, by its path in the checkout (`/`-separated). */
export function packagePath(relative: string): string {
  return path.join(PACKAGE_ROOT, ...relative.split('/'));
}

/** The path of a TypeScript module of the checkout as this tree has it: itself, or its build. */
export function modulePath(relativeTs: string): string {
  return packagePath(FROM_BUILD ? relativeTs.replace(/\.ts$/, '.js') : relativeTs);
}

/** Whether this process, running from the sources, may load the build's modules instead: asked once, when first needed. */
let buildRunsHere: boolean | undefined;

/**
 * The path of a pool thread's module (workers/), as a thread loads it: the
 * build's whenever it may run (always from the build; from the sources, by
 * the bin's own rule: the build is of the sources as they are now, and
 * TMAS_FROM_SOURCES=1 is not set), else the TypeScript source. Why: a thread
 * that loads TypeScript registers tsx, which starts a loader thread of its
 * own, about 0.4 s of CPU time for every pool a process from the sources
 * starts (each run of `npm run bench` and of the tests), for the same code.
 */
export function threadModulePath(relativeTs: string): string {
  if (FROM_BUILD) return modulePath(relativeTs);
  buildRunsHere ??= buildRuns(PACKAGE_ROOT);
  return buildRunsHere ? packagePath(`dist/${relativeTs.replace(/\.ts$/, '.js')}`) : modulePath(relativeTs);
}
