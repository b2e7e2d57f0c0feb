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
