/**
 * Reading what a report shows from a run directory: its metrics.json, and
 * from its store what metrics.json may lack (per-problem figures of runs made
 * before they were written there) plus the call latencies. Everything read
 * from the store is streamed and folded: no call or message is kept.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { pathKind } from '../kernel/file-kind.ts';
import path from 'node:path';
import { isUserError, UserError } from '../kernel/errors.ts';
import type { IterationMetrics } from '../observers/metrics.ts';
import { createProblemTable, PROBLEM_TABLE_FIELDS, runTotals, type ProblemFigures, type RunTotals } from '../observers/metrics-run.ts';
import { describeForcedChange, type ForcedChange, type ForkedFrom, type Store } from '../store/store.ts';
import { manifestConfig } from '../settings/configure/upgrade.ts';
import { settingsLine } from '../settings/settings-line.ts';
import { hasStore, openStoreView } from '../store/repair/check.ts';
import { requireOpenablePath } from '../store/run-dir-path.ts';
import { runLockHolder, type LockHolder } from '../store/run-lock.ts';
import { readDetails, type ProblemDetail } from './details.ts';
import { unusableRoles, type UnusableRole } from '../observers/role-outputs.ts';
import { metricsFileOf, type MetricsFile, type StoppedIteration } from './metrics-file.ts';
import { identityDigest, type ProblemIdentity } from '../input/problem-identity.ts';

/** The largest metrics.json read: a run of 400 problems x 20 iterations writes a few megabytes. */
const MAX_METRICS_BYTES = 256 * 2 ** 20;

/** Latency histogram bucket upper bounds, in milliseconds (the last bucket is open). */
export const LATENCY_BOUNDS_MS = [10, 30, 100, 300, 1000, 3000, 10_000, 30_000, 100_000] as const;

/** One run as the report shows it. */
export interface ReportRun {
  /** The directory's name: how the run is labelled. */
  name: string;
  dir: string;
  /** The run's id (metrics.json's `run`); null for a run made before it was recorded. */
  runId: string | null;
  /** The id of the run this one was forked from (its manifest's `forkedFrom`), or null. */
  forkOf: string | null;
  simulated: boolean;
  strategy: string | null;
  /** The settings its strategy reads, in one line (settings-line.ts): `N=8 M=4 T=4 ε=0.2 θ=0.7 judge×2`, `samples=64 vote-pool=0 T=4`. */
  settings: string;
  /** The models per endpoint slot and the sampling, e.g. `tmas-sim (all roles) · temperature 0.6, seed 0`. */
  models: string;
  /** How Pass@1 was graded: `judge m ×4` (the judge's model and passes) or `rule`. Runs graded otherwise do not compare. */
  grading: string;
  /** In proof mode (graded only against reference solutions or by the judge). */
  proof: boolean;
  /** The strategy has verifiers: best-verified, scores and banks mean something for it. */
  verifier: boolean;
  /** metrics.json's evaluation block as written (null for runs made before it was): how the run was graded is read from it. */
  evaluation: Record<string, unknown> | null;
  /** T: the iterations the run was set to (null when neither metrics.json nor the store says). */
  maxIterations: number | null;
  /** Roles more than the warned share of whose outputs were unusable in some iteration (a method that did not run as designed there). */
  unusable: UnusableRole[];
  /** The problems' iterations that calls that failed for good stopped: missing from the figures (stopped-problems.ts). */
  stopped: StoppedIteration[];
  /** The problems the run was given, as its store holds them (null when the store could not be read). */
  given: number | null;
  /** The tmas process writing the run as it is read (its lock held): its outputs are an earlier moment's. */
  live: { pid: number; since: string } | null;
  /** Each problem's question and reference answer (digests), by id, as its store holds them (null when the store could not be read). */
  identities: ReadonlyMap<string, ProblemIdentity> | null;
  iterations: IterationMetrics[];
  totals: RunTotals;
  problems: ProblemFigures[];
  /** Calls per latency bucket (LATENCY_BOUNDS_MS), by role; empty when the store could not be read. */
  latency: Record<string, number[]>;
  /** Candidates, summaries and banks per problem and iteration; empty when the store could not be read. */
  details: Map<string, ProblemDetail>;
}

/**
 * The grading label of a run: the judge's model, passes, sampling and, under
 * hybrid grading, the share of candidates it graded; or the rule-based grader.
 * Runs graded otherwise are drawn apart (comparable.ts).
 */
export function gradingOf(metrics: MetricsFile, judgePasses: number | undefined): string {
  const evaluation = metrics.evaluation;
  if (evaluation?.grading === 'judge' && evaluation.judge) {
    const { model, passes, temperature, topP, when } = evaluation.judge;
    const sampling = temperature === undefined ? '' : ` (T ${temperature}${topP == null ? '' : `, top_p ${topP}`})`;
    const asked = (metrics.iterations ?? []).flatMap((it) => (it.judgeAsked == null ? [] : [it.judgeAsked]));
    const share = asked.length === 0 ? '' : ` ${(100 * (asked.reduce((a, b) => a + b, 0) / asked.length)).toFixed(0)}%`;
    return `judge ${model} ×${passes}${sampling}${when === 'unsure' ? `, on rule-unsure${share}` : ''}`;
  }
  if (evaluation?.grading === 'rule') return 'rule';
  return (judgePasses ?? 0) > 0 ? `judge ×${judgePasses}` : 'rule';
}

/** `model-a (solution, summary); model-b (verification)`: each distinct model with the slots it serves. */
function describeModels(endpoints: Record<string, { model: string }>): string {
  const bySlot = new Map<string, string[]>();
  for (const [slot, endpoint] of Object.entries(endpoints)) bySlot.set(endpoint.model, [...(bySlot.get(endpoint.model) ?? []), slot]);
  return bySlot.size === 1 ? `${[...bySlot.keys()][0]} (all roles)` : [...bySlot].map(([model, slots]) => `${model} (${slots.join(', ')})`).join('; ');
}

/** Whether a run's candidates were scored by a verifier, whatever its role is called (TMAS's `verification`, V-R's `rater`, a plugin's). */
function hasVerifier(iterations: IterationMetrics[]): boolean {
  return iterations.some((it) => it.meanScore !== null);
}

function bucketOf(ms: number): number {
  const index = LATENCY_BOUNDS_MS.findIndex((bound) => ms <= bound);
  return index < 0 ? LATENCY_BOUNDS_MS.length : index;
}

/** Refuses a results.jsonl that is not the one metrics.json was written with (a kill between the two renames). */
async function checkResults(dir: string, metrics: MetricsFile): Promise<void> {
  const expected = metrics.results;
  if (!expected) return; // written before the digest was recorded
  const file = path.join(dir, 'results.jsonl');
  const found = await pathKind(file).catch((error: unknown) => Promise.reject(new UserError('TMAS_REPORT', `Cannot read ${file}: ${(error as Error).message}.`, { cause: error })));
  if (found.kind === 'other') throw new UserError('TMAS_REPORT', `${file} is ${found.what}, not the results file tmas wrote. Move it away and rewrite it from the store with: tmas run --resume ${dir}`);
  // Hashed as it is read: a results file may be larger than a string can hold.
  // One that cannot be read (EACCES) says so: it was not missing, and a resume would not mend it.
  const actual = found.kind === 'missing' ? null : await sha256Of(file).catch((error: unknown) => Promise.reject(new UserError('TMAS_REPORT', `Cannot read ${file}: ${(error as Error).message}.`, { cause: error })));
  if (actual === expected.sha256) return;
  throw new UserError(
    'TMAS_REPORT_INCONSISTENT',
    `${dir}: results.jsonl ${actual === null ? 'is missing' : 'is not the one metrics.json was written with'} (the run was stopped while writing them). ` +
      `Rewrite both from the store with: tmas run --resume ${dir}`,
  );
}

/** The SHA-256 of a file's bytes, read as a stream. */
async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * The run's store, read through the same damage check as the other commands (a private view, check.ts):
 * a damaged store is TMAS_STORE_DAMAGED. null where there is none to read: a directory holding only
 * metrics.json, or a run still going (its lock held), whose report comes from metrics.json alone.
 */
async function openReportStore(dir: string, live: LockHolder | null): Promise<Store | null> {
  if (!hasStore(dir) || live !== null) return null;
  try {
    return await openStoreView(dir);
  } catch (error) {
    // A run of an older tmas, which takes no lock of its own, changed its store while its view was made.
    if (error instanceof UserError && error.code === 'TMAS_LOCKED') return null;
    throw error;
  }
}

/** What a run's manifest holds that the report reads. */
interface ReportManifest {
  strategy?: string;
  config?: unknown;
  forkedFrom?: ForkedFrom;
  forcedChanges?: ForcedChange[];
}

/** `fork of DIR: --agents, --n-verifications`: what a forked run came from and changed, so that the two sides of an ablation read apart. */
function forkNote(forkedFrom: ForkedFrom | undefined): string[] {
  if (forkedFrom === undefined) return [];
  return [`fork of ${path.basename(forkedFrom.dir)}${forkedFrom.changed.length > 0 ? `: ${forkedFrom.changed.join(', ')}` : ''}`];
}

/** What a run's store adds to its metrics.json. */
interface StoreFigures {
  strategy: string | null;
  forkOf: string | null;
  settings: string;
  models: string;
  judgePasses: number | undefined;
  proof: boolean;
  /** T as the run's settings say. */
  maxIterations: number | null;
  /** The problems the run was given. */
  given: number;
  identities: ReadonlyMap<string, ProblemIdentity>;
  /** Per-problem figures rebuilt from the iteration records; null when metrics.json has them. */
  problems: ProblemFigures[] | null;
  details: Map<string, ProblemDetail>;
  latency: Record<string, number[]>;
}

/** A run's metrics.json; a directory without one is a user mistake naming the directory. */
async function readMetrics(dir: string): Promise<MetricsFile> {
  const file = path.join(dir, 'metrics.json');
  try {
    const found = await pathKind(file);
    if (found.kind === 'other') throw new Error(`it is ${found.what}, not the file tmas wrote`);
    if (found.kind === 'file' && found.size > MAX_METRICS_BYTES) throw new Error(`it holds ${found.size} bytes, more than a metrics.json of tmas's ever does`);
    return metricsFileOf(JSON.parse(await readFile(file, 'utf8')), file);
  } catch (error) {
    // A newer tmas's file (TMAS_OUTPUT_FORMAT) says so as it is.
    if (isUserError(error)) throw error;
    throw new UserError('TMAS_REPORT', `Cannot read ${file}: ${whyUnread(error)}. ${metricsAdvice(dir)}`, { cause: error });
  }
}

/** Why metrics.json could not be read, in words rather than the system's code (ENOENT, ENOTDIR, ELOOP). */
function whyUnread(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'it is missing';
  if (code === 'ENOTDIR') return 'the run directory given is a file, not a folder';
  if (code === 'ELOOP') return 'a link on its path leads nowhere (a link to itself, or a loop of links)';
  return (error as Error).message;
}

/**
 * What to do about a metrics.json that cannot be read. Beside a store it is
 * the run's own, cut short, edited or deleted: a resume writes it again from
 * the store, paying for no call of a finished run. Before, the advice was to
 * give the output directory of a finished run, which the user had given.
 */
function metricsAdvice(dir: string): string {
  if (!hasStore(dir)) return 'Give tmas report the output directory of a finished run (the one holding metrics.json).';
  return `${dir} holds a run's store: tmas run --resume ${dir} writes metrics.json and results.jsonl again from it (a finished run's calls are answered from its journal, none sent again).`;
}

/** Reads from a run's store its settings, the per-problem figures when metrics.json lacks them, the details and the latencies. */
async function readStore(store: Store, metrics: MetricsFile): Promise<StoreFigures> {
  const manifest = (await store.getManifest()) as ReportManifest | undefined;
  // Read as every command reads it: a strategy that disagrees with the configuration's is refused, not printed.
  const c = manifest?.config === undefined ? undefined : manifestConfig(manifest, store.runDir || store.dir);
  let problems: ProblemFigures[] | null = null;
  if ((metrics.problems ?? null) === null) {
    const table = createProblemTable();
    for await (const record of store.iterationRecords({}, PROBLEM_TABLE_FIELDS)) table.add(record);
    problems = table.rows();
  }
  const details = await readDetails(store);
  return {
    strategy: manifest?.strategy ?? null,
    forkOf: manifest?.forkedFrom?.run ?? null,
    // A manifest without a strategy (an older run's) gets every shared setting, as a strategy the registry does not know does.
    settings: [...(c ? [settingsLine(c, manifest?.strategy ?? '')] : []), ...forkNote(manifest?.forkedFrom), ...(manifest?.forcedChanges ?? []).map(describeForcedChange)].join(' · '),
    models: c ? `${describeModels(c.roles.endpoints)} · temperature ${c.roles.temperature}, seed ${c.loop.seed}` : '',
    judgePasses: c?.judge.passes,
    proof: c?.loop.proof === true,
    maxIterations: c?.loop.maxIterations ?? null,
    ...(await givenProblems(store)),
    problems,
    details,
    latency: await latencyOf(store),
  };
}

/** How many problems the run was given, and what each is (its question and reference answer, as digests). */
async function givenProblems(store: Store): Promise<{ given: number; identities: Map<string, ProblemIdentity> }> {
  const problems = await store.loadProblems();
  return { given: problems.length, identities: new Map(problems.map((problem) => [problem.id, identityDigest(problem)])) };
}

/** Calls per latency bucket (LATENCY_BOUNDS_MS), by role. */
async function latencyOf(store: Store): Promise<Record<string, number[]>> {
  const latency: Record<string, number[]> = {};
  // Only the role and the timings: reading the prompts' and responses' texts back would be most of the time.
  for await (const call of store.callFields(['role', 'timings'])) {
    const record = call as { role?: string; timings?: { latencyMs?: number } };
    if (record.role === undefined || record.timings?.latencyMs === undefined) continue;
    const counts = (latency[record.role] ??= Array.from({ length: LATENCY_BOUNDS_MS.length + 1 }, () => 0));
    const bucket = bucketOf(record.timings.latencyMs);
    counts[bucket] = (counts[bucket] ?? 0) + 1;
  }
  return latency;
}

/** How a run is read: `unusableShare`, the share of a role's outputs in an iteration above which its unusable outputs mark the run (default DEFAULT_UNUSABLE_SHARE). */
export interface LoadOptions {
  unusableShare?: number;
}

/** Reads one run directory. A directory without metrics.json is a user mistake naming the directory. */
export async function loadRun(dir: string, options: LoadOptions = {}): Promise<ReportRun> {
  requireOpenablePath(dir, 'reads');
  const metrics = await readMetrics(dir);
  await checkResults(dir, metrics);
  const iterations = metrics.iterations ?? [];
  const live = await runLockHolder(dir);
  const store = await openReportStore(dir, live);
  let figures: StoreFigures | null = null;
  if (store) {
    try {
      figures = await readStore(store, metrics);
    } finally {
      await store.close();
    }
  }
  return {
    name: path.basename(path.resolve(dir)),
    dir: path.resolve(dir),
    runId: metrics.run ?? null,
    forkOf: figures?.forkOf ?? null,
    simulated: metrics.simulated === true,
    strategy: figures?.strategy ?? null,
    settings: figures?.settings ?? '',
    models: figures?.models ?? '',
    grading: gradingOf(metrics, figures?.judgePasses),
    proof: figures?.proof ?? false,
    verifier: hasVerifier(iterations),
    evaluation: metrics.evaluation ?? null,
    maxIterations: metrics.evaluation?.maxIterations ?? figures?.maxIterations ?? null,
    unusable: unusableRoles(iterations, options.unusableShare),
    stopped: metrics.incomplete ?? [],
    given: figures?.given ?? null,
    live: live === null ? null : { pid: live.pid, since: live.since },
    identities: figures?.identities ?? null,
    iterations,
    totals: metrics.totals ?? runTotals(iterations, metrics.wallSeconds === undefined ? {} : { wallSeconds: metrics.wallSeconds }),
    problems: metrics.problems ?? figures?.problems ?? [],
    latency: figures?.latency ?? {},
    details: figures?.details ?? new Map<string, ProblemDetail>(),
  };
}
