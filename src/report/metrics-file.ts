/**
 * A run's metrics.json as its readers (the report, the viewer's listing)
 * take it, whichever tmas wrote it. Runs written before the evaluation block
 * had its name stored it as `protocol`; it is read as `evaluation`, so no
 * reader looks for it under two names.
 */
import type { IterationMetrics } from '../observers/metrics.ts';
import type { ProblemFigures, RunTotals } from '../observers/metrics-run.ts';
import { metricsShapeFault } from './metrics-shape.ts';
import { UserError } from '../kernel/errors.ts';
import { METRICS_VERSION } from '../kernel/metrics-version.ts';
import { VERSION } from '../kernel/version.ts';

/** One problem's iteration that a call that failed for good stopped, as metrics.json's `incomplete` lists it. */
export interface StoppedIteration {
  problem: string;
  iteration: number;
  /** Calls that failed for good. */
  failed: number;
  /** The first failure: `role: CODE: message`. */
  first: string;
}

/** A run's metrics.json, as the report reads it. */
export interface MetricsFile {
  /** The layout it was written in (METRICS_VERSION); absent in files written before it was recorded (version 1). */
  metricsVersion?: number;
  /** The run that wrote it (its manifest's id); absent in runs made before it was recorded. */
  run?: string;
  simulated?: boolean;
  iterations?: IterationMetrics[];
  totals?: RunTotals;
  problems?: ProblemFigures[];
  wallSeconds?: number;
  /** The problems' iterations calls that failed for good stopped (absent in files written before it was recorded). */
  incomplete?: StoppedIteration[];
  /** The results.jsonl written with this file. */
  results?: { lines: number; sha256: string };
  /** The run's evaluation (absent in runs made before it was written); read as a whole, so fields added later are compared too. */
  evaluation?: Record<string, unknown> & { grading?: 'judge' | 'rule'; judge?: { model: string; passes: number; temperature?: number; topP?: number | null; when?: 'always' | 'unsure' } | null; maxIterations?: number };
}

/**
 * Refuses the metrics.json `file` when a later metrics version than this tmas's wrote it (TMAS_OUTPUT_FORMAT, naming
 * the file, both versions and the tmas that wrote it): its figures would be read as this version's. A file without
 * the field (written before it was recorded) is version 1; a value that is no whole number is left to the shape check.
 */
export function checkMetricsVersion(parsed: unknown, file: string): void {
  if (typeof parsed !== 'object' || parsed === null) return;
  const { metricsVersion: written, evaluation } = parsed as { metricsVersion?: unknown; evaluation?: { tmasVersion?: unknown } };
  if (!Number.isSafeInteger(written) || (written as number) <= METRICS_VERSION) return;
  const tmas = typeof evaluation?.tmasVersion === 'string' ? `tmas ${evaluation.tmasVersion}` : 'a newer tmas';
  throw new UserError(
    'TMAS_OUTPUT_FORMAT',
    `${file} was written by ${tmas} (metrics version ${String(written)}); this tmas ${VERSION} reads metrics versions up to ${METRICS_VERSION}, and would read its figures as its own. ` +
      `Nothing was changed. Read it with ${tmas} (metrics version ${String(written)}) or later.`,
  );
}

/** metrics.json's parsed content (of `file`) with its fields under today's names; a later metrics version is refused (checkMetricsVersion). */
export function metricsFileOf<T extends MetricsFile>(parsed: unknown, file: string): T {
  checkMetricsVersion(parsed, file);
  // A file another program wrote there (an array, a number) would read as a run with nothing in it.
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || !('iterations' in parsed || 'totals' in parsed)) {
    throw new TypeError('it is not a metrics.json of tmas\'s (a JSON object with the run\'s iterations and totals)');
  }
  const fault = metricsShapeFault(parsed as Record<string, unknown>);
  if (fault !== null) throw new TypeError(`it is not a metrics.json of tmas's: ${fault}`);
  const { protocol, ...metrics } = parsed as T & { protocol?: MetricsFile['evaluation'] };
  return (protocol === undefined ? metrics : { ...metrics, evaluation: metrics.evaluation ?? protocol }) as T;
}
