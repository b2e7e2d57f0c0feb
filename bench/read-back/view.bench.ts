/**
 * `tmas view` on a long run (issue "See every call"): the time from starting
 * the command to its first page being answered (the page, the run list, the
 * curves and the first page of the problem table), the time of a problem's
 * page (its iterations, its last iteration's transcripts, its banks), a text
 * search over the journal and the error list, and the server's peak RSS over
 * all of it. The viewer reads bounded pages from LevelDB, so neither should
 * grow with the run. Sizes as the replay-export benchmark: 200,000 messages
 * with `--full`.
 */
import { spawn } from 'node:child_process';
import { highWaterMark, printedUrl } from '../harness/child-process.ts';
import { makeLongRun } from './long-run.ts';
import { tmasCommand } from '../harness/sim-process.ts';
import { mb } from '../harness/tmas-run.ts';
import type { Benchmark, BenchRow } from '../harness/types.ts';

/** What viewing a run costs. */
export interface ViewMeasure {
  /** From spawning `tmas view` to the first page's data answered. */
  firstPageMs: number;
  /** The first page's requests alone, once the server listens (without Node's start-up). */
  firstPageServedMs: number;
  /** A problem's page: its record, its last iteration's calls and banks. */
  problemPageMs: number;
  /** One page of a text search over the journal (bounded scan). */
  searchMs: number;
  errorsMs: number;
  peakRss: number;
}


async function get(url: string): Promise<unknown> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.headers.get('content-type')?.startsWith('application/json') ? response.json() : response.text();
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** Starts `tmas view` on a run directory as a child process and measures it. */
export async function measureView(runDir: string): Promise<ViewMeasure> {
  const started = performance.now();
  const child = spawn(...tmasCommand(['view', runDir, '--port', '0']), { stdio: ['ignore', 'pipe', 'inherit'] });
  let peakRss = 0;
  const sampler = setInterval(() => {
    if (child.pid !== undefined) void highWaterMark(child.pid).then((rss) => (peakRss = Math.max(peakRss, rss)));
  }, 100);
  try {
    const base = await printedUrl(child);
    const listening = performance.now();
    const api = `${base}api/runs`;
    await get(base);
    await get(api);
    await get(`${api}/0/curves`);
    const table = (await get(`${api}/0/problems?limit=50`)) as { rows: Array<{ ordinal: number; id: string; iterations: number }> };
    const firstPageMs = performance.now() - started;
    const firstPageServedMs = performance.now() - listening;
    const row = table.rows.at(-1);
    if (!row) throw new Error('the run has no problems');
    const last = row.iterations - 1;
    const problemPageMs = await timed(() =>
      Promise.all([get(`${api}/0/problems/${row.ordinal}`), get(`${api}/0/problems/${row.ordinal}/transcript/${last}`), get(`${api}/0/problems/${row.ordinal}/banks/${last}`)]),
    );
    const searchMs = await timed(() => get(`${api}/0/calls?search=${encodeURIComponent('no such phrase anywhere')}&limit=25`));
    // As the errors tab reads: on past pages with no match until it finds one or reaches the end of the log.
    const errorsMs = await timed(async () => {
      let after: string | null = '';
      while (after !== null) {
        const page = (await get(`${api}/0/messages?type=errors&limit=100${after === '' ? '' : `&after=${encodeURIComponent(after)}`}`)) as { messages: unknown[]; next: string | null };
        after = page.messages.length === 0 ? page.next : null;
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    if (child.pid !== undefined) peakRss = Math.max(peakRss, await highWaterMark(child.pid));
    return { firstPageMs, firstPageServedMs, problemPageMs, searchMs, errorsMs, peakRss };
  } finally {
    clearInterval(sampler);
    child.kill('SIGINT');
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null)));
  }
}

/** The viewer benchmark. */
export const viewBenchmark: Benchmark = {
  name: 'view',
  async run(context): Promise<BenchRow[]> {
    const { runDir, size } = await makeLongRun(context, 'view');
    context.log('view: tmas view');
    const measured = await measureView(runDir);
    const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    return [
      { figure: 'view: first page', target: '< 5 s', measured: seconds(measured.firstPageMs), pass: measured.firstPageMs < 5000, note: `${size}; from starting the process (${seconds(measured.firstPageServedMs)} once it listens)` },
      { figure: 'view: a problem page', target: '—', measured: seconds(measured.problemPageMs), pass: null, note: 'its iterations, its last iteration\'s transcripts, its banks' },
      { figure: 'view: journal search page', target: '—', measured: seconds(measured.searchMs), pass: null, note: 'a phrase found nowhere: one bounded scan' },
      { figure: 'view: errors page', target: '—', measured: seconds(measured.errorsMs), pass: null, note: 'bounded scans up to the first error or the end of the log' },
      { figure: 'view: peak RSS', target: '< 500 MB', measured: mb(measured.peakRss), pass: measured.peakRss > 0 && measured.peakRss < 500 * 2 ** 20, note: size },
    ];
  },
};
