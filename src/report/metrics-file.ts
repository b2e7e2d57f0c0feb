/**
 * A run's metrics.json as its readers (the report, the viewer's listing)
 * take it, whichever tmas wrote it. Runs written before the evaluation block
 * had its name stored it as `protocol`; it is read as `evaluation`, so no
 * reader looks for it under two names.
 */
import type { IterationMetrics } from '../observers/metrics.ts';
import type { ProblemFigures, RunTotals } from '../observers/metrics-run.ts';
import { metricsShapeFault } from './metrics-shape.ts';

/** A run's metrics.json, as the report reads it. */
export interface MetricsFile {
  /** The run that wrote it (its manifest's id); absent in runs made before it was recorded. */
  run?: string;
  simulated?: boolean;
  iterations?: IterationMetrics[];
  totals?: RunTotals;
  problems?: ProblemFigures[];
  wallSeconds?: number;
  /** The results.jsonl written with this file. */
  results?: { lines: number; sha256: string };
  /** The run's evaluation (absent in runs made before it was written); read as a whole, so fields added later are compared too. */
  evaluation?: Record<string, unknown> & { grading?: 'judge' | 'rule'; judge?: { model: string; passes: number; temperature?: number; topP?: number | null; when?: 'always' | 'unsure' } | null; maxIterations?: number };
}

/** metrics.json's parsed content with its fields under today's names. */
export function metricsFileOf<T extends MetricsFile>(parsed: unknown): T {
  // A file another program wrote there (an array, a number) would read as a run with nothing in it.
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || !('iterations' in parsed || 'totals' in parsed)) {
    throw new TypeError('it is not a metrics.json of tmas\'s (a JSON object with the run\'s iterations and totals)');
  }
  const fault = metricsShapeFault(parsed as Record<string, unknown>);
  if (fault !== null) throw new TypeError(`it is not a metrics.json of tmas's: ${fault}`);
  const { protocol, ...metrics } = parsed as T & { protocol?: MetricsFile['evaluation'] };
  return (protocol === undefined ? metrics : { ...metrics, evaluation: metrics.evaluation ?? protocol }) as T;
}
