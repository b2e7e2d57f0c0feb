/**
 * What metrics.json says of the gateway: the run's own calls (a table's
 * methods share one gateway, and each counts its calls apart: ledger.ts),
 * over every process that ran the run.
 *
 * A process that writes the run's outputs (at its end, or on a stop) first
 * keeps its counts in the store (`processes`), under the sequence number its
 * messages start at; metrics.json then sums those of every process: retries,
 * failures and the replies' figures, each endpoint's calls, errors and prefix
 * hits, and the latencies as one sample. What is the gateway's own state
 * (each endpoint's limit, knee, load, dialect and health) is that of the last
 * process that sent anything, as it ended. A process killed outright, or run
 * by a tmas before these records, kept nothing: the block says how many
 * stretches of the run's log such processes wrote (`processes.uncounted`).
 * A run of one process, alone on its gateway, has the block it always had.
 */
import { summarizeLatencies } from '../../gateway/load/latency-sample.ts';
import { gatewaySummary, type EndpointStats, type GatewayStats } from '../../gateway/gateway.ts';
import { UserError } from '../../kernel/errors.ts';
import { seqKey } from '../../store/records.ts';
import type { Store } from '../../store/store.ts';
import { writeFailureFix } from '../../store/write-failure.ts';

/** The block metrics.json had before runs shared gateways or were summed over processes. */
type Summary = ReturnType<typeof gatewaySummary>;

/** What one process keeps of the gateway's counts of the run's calls. */
export interface ProcessCounts {
  /** The sequence numbers of the messages it logged: `firstSeq` up to, not including, `endSeq`. */
  firstSeq: number;
  endSeq: number;
  /** Whether it sent anything or a call failed in it: one that did not (a resume of a finished run) adds nothing, and its endpoints' fresh state is not the run's. */
  sent: boolean;
  /** The runs it shared its gateway with (run-workload.ts). */
  sharedWith: string[];
  counts: Omit<Summary, 'latency'>;
  latency: GatewayStats['latencySamples'];
}

/** The endpoints' figures that are the shared gateway's, not the run's: a run's metrics.json names them when it shared its gateway. */
const SHARED_FIGURES = ['limit', 'knee', 'kneeSource', 'server', 'decreases', 'down', 'dialect', 'drained', 'returns'].map((field) => `endpoints[].${field}`);

/** metrics.json's `gateway`: the summary, with the processes it sums when more than one (or some uncounted), and the runs it was shared with. */
export type GatewayBlock = Summary & {
  processes?: { counted: number; uncounted: number };
  shared?: { with: string[]; figures: string[] };
};

/** Whether a gateway sent nothing: no attempt answered or failed on any endpoint, no retry. */
export function sentNothing(stats: GatewayStats): boolean {
  return stats.retries === 0 && stats.failures === 0 && stats.endpoints.every((endpoint) => endpoint.calls === 0 && endpoint.errors === 0);
}

/** This process's counts, as the store keeps them. */
export function processCountsOf(stats: GatewayStats, seqs: { firstSeq: number; endSeq: number }, sent: boolean, sharedWith: string[]): ProcessCounts {
  const { latency: _summaries, ...counts } = gatewaySummary(stats);
  return { ...seqs, sent, sharedWith, counts, latency: stats.latencySamples };
}

/** Keeps a process's counts in the run's store, before the outputs that sum them are written. */
export async function keepProcessCounts(store: Store, counts: ProcessCounts, runDir: string): Promise<void> {
  // The time after the sequence number: a process that logged nothing starts where the next one does.
  const key = `${seqKey(counts.firstSeq)}!${new Date().toISOString()}`;
  await store
    .processes()
    .put(key, counts)
    .catch((error: unknown) => {
      throw new UserError('TMAS_STORE_WRITE', `Cannot write to the run's store in ${runDir}: ${(error as Error).message}. Every call journaled is kept: ${writeFailureFix(error)}, then write the outputs again with: tmas run --resume ${runDir}`, { cause: error });
    });
}

/** Every process's counts the store keeps, in the order the processes ran. */
export async function storedProcessCounts(store: Store): Promise<ProcessCounts[]> {
  const kept: ProcessCounts[] = [];
  for await (const counts of store.processes().values()) kept.push(counts as ProcessCounts);
  return kept;
}

/** The block of the run's processes; null when none of them sent anything. */
export function gatewayBlock(processes: readonly ProcessCounts[]): GatewayBlock | null {
  const sending = processes.filter((process) => process.sent);
  if (sending.length === 0) return null;
  const sum = (count: (counts: ProcessCounts['counts']) => number) => sending.reduce((total, process) => total + count(process.counts), 0);
  const latency = (which: keyof ProcessCounts['latency']) => summarizeLatencies(sending.map((process) => process.latency[which]));
  const block: GatewayBlock = {
    retries: sum((counts) => counts.retries),
    retriesByCause: summed(sending.map((process) => process.counts.retriesByCause)),
    failures: sum((counts) => counts.failures),
    otherModel: sum((counts) => counts.otherModel),
    noUsage: sum((counts) => counts.noUsage),
    reasoningDialects: summed(sending.map((process) => process.counts.reasoningDialects)),
    latency: { firstTokenMs: latency('firstTokenMs'), generationMs: latency('generationMs') },
    endpoints: endpointsOf(sending),
  };
  const uncounted = uncountedStretches(processes);
  if (sending.length > 1 || uncounted > 0) block.processes = { counted: sending.length, uncounted };
  const sharedWith = [...new Set(sending.flatMap((process) => process.sharedWith))];
  if (sharedWith.length > 0) block.shared = { with: sharedWith, figures: SHARED_FIGURES };
  return block;
}

/** Counts by name, summed; names in the order first met. */
function summed(counts: ReadonlyArray<Record<string, number>>): Record<string, number> {
  const total: Record<string, number> = {};
  for (const one of counts) for (const [name, count] of Object.entries(one)) total[name] = (total[name] ?? 0) + count;
  return total;
}

/** Each endpoint as the last process that had it left it, with its counts summed over the processes; the last process's endpoints first. */
function endpointsOf(sending: readonly ProcessCounts[]): EndpointStats[] {
  const byUrl = new Map<string, EndpointStats>();
  for (const process of [...sending].reverse()) {
    for (const endpoint of process.counts.endpoints) {
      const seen = byUrl.get(endpoint.baseUrl);
      if (seen === undefined) byUrl.set(endpoint.baseUrl, { ...endpoint });
      else Object.assign(seen, { calls: seen.calls + endpoint.calls, errors: seen.errors + endpoint.errors, prefixHits: seen.prefixHits + endpoint.prefixHits });
    }
  }
  return [...byUrl.values()];
}

/** The stretches of the run's log that no kept process wrote: each written by at least one process that kept nothing. */
function uncountedStretches(processes: readonly ProcessCounts[]): number {
  let next = 0;
  let stretches = 0;
  for (const process of [...processes].sort((a, b) => a.firstSeq - b.firstSeq)) {
    if (process.firstSeq > next) stretches++;
    next = Math.max(next, process.endSeq);
  }
  return stretches;
}
