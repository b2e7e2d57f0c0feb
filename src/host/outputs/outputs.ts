/**
 * The files a finished run leaves beside its store: `results.jsonl` (one line
 * per problem and iteration, in input order, snake_case: results-line.ts) and `metrics.json` (per
 * iteration). Both are derived from the store, so they can be rewritten at any
 * time from it. Each is written under a temporary name and renamed
 * (output-file.ts), so a kill leaves a whole file; metrics.json records the
 * digest of the results.jsonl it goes with, so a kill between the two renames
 * shows (see `tmas report`). Its `gateway` block sums the run's processes
 * (gateway-block.ts).
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { checkOutputPlaces, createOutputFile, type OutputFile } from './output-file.ts';
import type { RunConfig } from '../../settings/config.ts';
import { evaluationRecord } from './evaluation-record.ts';
import { STRATEGIES } from '../../../machines/strategies/index.ts';
import type { IterationMetrics } from '../../observers/metrics.ts';
import { createProblemTable, PROBLEM_TABLE_FIELDS, runTotals } from '../../observers/metrics-run.ts';
import type { ForcedChange, ForkedFrom, Store } from '../../store/store.ts';
import { toResultsLine } from '../../store/results-line.ts';
import { gatewaySummary, type GatewayStats } from '../../gateway/gateway.ts';
import { gatewayBlock, keepProcessCounts, processCountsOf, sentNothing, storedProcessCounts, type GatewayBlock } from './gateway-block.ts';
import type { StoppedIteration } from '../calls/call-failures.ts';
import type { CallCounts } from '../calls/llm-call.ts';
import { METRICS_VERSION } from '../../kernel/metrics-version.ts';

/** What to do when the run directory cannot take its outputs (a full disk and a file size limit say their own first step). */
const RETRY = 'write them again from the store with tmas run --resume';
const ADVICE = `fix the folder, then ${RETRY}`;

/** Refuses a run whose results.jsonl or metrics.json could not be written at its end (a folder in its place, a read-only directory), before its calls; `retry` says how to go on once the folder is fixed. */
export async function checkOutputsWritable(outputDir: string, retry = RETRY): Promise<void> {
  await checkOutputPlaces([path.join(outputDir, 'results.jsonl'), path.join(outputDir, 'metrics.json')], `fix the folder, then ${retry}`);
}

/** Writes results.jsonl and metrics.json into the output directory. */
export async function writeOutputs(options: {
  store: Store;
  /** The run's id (its manifest's): metrics.json names it, so that outputs copied from another run are told apart (store/repair/outputs-evidence.ts). */
  run: string;
  outputDir: string;
  simulated: boolean;
  iterations: IterationMetrics[];
  /** Calls that failed for good in iterations no problem finished (the iterations count the others). */
  unfinishedFailures?: number;
  calls: CallCounts;
  wallSeconds: number;
  config: RunConfig;
  /** The run it was forked from, and the flags the fork changed (`tmas fork`); absent for a run of its own. */
  forkedFrom?: ForkedFrom | undefined;
  /** The resumes with --force that changed the calls of iterations still to run (forced-changes.ts); absent when none did. */
  forcedChanges?: ForcedChange[] | undefined;
  /**
   * The gateway's counters of the run's calls in this process, at its end (retries by cause, failures, each
   * endpoint's adaptive limit; a view's when runs shared the gateway: Gateway.forRun), the sequence number the
   * process's messages started at, and the runs the gateway was shared with.
   */
  gateway: { stats: GatewayStats; firstSeq: number; sharedWith: string[] };
  /** Iterations a failed call stopped in this process (not in results.jsonl; a resume does them again). */
  stopped?: StoppedIteration[];
  /** Told of each line of results.jsonl written (a stop's progress). */
  onProgress?: (() => void) | undefined;
}): Promise<void> {
  const gateway = await gatewayCounters(options);
  const results = await createOutputFile(path.join(options.outputDir, 'results.jsonl'), { advice: ADVICE, retry: RETRY });
  let metricsFile: OutputFile | null = null;
  try {
    const { lines, sha256, problems } = await writeResults(options, results);
    metricsFile = await createOutputFile(path.join(options.outputDir, 'metrics.json'), { advice: ADVICE, retry: RETRY });
    await metricsFile.write(`${JSON.stringify(metricsOf(options, problems, { lines, sha256 }, gateway), null, 2)}\n`);
    await results.commit();
    await metricsFile.commit();
  } catch (error) {
    await Promise.all([results.discard(), metricsFile?.discard()]);
    throw error;
  }
}

type OutputOptions = Parameters<typeof writeOutputs>[0];

/** What metrics.json says of the gateway, and the message log's length as the process's counts record it. */
interface GatewayCounts {
  gateway: GatewayBlock;
  retries?: number;
  /** The sequence number after the last logged message: evidence of a store that later lost its end (outputs-evidence.ts). */
  logEnd: number;
}

/**
 * The gateway's counters metrics.json gives, and the retries of its totals:
 * this process's counts are kept in the store, and those of every process of
 * the run summed (gateway-block.ts). When none of them sent anything (a
 * resume of a finished run made by a tmas that kept no counts), those the
 * run's metrics.json already holds, which this process's zeros would
 * otherwise replace; metrics.json, as a kill may leave it, is read as nothing.
 */
async function gatewayCounters(options: OutputOptions): Promise<GatewayCounts> {
  const { stats, firstSeq, sharedWith } = options.gateway;
  const sent = !sentNothing(stats) || options.calls.issued + options.calls.failed > 0;
  const logEnd = await options.store.nextSeq();
  await keepProcessCounts(options.store, processCountsOf(stats, { firstSeq, endSeq: logEnd }, sent, sharedWith), options.outputDir);
  const block = gatewayBlock(await storedProcessCounts(options.store));
  if (block !== null) return { gateway: block, retries: block.retries, logEnd };
  const own = { gateway: gatewaySummary(stats), retries: stats.retries, logEnd };
  const before = await readFile(path.join(options.outputDir, 'metrics.json'), 'utf8')
    .then((text) => JSON.parse(text) as { gateway?: GatewayBlock; totals?: { retries?: number | null } })
    .catch(() => null);
  if (before?.gateway === undefined) return own;
  return { gateway: before.gateway, ...(typeof before.totals?.retries === 'number' ? { retries: before.totals.retries } : {}), logEnd };
}

/** Writes one line per problem and iteration; returns their count, their digest and the per-problem table. */
async function writeResults(options: OutputOptions, results: OutputFile) {
  const digest = createHash('sha256');
  let lines = 0;
  const problems = createProblemTable();
  for await (const record of options.store.iterationRecords({}, PROBLEM_TABLE_FIELDS)) {
    problems.add(record);
    const line = toResultsLine({ problem: record.problem, iteration: record.iteration, simulated: options.simulated, candidates: record.candidates });
    digest.update(line);
    lines++;
    options.onProgress?.();
    await results.write(line);
  }
  return { lines, sha256: digest.digest('hex'), problems };
}

/** The content of metrics.json. */
function metricsOf(options: OutputOptions, problems: ReturnType<typeof createProblemTable>, results: { lines: number; sha256: string }, counts: GatewayCounts) {
  return {
    metricsVersion: METRICS_VERSION,
    run: options.run,
    simulated: options.simulated,
    evaluation: evaluationRecord(options.config),
    ...(options.forkedFrom === undefined ? {} : { forkedFrom: options.forkedFrom }),
    ...(options.forcedChanges === undefined ? {} : { forcedChanges: options.forcedChanges }),
    models: Object.fromEntries(Object.entries(options.config.roles.endpoints).map(([role, endpoint]) => [role, endpoint.baseUrl === null ? 'simulated' : endpoint.model])),
    iterations: options.iterations,
    calls: options.calls,
    gateway: counts.gateway,
    wallSeconds: Math.round(options.wallSeconds * 10) / 10,
    totals: runTotals(options.iterations, {
      upFront: STRATEGIES[options.config.loop.strategy]?.upFront === true,
      wallSeconds: Math.round(options.wallSeconds * 10) / 10,
      unfinishedFailures: options.unfinishedFailures ?? 0,
      ...(counts.retries === undefined ? {} : { retries: counts.retries }),
    }),
    problems: problems.rows(),
    incomplete: options.stopped ?? [],
    results,
    log: { messages: counts.logEnd },
  };
}
