/**
 * Reading a long run back (issue "Durable runs"): `tmas replay`, `tmas export`
 * and `tmas log` on a run of many messages, each as its own process, with
 * messages per second and peak RSS. They stream the store, so RSS must stay
 * under 500 MB whatever the log's length. The size is 200,000
 * messages (`--full`); the default run is smaller to fit the bench budget.
 */
import path from 'node:path';
import { measureCommand } from './child-process.ts';
import { makeLongRun } from './long-run.ts';
import { mb } from './tmas-run.ts';
import type { Benchmark, BenchRow } from './types.ts';

const RSS_TARGET = 500 * 2 ** 20;


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
      rows.push({
        figure: `${name}: messages/s`,
        target: '—',
        measured: ok ? `${Math.round(messages / (measured.wallMs / 1000)).toLocaleString('en-US')}/s (${(measured.wallMs / 1000).toFixed(1)} s)` : `exit code ${measured.code}`,
        pass: ok ? null : false,
        note: name === 'replay' ? `${size}; ${measured.stdout.split('\n')[0] ?? ''}` : size,
      });
      rows.push({ figure: `${name}: peak RSS`, target: '< 500 MB', measured: mb(measured.peakRss), pass: ok && measured.peakRss > 0 && measured.peakRss < RSS_TARGET, note: size });
    }
    return rows;
  },
};
