/** One method of `tmas table1`'s table, as its parts read it. */
import type { ReportRun } from '../../report/load.ts';

/** One method of the table: its strategy, its run as the report reads it, and its own options (majority's `samples` is the k of MV@k). */
export interface Table1Method {
  strategy: string;
  run: ReportRun;
  options: Record<string, number | string>;
  /** For majority: MV@k per problem over draws of k of its pool, and the pool's size. */
  draws?: { byProblem: ReadonlyMap<string, number>; pool: number };
}
