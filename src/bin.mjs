#!/bin/sh
':' //; case "$1" in run|fork|table1) h=; case "$NODE_OPTIONS" in *max-old-space-size*) ;; *) h=$(NODE_OPTIONS= node -e 'const c=process.constrainedMemory?.()||0,m=Math.min(require("os").totalmem(),c>0?c:1/0)*0.75/1048576;if(m>4096)console.log("--max-old-space-size="+Math.floor(m))');; esac; exec node --max-semi-space-size=4 $h "$0" "$@";; esac; exec node "$0" "$@"
// The `tmas` executable: a shell script for its first two lines, JavaScript
// after. Run as a program (`npx tmas`, `./src/bin.mjs`, `sh src/bin.mjs`), sh
// reads line 2 and replaces itself with node on this same file; for the
// commands that run calls, with V8's young generation capped at two 4 MB
// semi-spaces (`npm run bench` starts node with the same cap, since its
// benchmarks run tmas in-process). Node skips line 1 and reads line 2 as a
// string and a comment. Why: V8 sizes the young generation from
// the machine's memory (two 16 MB semi-spaces on a machine of 16 GB or more),
// and only a flag at start-up changes it. With thinking-length outputs,
// hundreds of calls in flight keep it full: 4 MB lowered a run's peak RSS for
// a few percent more CPU time, and 2 MB saved little more for markedly more
// CPU. Streams of one token an event (the stream-chunks benchmark) cost no
// more CPU under the cap: 4, 16 and 64 MB took 6.3-6.5, 6.4-6.9 and 6.8-6.9
// CPU-s for the same 32 streams of 2,000 tokens, the larger ones in fewer,
// longer pauses. The other commands (replay, export, view…) were measured with V8's own
// size and keep it, as does `node src/bin.mjs`.
//
// The same commands may also grow the old generation to three quarters of the
// machine's memory (or of the container's limit, where one is set), where that
// is more than V8's own limit, about 4 GB whatever the machine holds: a run
// keeps its problems' texts until their iterations are saved, and `tmas
// table1` on 40 problems (majority's 256 samples of each among them, replies
// that fill their window) died at V8's limit ('JavaScript heap out of
// memory') after 17 minutes on a machine of 24 GB. A --max-old-space-size
// already in NODE_OPTIONS is the user's, and stays.
//
// The executable. It runs the build in dist/ (src/build.mjs, run by
// `npm install` and `npm run build`) while the files it was built from are as
// they were (src/kernel/build-fingerprint.mjs); otherwise tsx compiles the TypeScript
// sources on the fly, so an edited checkout, a clone not yet built or an
// install without dev dependencies runs the sources as they are.
// TMAS_FROM_SOURCES=1 runs the sources whatever dist/ holds.
import { fileURLToPath } from 'node:url';
import { buildRuns } from './kernel/build-fingerprint.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The CLI's entry (src/cli/main.ts): from the build when current, else from the sources. */
async function loadMain() {
  // The build's entry by URL, not a literal path: the type checker reads the sources, not dist/.
  if (buildRuns(ROOT)) return (await import(new URL('../dist/src/cli/main.js', import.meta.url).href)).main;
  const { register } = await import('tsx/esm/api');
  register();
  return (await import('./cli/main.ts')).main;
}

const main = await loadMain();

// A reader that closed the pipe (`tmas log DIR | head`) has all it wanted: stop quietly, with no stack trace.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

// Exit explicitly: every resource is closed by now, and a stray handle must not keep a finished run alive.
process.exit(await main(process.argv.slice(2)));
