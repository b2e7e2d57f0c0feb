/**
 * How a 95% bootstrap interval reads in a table (table1.md, `tmas report
 * --format md`). A percentile bootstrap over problems whose figures are all
 * alike (every problem at 100%, two methods whose replies were the same on
 * every problem) resamples nothing but that figure: its interval has zero
 * width, and `0.0 [0.0, 0.0]` reads as a difference measured exactly when it
 * is one measured on a few problems that happened to agree. Such a bracket
 * says so instead, with how many problems it is over.
 */

/** What a bracket says where its problems all had one figure; the legend sentences quote it. */
export function alikeBracket(problems: number): string {
  return ` [all ${problems} alike]`;
}

/** The legend of `[all n alike]`, for the sentence under a table's title. */
export const ALIKE_LEGEND =
  "[all n alike]: every one of the n problems had the same figure, so resampling them gives no width; it is no exact figure, only the n problems' agreement";

/**
 * ` [25.0, 58.3]`: a 95% interval with its bounds written by `format`; ` [–]` without one (under 2
 * problems); ` [all n alike]` where it has zero width (every one of its `problems` had the same figure).
 */
export function intervalBracket(interval: readonly [number, number] | null | undefined, problems: number, format: (value: number) => string): string {
  if (interval === null || interval === undefined) return ' [–]';
  // Equal figures differ by a float's last bits once subtracted (0.35 − 0.25 against 0.45 − 0.35).
  if (Math.abs(interval[1] - interval[0]) < 1e-9) return alikeBracket(problems);
  return ` [${format(interval[0])}, ${format(interval[1])}]`;
}
