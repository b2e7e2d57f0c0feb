#!/usr/bin/env node
// `npm run build` (and `npm install`, through `prepare`): compiles src/,
// machines/ and workers/ to plain JavaScript under dist/, with the few files
// they read beside them, so that the `tmas` command runs without compiling
// TypeScript in every process and thread. esbuild bundles each entry with the
// modules of ours it imports (a process loads a few dozen files, not hundreds,
// so its main thread spends less time loading modules), and far faster than
// TypeScript's own emit. tsx stays the fallback: bin.mjs uses
// dist/ only while the sources are as they were built from
// (src/kernel/build-fingerprint.mjs), so an edit is never run stale. What it saves:
// tsx's loader threads, in the main thread and each pool thread, and the
// compiled sources it keeps, so a run peaks lower and `tmas --version`
// answers sooner (the figures: bench/results.json, benchmark `build`).
//
// Types are not checked here (`npm run typecheck` does): the build only strips
// them, and never fails on a type error.
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildFingerprint, SOURCE_DIRS } from './kernel/build-fingerprint.mjs';
import { BROWSER_BUNDLE, BROWSER_ENTRIES } from './report/browser-bundle.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = path.join(ROOT, 'dist');
/** Written last: the fingerprint of the sources as the build found them, which bin.mjs compares with theirs now. */
const BUILD_STAMP = path.join(DIST, '.built');
/**
 * Files read at run time, by their paths from the package root (src/kernel/package-root.ts): dist/ holds them as
 * the checkout does. A folder is copied without its TypeScript (the viewer's style sheets, not its script's sources).
 */
const ASSETS = ['package.json', 'problems', 'src/viewer/browser'];

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  // Installed without it (it comes with tsx): the command runs through tsx instead.
  console.log('tmas build: esbuild is not installed; the tmas command will compile its sources as it runs (tsx)');
  process.exit(0);
}

/**
 * The modules Node starts by name: the command, the entry a plugin imports as
 * `tmas` (src/host/strategy/plugins.ts), and the pool's worker modules
 * (src/pool/pool.ts). Everything they import, dynamic imports included, is
 * bundled with them.
 */
const ENTRIES = ['src/cli/main.ts', 'src/index.ts', 'workers/tokenize.worker.ts', 'workers/jaccard.worker.ts'];

const started = Date.now();
// Taken first: a source saved while this runs no longer matches, so it is not taken as built.
const fingerprint = buildFingerprint(ROOT);
rmSync(DIST, { recursive: true, force: true });

try {
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: ENTRIES,
    outdir: DIST,
    // Each entry where its source lies (dist/src/cli/main.js, ...); what several share, once, in dist/chunks/.
    outbase: ROOT,
    entryNames: '[dir]/[name]',
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    // A module imported by several entries or by a dynamic import is a chunk of its own, loaded
    // once: the command and a JavaScript plugin's `tmas` share one runtime (tsx loads a
    // TypeScript plugin's imports in a namespace of its own), and what a command imports
    // only when it runs (the grader, the simulator) stays out of `tmas --help`.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Packages stay in node_modules: a plugin that imports xstate or rxjs gets the very copy the
    // runtime uses, and native or path-loaded ones (classic-level, piscina) load as they expect.
    // (mathjs's factories are also bundled on their own, below, for the grader alone.)
    packages: 'external',
    logLevel: 'warning',
  });
  // The pages' scripts (the viewer's, the report's), each bundled for the browser where its entry lies
  // (dist/src/viewer/browser/viewer.js, ...): a process running from dist/ reads them there
  // (src/report/browser-script.ts); one running from the sources bundles them with the same options.
  await esbuild.build({ ...BROWSER_BUNDLE, absWorkingDir: ROOT, entryPoints: [...BROWSER_ENTRIES], outdir: DIST, outbase: ROOT, entryNames: '[dir]/[name]', logLevel: 'warning' });
} catch (error) {
  console.error(String(error instanceof Error ? error.message : error));
  console.error('tmas build: nothing usable was built; the tmas command will compile its sources as it runs (tsx)');
  rmSync(DIST, { recursive: true, force: true });
  // Under `npm install` (prepare) a failed build must not fail the install: the sources still run.
  process.exit(process.env.npm_lifecycle_event === 'prepare' ? 0 : 1);
}

// mathjs's factories and `create` in one file (src/grader/math/mathjs-env.ts, MATHJS_BUNDLE): the grader
// loads them in every run, and as a thousand CommonJS modules they took twice the CPU. Without it
// (a mathjs laid out otherwise) the grader requires them from node_modules as before.
try {
  const lib = path.dirname(createRequire(path.join(ROOT, 'package.json')).resolve('mathjs'));
  await esbuild.build({
    stdin: {
      contents: `module.exports = { all: require(${JSON.stringify(path.join(lib, 'factoriesAny.js'))}), create: require(${JSON.stringify(path.join(lib, 'core', 'create.js'))}).create };`,
      resolveDir: ROOT,
      loader: 'js',
    },
    outfile: path.join(DIST, 'vendor', 'mathjs-factories.cjs'),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
} catch (error) {
  console.log(`tmas build: mathjs left unbundled (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
}

// Plain-JS modules (the bin, worker shims, hooks) and the files modules read beside them.
const LAUNCHERS = ['src/bin.mjs', 'src/build.mjs', 'src/kernel/build-fingerprint.mjs'];
/** @param {string} dir */
const mjsFiles = (dir) =>
  readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.mjs'))
    .map((name) => path.join(dir, name))
    .filter((relative) => !LAUNCHERS.includes(relative.split(path.sep).join('/')));
for (const relative of [...ASSETS, ...SOURCE_DIRS.flatMap(mjsFiles)]) {
  const from = path.join(ROOT, relative);
  if (!existsSync(from)) continue;
  mkdirSync(path.dirname(path.join(DIST, relative)), { recursive: true });
  cpSync(from, path.join(DIST, relative), { recursive: true, filter: (file) => !file.endsWith('.ts') });
}

writeFileSync(BUILD_STAMP, fingerprint);
console.log(`tmas build: dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
