/**
 * The shapes every benchmark shares: one row of the result table per figure,
 * and the options the runner hands to each benchmark.
 */

/** One figure of the benchmark table. */
export interface BenchRow {
  /** Which benchmark and what it measures, e.g. `overhead: calls/s`. */
  figure: string;
  /** The target in words, or `—` for a figure reported for information. */
  target: string;
  /** The measured value with its unit. */
  measured: string;
  /** null when the figure has no target. */
  pass: boolean | null;
  /** Sizes actually run, and anything a reader must know to trust the figure. */
  note?: string;
}

/** What every benchmark receives. */
export interface BenchContext {
  /** Smaller sizes, for development. */
  quick: boolean;
  /** The full sizes even where they do not fit the 10-minute budget (the memory run). */
  full: boolean;
  /** A fresh directory for this benchmark's files (problems, run outputs). */
  dir: string;
  /** Progress lines, on stderr. */
  log(line: string): void;
}

/** A benchmark: a name and a function that returns its rows. */
export interface Benchmark {
  name: string;
  run(context: BenchContext): Promise<BenchRow[]>;
}
