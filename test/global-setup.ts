/**
 * Before the suite: brings dist/ up to date when the sources were edited since
 * the last build. The tests start `tmas` as child processes and pool threads,
 * which run dist/ only while it is current and compile the sources on the fly
 * otherwise; in a checkout edited since its build that is every process's
 * start, and the suite took about twice as long (527 s against 283 s). CI's
 * clone is built by `npm ci` and skips this. The build takes about a second
 * and is what `npm run build` makes.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildRuns } from '../src/kernel/build-fingerprint.mjs';

const REPO = fileURLToPath(new URL('..', import.meta.url));

export default function buildIfStale(): void {
  if (buildRuns(REPO)) return;
  execFileSync(process.execPath, ['src/build.mjs'], { cwd: REPO, stdio: 'inherit' });
}
