// What a build (src/build.mjs) is made of, as one string: the path, size and
// modification time of every file it compiles or copies. The build writes it
// to dist/.built; the bin (src/bin.mjs) runs dist/ only while the files give
// the same string, so an edit, an added or deleted file, a file put back with
// an older time (cp -p, rsync -a, tar) or a changed asset all send it back to
// the sources. About 300 files: a few milliseconds. Plain JavaScript, so that
// the bin can use it before anything is compiled; in the kernel, so that a
// process running from the sources can ask the same question of the build's
// worker modules (src/kernel/package-root.ts).
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** The folders the build compiles, each to dist/<folder>. */
export const SOURCE_DIRS = ['src', 'machines', 'workers'];

/** Everything the build reads, relative to the checkout. */
export const BUILD_INPUTS = [...SOURCE_DIRS, 'problems', 'package.json', 'tsconfig.json'];

/** The fingerprint of the build inputs under `root`, as they are now. */
export function buildFingerprint(root) {
  const lines = [];
  const add = (relative, stat) => lines.push(`${relative}\t${stat.size}\t${stat.mtimeMs}`);
  for (const input of BUILD_INPUTS) {
    const stat = lstatSync(path.join(root, input), { throwIfNoEntry: false });
    if (stat === undefined) {
      lines.push(`${input}\tmissing`);
    } else if (!stat.isDirectory()) {
      add(input, stat);
    } else {
      for (const name of readdirSync(path.join(root, input), { recursive: true, encoding: 'utf8' }).sort()) {
        // lstat: a dangling link (an editor's lock file) is a file like any other; one gone since the listing is left out.
        const entry = lstatSync(path.join(root, input, name), { throwIfNoEntry: false });
        if (entry !== undefined && !entry.isDirectory()) add(`${input}/${name}`, entry);
      }
    }
  }
  // The mathjs the build bundled into dist/vendor/: another one installed since makes the build stale.
  lines.push(`mathjs\t${mathjsStamp(root)}`);
  return lines.join('\n');
}

/** The size and time of the mathjs module the build bundles, as the build resolves it; `missing` when none resolves. */
function mathjsStamp(root) {
  try {
    const stat = lstatSync(path.join(path.dirname(createRequire(path.join(root, 'package.json')).resolve('mathjs')), 'factoriesAny.js'));
    return `${stat.size}\t${stat.mtimeMs}`;
  } catch {
    return 'missing';
  }
}

/**
 * Whether the build in `root`/dist may run in place of the sources: it holds a
 * build of the sources as they are now, and TMAS_FROM_SOURCES=1 does not ask
 * for the sources whatever dist/ holds.
 */
export function buildRuns(root) {
  if (process.env.TMAS_FROM_SOURCES === '1') return false;
  let built;
  try {
    built = readFileSync(path.join(root, 'dist', '.built'), 'utf8');
  } catch {
    return false;
  }
  try {
    return built === buildFingerprint(root);
  } catch {
    // A folder that cannot be read: the sources run, and say what is wrong if it matters.
    return false;
  }
}
