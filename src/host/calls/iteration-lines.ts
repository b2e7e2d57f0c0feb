/**
 * The calls of each problem's iteration that are out (held by the gateway or
 * on a server), by stage, and so each one's slack (CallRank slack): how many
 * stages it stands ahead of its iteration's least advanced call, times its
 * problem's cost per call. Within an iteration, a call at a later stage than
 * another belongs to another branch (a candidate's verifications exist only
 * once its solution is in), and the iteration's next step (TMAS's bank
 * updates) waits for the branch furthest behind: a verification of one
 * candidate can wait while another candidate's solution is still being
 * written, and a call of a problem whose branches are level cannot. The
 * dispatcher weighs the slack against the rank (held-calls.ts compareHeld).
 *
 * The slack falls when the least advanced call ends, and rises when a call
 * comes at a stage behind every call out (verify-refine-chains' refine after
 * another chain's verification, a solution written again after the window
 * refused it); the calls still held are then ranked again (RankChange): a
 * slack fixed when a call is held kept it behind once its iteration had
 * caught up, and gained nothing (replayed: 30 × 3 × 8 × 8 on four equal replicas, 24 draws: 1.157x the
 * bound without the slack, 1.138x ranked again; fixed, 1.161x on 12).
 */
import type { CallRank, RankChange } from '../../gateway/reply/completion.ts';

/** One iteration's calls out, and how many stand at each stage. */
interface Line {
  key: string;
  calls: Set<CallRank>;
  atStage: Map<number, number>;
}

/** A call out: its line, its stage, and its problem's cost per call relative to the run's when it was ranked. */
interface OutCall {
  line: Line;
  stage: number;
  relative: number;
}

/** The iterations' lines of calls out. */
export interface IterationLines {
  /** A loop call ranked at `stage` of the iteration keyed `key`: its slack, and the new slack of the iteration's other calls out if it stands behind them all. */
  add(rank: CallRank, key: string, stage: number, relative: number): { slack: number; changes: RankChange[] };
  /** The call ranked `rank` ended: the new slack of each call of its iteration still out, if the least advanced stage moved. */
  end(rank: CallRank): RankChange[];
}

export function createIterationLines(): IterationLines {
  const lines = new Map<string, Line>();
  const out = new Map<CallRank, OutCall>();
  return {
    add(rank, key, stage, relative) {
      let line = lines.get(key);
      if (line === undefined) lines.set(key, (line = { key, calls: new Set(), atStage: new Map() }));
      const call = { line, stage, relative };
      const before = leastStage(line);
      const changes = stage < before && line.calls.size > 0 ? slacksOf(line, stage, out) : [];
      line.calls.add(rank);
      line.atStage.set(stage, (line.atStage.get(stage) ?? 0) + 1);
      out.set(rank, call);
      return { slack: slackOf(call, Math.min(before, stage)), changes };
    },
    end(rank) {
      const call = out.get(rank);
      if (call === undefined) return [];
      out.delete(rank);
      const { line, stage } = call;
      const before = leastStage(line);
      line.calls.delete(rank);
      const left = (line.atStage.get(stage) ?? 1) - 1;
      if (left > 0) line.atStage.set(stage, left);
      else line.atStage.delete(stage);
      if (line.calls.size === 0) {
        lines.delete(line.key);
        return [];
      }
      const least = leastStage(line);
      return least === before ? [] : slacksOf(line, least, out);
    },
  };
}

/** The slack of each call of `line` when its least advanced stage is `least`. */
function slacksOf(line: Line, least: number, out: ReadonlyMap<CallRank, OutCall>): RankChange[] {
  return [...line.calls].map((rank) => ({ rank, slack: slackOf(out.get(rank) as OutCall, least) }));
}

function slackOf({ stage, relative }: OutCall, least: number): number {
  return (stage - least) * relative;
}

/** The stage of the least advanced call out (a line holds a few stages at most). */
function leastStage(line: Line): number {
  let least = Number.POSITIVE_INFINITY;
  for (const stage of line.atStage.keys()) least = Math.min(least, stage);
  return least;
}
