/**
 * Reading a long run back (issue 39, "Analysis at full size"): `tmas replay`,
 * `tmas export` and `tmas log` on a run of many messages, each as its own
 * process, with wall time, messages per second and peak RSS. At the full size
 * (`--full`: 100 × 20 × 8 × 8, 164,000 generations, 332,202 messages) replay
 * must take under 60 s in 450 MB and export under 15 s; the default run is
 * smaller to fit the bench budget, and its rows carry no target.
 */
import path from 'node:path';
import { measureCommand } from '../harness/child-process.ts';
import { makeLongRun } from './long-run.ts';
import { mb } from '../harness/tmas-run.ts';
import type { Benchmark, BenchRow } from '../harness/types.ts';

const MB = 2 ** 20;

/** The targets at the full size: wall seconds (null: none) and peak RSS. */
const FULL_TARGETS: Record<string, { seconds: number | null; rss: number }> = {
  replay: { seconds: 60, rss: 450 * MB },
  export: { seconds: 15, rss: 500 * MB },
  log: { seconds: null, rss: 500 * MB },
};

/** Smaller runs keep the memory bound: reading streams, whatever the log's length. */
const RSS_TARGET = 500 * MB;

/** Messages per second, or records (generations) per second for an export, which prints its count. */
function rateOf(name: string, messages: number, stdout: string, seconds: number): string {
  const records = name === 'export' ? /^(\d+) records/.exec(stdout)?.[1] : undefined;
  return records === undefined ? `${Math.round(messages / seconds).toLocaleString('en-US')} messages/s` : `${Math.round(Number(records) / seconds).toLocaleString('en-US')} generations/s`;
}

/** The replay, export and log benchmark. */
export const replayExportBenchmark: Benchmark = {
  name: 'replay-export',
  async run(context): Promise<BenchRow[]> {
    const { runDir, messages, size } = await makeLongRun(context, 'replay-export');
    const rows: BenchRow[] = [];
    const commands: Array<[string, string[]]> = [
      ['replay', ['replay', runDir]],
      ['export', ['export', runDir, '--format', 'rl', '--out', path.join(context.dir, 'export')]],
      ['log', ['log', runDir]],
    ];
    for (const [name, args] of commands) {
      context.log(`replay-export: tmas ${name}`);
      const measured = await measureCommand(args);
      const ok = measured.code === 0;
      const seconds = measured.wallMs / 1000;
      const target = context.full ? FULL_TARGETS[name] : undefined;
      const limit = target?.seconds ?? null;
      const rss = target?.rss ?? RSS_TARGET;
      rows.push({
        figure: `${name}: wall time`,
        target: limit === null ? '—' : `< ${limit} s`,
        measured: ok ? `${seconds.toFixed(1)} s (${rateOf(name, messages, measured.stdout, seconds)})` : `exit code ${measured.code}`,
        pass: !ok ? false : limit === null ? null : seconds < limit,
        note: name === 'replay' ? `${size}; ${measured.stdout.split('\n')[0] ?? ''}` : size,
      });
      rows.push({ figure: `${name}: peak RSS`, target: `< ${rss / MB} MB`, measured: mb(measured.peakRss), pass: ok && measured.peakRss > 0 && measured.peakRss < rss, note: size });
    }
    return rows;
  },
};
