/**
 * Benchmark stream-chunks: tmas's own CPU per streamed event at one token an
 * event, as vLLM and SGLang stream by default. At 2,000 streams of 50
 * tokens/s that is 100,000 events a second, so each microsecond an event
 * costs is a tenth of a core.
 *
 * The same majority run (P problems × ${SAMPLES} samples of about 2,000 tokens, at
 * concurrency 64) goes twice against `tmas sim-server` in its own process,
 * paced so that a network read holds about one event, as a busy server's
 * streams arrive: once at one token an event, once at 64 tokens an event.
 * The simulator's CPU is its own process's; this process's
 * (`process.cpuUsage`: the main thread and the pool's threads) is tmas's.
 * The two runs make the same calls in about the same time, so what a call
 * costs (prompts, actors, journal, grading) and what time costs (polls of
 * /metrics, the progress) are in both; their difference over the difference
 * of their events is the cost of one event. It reads against what a bare
 * client of `node:http` spends on the same streams (stream-floor.ts), which
 * the machine's load moves as it moves tmas's: the target is at most 1.5
 * times that.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { writeBenchProblems } from '../harness/problems.ts';
import { startSimProcess } from '../harness/sim-process.ts';
import { measureStreamFloor, type StreamFloor } from './stream-floor.ts';
import { measureRun, type MeasuredRun } from '../harness/tmas-run.ts';
import type { Benchmark } from '../harness/types.ts';

/** Tokens a sample's reply has, about (`--output-tokens`). */
const OUTPUT_TOKENS = 2_000;
/** Each stream's pace: 5 ms between events, so a read holds about one of them. */
const TOKENS_PER_SECOND = 200;
/** Tokens an event of the second run holds. */
const COARSE_CHUNK = 64;
/** Events of a streamed reply besides its text's: the role's, the finish reason's, the usage's, `[DONE]`. */
const EVENTS_BESIDE_TEXT = 4;
/** The target: tmas's cost of an event beyond its call, as a multiple of what a bare client spends reading one. */
const TARGET_TIMES_FLOOR = 1.5;
/** Samples per problem, as the run draws them. */
const SAMPLES = 8;

/** One run at `chunkTokens` tokens an event, measured, with its events and its garbage collector's time. */
interface ChunkRun {
  run: MeasuredRun;
  events: number;
  gcMs: number;
  /** The bare client on the same simulator, the same number of streams; measured at one token an event only. */
  floor: StreamFloor | null;
}

/**
 * The events of a run's replies at `chunkTokens` an event. The simulator
 * counts a token as 4 characters and cuts each field (reasoning, answer) into
 * pieces of `chunkTokens` tokens, so at one token an event the text's events
 * are its completion tokens; at more, each field's last piece is about half
 * an event more.
 */
function eventsOf(completionTokens: number, calls: number, chunkTokens: number): number {
  const text = chunkTokens === 1 ? completionTokens : completionTokens / chunkTokens + calls / 2;
  return Math.round(text + calls * EVENTS_BESIDE_TEXT);
}

/** Milliseconds the garbage collector took while `work` ran (its pauses on the main thread). */
async function withGcTime<T>(work: () => Promise<T>): Promise<{ value: T; gcMs: number }> {
  let gcMs = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMs += entry.duration;
  });
  observer.observe({ entryTypes: ['gc'] });
  try {
    const value = await work();
    // The entries of the last collections are delivered on a later turn.
    await new Promise((resolve) => setImmediate(resolve));
    return { value, gcMs };
  } finally {
    observer.disconnect();
  }
}

/** Each problem's question, once per sample: the bare client's requests. */
async function promptsOf(file: string): Promise<string[]> {
  const lines = (await readFile(file, 'utf8')).split('\n').filter((line) => line.trim() !== '');
  return lines.flatMap((line) => Array.from({ length: SAMPLES }, (_, sample) => `${(JSON.parse(line) as { question: string }).question}\n(sample ${sample})`));
}

/** The majority run against a simulator at `chunkTokens` tokens an event. */
async function runAt(chunkTokens: number, problems: number, dir: string): Promise<ChunkRun> {
  const file = await writeBenchProblems(dir, problems);
  const sim = await startSimProcess({ problems: file, outputTokens: OUTPUT_TOKENS, chunkTokens, tokensPerSecond: TOKENS_PER_SECOND });
  try {
    const args = ['--input-file', file, '--base-url', sim.url, '--model-name', 'tmas-sim', '--no-proof', '--judge-passes', '0', '--strategy', 'majority', '--samples', String(SAMPLES), '--max-iterations', '1', '--concurrency', '64'];
    const { value: run, gcMs } = await withGcTime(() => measureRun({ dir, args }));
    const metrics = JSON.parse(await readFile(path.join(run.outcome.outputDir, 'metrics.json'), 'utf8')) as { totals: { tokens: { completion: number } } };
    const floor = chunkTokens === 1 ? await measureStreamFloor(sim.url, await promptsOf(file)) : null;
    return { run, events: eventsOf(metrics.totals.tokens.completion, run.outcome.calls.issued, chunkTokens), gcMs, floor };
  } finally {
    await sim.stop();
  }
}

/** The stream-chunks benchmark. */
export const streamChunksBenchmark: Benchmark = {
  name: 'stream-chunks',
  async run({ quick, dir, log }) {
    const problems = quick ? 4 : 8;
    log(`stream-chunks: majority, ${problems} problems × ${SAMPLES} samples of about ${OUTPUT_TOKENS} tokens, ${TOKENS_PER_SECOND} tokens/s a stream, 1 token an event`);
    const fine = await runAt(1, problems, dir);
    log(`stream-chunks: again at ${COARSE_CHUNK} tokens an event`);
    const coarse = await runAt(COARSE_CHUNK, problems, dir);
    const perEventUs = ((fine.run.cpuMs - coarse.run.cpuMs) * 1000) / (fine.events - coarse.events);
    const gcPerEventUs = ((fine.gcMs - coarse.gcMs) * 1000) / (fine.events - coarse.events);
    const floorUs = fine.floor?.cpuPerEventUs ?? Number.NaN;
    const perThousand = (ms: number, events: number) => ((ms / events) * 1000) / 1000;
    const calls = fine.run.outcome.calls.issued;
    const sizes = `${calls} calls, ${fine.events} events at 1 token an event (${coarse.events} at ${COARSE_CHUNK}), ${(fine.run.wallMs / 1000).toFixed(0)} s and ${(coarse.run.wallMs / 1000).toFixed(0)} s; sim-server in its own process`;
    return [
      {
        figure: 'stream-chunks: CPU per event, 1 token an event',
        target: `≤ ${TARGET_TIMES_FLOOR} × a bare client's`,
        measured: `${perEventUs.toFixed(1)} µs (${(perEventUs / floorUs).toFixed(2)} × a bare client's)`,
        pass: perEventUs <= TARGET_TIMES_FLOOR * floorUs,
        note: `(CPU at 1 token an event − CPU at ${COARSE_CHUNK}) / (events − events): what an event costs beyond its call; ${sizes}`,
      },
      {
        figure: 'stream-chunks: a bare client, per event',
        target: '—',
        measured: `${floorUs.toFixed(1)} µs`,
        pass: null,
        note: `node:http's data events split into lines and each event's JSON parsed, on the same simulator: ${fine.floor?.events ?? 0} events of ${SAMPLES * problems} streams; what a read costs on this machine`,
      },
      {
        figure: 'stream-chunks: CPU-s per 1,000 events, all in',
        target: '—',
        measured: `${perThousand(fine.run.cpuMs, fine.events).toFixed(3)} s (at ${COARSE_CHUNK} tokens an event: ${(coarse.run.cpuMs / 1000).toFixed(1)} CPU-s for the same calls)`,
        pass: null,
        note: `the run's whole CPU, ${(fine.run.cpuMs / 1000).toFixed(1)} s, over its events: calls, prompts and grading included`,
      },
      {
        figure: 'stream-chunks: garbage collection per event',
        target: '—',
        measured: `${gcPerEventUs.toFixed(1)} µs (${((gcPerEventUs / perEventUs) * 100).toFixed(0)}% of the cost of an event)`,
        pass: null,
        note: `the main thread's collection pauses (PerformanceObserver 'gc', wall time), ${(fine.gcMs / 1000).toFixed(2)} s at 1 token an event and ${(coarse.gcMs / 1000).toFixed(2)} s at ${COARSE_CHUNK}, their difference over the difference of events; young generation capped as \`tmas run\` caps it`,
      },
    ];
  },
};
