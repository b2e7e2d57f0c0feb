/**
 * Benchmark: what a run keeps on disk and what it writes to get there, on the
 * issue's run: 10 problems × 3 iterations × 8 × 8 with 8,000-token outputs
 * (2,460 calls), against the simulator as its own process.
 *
 * - The store's size (its LevelDB files) against the bytes of the distinct
 *   texts it holds (each text in `texts` once, as UTF-8): target ≤ 1.5×.
 * - The bytes the run's process sent to disk (`write_bytes` of /proc/self/io,
 *   counted as pages are dirtied, so flushes and compactions of files deleted
 *   since count too): target ≤ 3× the store. The simulator is another process;
 *   this one writes nothing else meanwhile.
 * - What `tmas log` prints for the run, every message whole.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Store } from '../../src/store/store.ts';
import { writeBenchProblems } from '../harness/problems.ts';
import { measureCommand } from '../harness/child-process.ts';
import { startSimProcess } from '../harness/sim-process.ts';
import { measureRun } from '../harness/tmas-run.ts';
import type { Benchmark } from '../harness/types.ts';

/** Bytes this process has caused to be written to storage; null where /proc is absent. */
async function bytesWritten(): Promise<number | null> {
  const io = await readFile('/proc/self/io', 'utf8').catch(() => null);
  const written = io === null ? undefined : /^write_bytes: (\d+)$/m.exec(io)?.[1];
  return written === undefined ? null : Number(written);
}

/** Total size of the files in `dir` (a LevelDB directory has no subdirectories). */
async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  for (const name of await readdir(dir)) {
    const file = await stat(path.join(dir, name));
    if (file.isFile()) total += file.size;
  }
  return total;
}

/** The bytes of every distinct text the run's store holds (each text once, its chunks joined), and how many texts. */
async function distinctTexts(runDir: string): Promise<{ bytes: number; texts: number }> {
  const store = await Store.open(runDir);
  try {
    const chunkBytes = new Map<string, number>();
    for await (const [digest, chunk] of store.chunks().iterator()) chunkBytes.set(digest as string, Buffer.byteLength(chunk as string));
    let bytes = 0;
    let texts = 0;
    for await (const list of store.texts().values()) {
      texts++;
      for (const chunk of list as string[]) bytes += chunkBytes.get(chunk) ?? 0;
    }
    return { bytes, texts };
  } finally {
    await store.close();
  }
}

const MB = 2 ** 20;
const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

/** The store benchmark. */
export const storeBenchmark: Benchmark = {
  name: 'store',
  async run({ quick, dir, log }) {
    const [problems, iterations, outputTokens] = quick ? [4, 2, 2_000] : [10, 3, 8_000];
    const file = await writeBenchProblems(dir, problems);
    const sim = await startSimProcess({ problems: file, outputTokens });
    let runDir: string;
    let written: number | null;
    let calls: number;
    try {
      log(`store: ${problems} problems × ${iterations} iterations × 8 × 8, ${outputTokens}-token outputs`);
      const before = await bytesWritten();
      const run = await measureRun({
        dir,
        args: ['--input-file', file, '--base-url', sim.url, '--model-name', 'tmas-sim', '--no-proof', '--judge-passes', '0', '--n-candidates', '8', '--n-verifications', '8', '--max-iterations', String(iterations), '--concurrency', '256'],
      });
      const after = await bytesWritten();
      written = before === null || after === null ? null : after - before;
      runDir = run.outcome.outputDir;
      calls = run.outcome.calls.issued;
    } finally {
      await sim.stop();
    }
    const store = await sizeOf(path.join(runDir, 'store'));
    const texts = await distinctTexts(runDir);
    const printed = await measureCommand(['log', runDir]);
    if (printed.code !== 0) throw new Error(`tmas log exited with code ${printed.code}`);
    const size = `${problems} problems × ${iterations} it × 8 × 8 = ${calls} calls, ${outputTokens}-token outputs${quick ? ' (--quick)' : ''}`;
    return [
      {
        figure: 'store: size / distinct texts held',
        target: '≤ 1.5x',
        measured: `${(store / texts.bytes).toFixed(2)}x (${mb(store)} / ${mb(texts.bytes)})`,
        pass: store <= 1.5 * texts.bytes,
        note: `${texts.texts.toLocaleString('en-US')} distinct texts; ${size}`,
      },
      {
        figure: 'store: bytes written to disk / store size',
        target: '≤ 3x',
        measured: written === null ? 'not measured (no /proc/self/io)' : `${(written / store).toFixed(2)}x (${mb(written)})`,
        pass: written === null ? null : written <= 3 * store,
        note: 'write_bytes of the run process: LevelDB log, tables and compactions, and the run outputs',
      },
      { figure: 'store: tmas log output', target: '—', measured: mb(printed.stdoutBytes), pass: null, note: 'every message whole, texts put back' },
    ];
  },
};
