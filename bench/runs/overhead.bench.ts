/**
 * Benchmark 1, overhead: a zero-latency sim-server, 100 problems × 2
 * iterations × 8 × 8 (16,400 calls) at concurrency 800, against the same
 * requests sent straight through the `openai` client (the ceiling).
 * Target: the runtime reaches at least 80% of the ceiling's calls per second.
 * The runtime streams by default; it runs again with `--no-stream`, the way
 * the ceiling's client asks, so both figures are reported. The ceiling is
 * measured twice: with the client's default fetch (the target's reference),
 * and over the gateway's own HTTP transport, which is cheaper.
 */
import os from 'node:os';
import { createHttpTransport } from '../../src/gateway/request/http-transport.ts';
import { readJournaledRequests, sendRaw } from './ceiling.ts';
import { writeBenchProblems } from '../harness/problems.ts';
import { startSimProcess } from '../harness/sim-process.ts';
import { mb, measureRun } from '../harness/tmas-run.ts';
import type { Benchmark } from '../harness/types.ts';

/** The target for the runtime's peak RSS on this run (an asyncio + httpx client peaks at 97 MB). */
const RSS_TARGET = 450 * 2 ** 20;

/** The overhead benchmark. */
export const overheadBenchmark: Benchmark = {
  name: 'overhead',
  async run({ quick, dir, log }) {
    const problems = quick ? 20 : 100;
    const concurrency = 800;
    const file = await writeBenchProblems(dir, problems);
    const sim = await startSimProcess({ problems: file });
    try {
      log(`overhead: tmas, ${problems} problems × 2 iterations × 8 × 8 at concurrency ${concurrency}`);
      const args = ['--input-file', file, '--base-url', sim.url, '--model-name', 'tmas-sim', '--no-proof', '--judge-passes', '0', '--max-iterations', '2', '--n-candidates', '8', '--n-verifications', '8', '--concurrency', String(concurrency)];
      // The machine's 1-minute load average around each measure: the figures are wall-clock rates, which another process on the cores lowers.
      const load = () => (os.loadavg()[0] ?? 0).toFixed(1);
      const streamedLoad = load();
      const run = await measureRun({ dir, args });
      const streamedLoadEnd = load();
      log('overhead: again with --no-stream');
      const plain = await measureRun({ dir, args: [...args, '--no-stream'] });
      const plainLoad = load();
      const plainRate = plain.outcome.calls.issued / (plain.wallMs / 1000);
      const calls = run.outcome.calls.issued;
      const runtimeRate = calls / (run.wallMs / 1000);
      log(`overhead: ${calls} calls in ${(run.wallMs / 1000).toFixed(1)} s (load average ${streamedLoad} to ${streamedLoadEnd}); ceiling: the same requests through the openai client`);
      const requests = await readJournaledRequests(run.outcome.outputDir);
      const ceiling = await sendRaw(sim.url, requests, concurrency);
      const ceilingLoad = load();
      const ceilingRate = ceiling.calls / (ceiling.wallMs / 1000);
      const share = runtimeRate / ceilingRate;
      // The gateway does not use the client's default fetch (http-transport.ts): the same client over the gateway's transport shows what is left of the overhead once both send alike.
      const transport = createHttpTransport();
      const sameTransport = await sendRaw(sim.url, requests, concurrency, transport.fetch).finally(() => transport.close());
      const sameTransportRate = sameTransport.calls / (sameTransport.wallMs / 1000);
      const sizes = `${problems} problems × 2 it × 8 × 8 = ${calls} calls, concurrency ${concurrency}, zero latency, sim-server in its own process; load average ${streamedLoad} at the start, ${streamedLoadEnd} at the end`;
      return [
        { figure: 'overhead: runtime calls/s, streamed', target: '≥ 80% of ceiling', measured: `${runtimeRate.toFixed(0)} calls/s (${(share * 100).toFixed(0)}% of ceiling)`, pass: share >= 0.8, note: sizes },
        {
          figure: 'overhead: runtime calls/s, --no-stream',
          target: '≥ 80% of ceiling',
          measured: `${plainRate.toFixed(0)} calls/s (${((plainRate / ceilingRate) * 100).toFixed(0)}% of ceiling)`,
          pass: plainRate / ceilingRate >= 0.8,
          note: `whole replies, as the ceiling client asks for them; load average ${plainLoad} at the end`,
        },
        { figure: 'overhead: ceiling calls/s (openai client, no actors)', target: '—', measured: `${ceilingRate.toFixed(0)} calls/s`, pass: null, note: `${ceiling.calls} journaled requests replayed; load average ${ceilingLoad} at the end` },
        {
          figure: "overhead: ceiling over tmas's HTTP transport",
          target: '—',
          measured: `${sameTransportRate.toFixed(0)} calls/s`,
          pass: null,
          note: `the same client with the gateway's fetch; --no-stream reaches ${((plainRate / sameTransportRate) * 100).toFixed(0)}% of it, streamed ${((runtimeRate / sameTransportRate) * 100).toFixed(0)}%`,
        },
        { figure: 'overhead: runtime CPU per call', target: '—', measured: `${(run.cpuMs / calls).toFixed(2)} ms (ceiling client: ${(ceiling.cpuMs / ceiling.calls).toFixed(2)} ms)`, pass: null, note: 'process.cpuUsage of the runtime process (main thread + pool threads)' },
        { figure: 'overhead: runtime peak RSS', target: '≤ 450 MB', measured: mb(run.peakRss), pass: run.peakRss <= RSS_TARGET, note: 'the bench process running tmas in-process; `tmas run` on its own measures about the same' },
      ];
    } finally {
      await sim.stop();
    }
  },
};
