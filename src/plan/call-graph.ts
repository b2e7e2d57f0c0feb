/**
 * The calls of a run and which wait on which, from the strategy's structure:
 * per problem and iteration, its roles' calls by the stage the strategy puts
 * each role at (machines/contract.ts `stages`). Pipelined, the i-th of a
 * stage's n calls waits on the calls of the stage before whose share of
 * that stage overlaps its own (TMAS: candidate k's verifications on its
 * solution, its summary on its M verifications, the bank updates on every
 * summary); under a barrier, on the whole stage before. An iteration's
 * first stage waits on the whole last stage of the iteration before. Judge
 * calls wait on their candidate's call of the iteration's first stage and
 * nothing waits on them.
 */

/** The prompt and output tokens of one call. */
export interface CallLengths {
  promptTokens: number;
  outputTokens: number;
}

/** One role's calls in one iteration of one problem, in index order. */
export interface RoleCalls {
  role: string;
  calls: CallLengths[];
}

/** One iteration of one problem: its roles' calls. */
export interface IterationCalls {
  iteration: number;
  roles: RoleCalls[];
}

/** A call of the graph: what it is, its lengths, and the calls it waits on (their indexes in the graph). */
export interface PlannedCall extends CallLengths {
  problem: number;
  iteration: number;
  role: string;
  deps: number[];
}

/** How the graph is drawn: where each role stands, and the run's schedule. */
export interface GraphShape {
  stages: Readonly<Record<string, number>>;
  schedule: 'pipelined' | 'barrier';
}

/** The calls j of a stage of `p` whose share overlaps call i's of a stage of `n`. */
function overlapping(i: number, n: number, p: number): number[] {
  const first = Math.floor((i * p) / n);
  const last = Math.max(first, Math.ceil(((i + 1) * p) / n) - 1);
  return Array.from({ length: last - first + 1 }, (_, k) => first + k);
}

/** Every call of every problem, problem by problem (`problems[p]`: its iterations in order). */
export function buildCallGraph(problems: IterationCalls[][], shape: GraphShape): PlannedCall[] {
  const graph: PlannedCall[] = [];
  problems.forEach((iterations, problem) => {
    let before: number[] = [];
    for (const { iteration, roles } of iterations) {
      const last = addIteration(graph, { problem, iteration, roles, before }, shape);
      if (last.length > 0) before = last;
    }
  });
  return graph;
}

/** Adds one iteration's calls; returns the indexes of its last stage. */
function addIteration(graph: PlannedCall[], at: { problem: number; iteration: number; roles: RoleCalls[]; before: number[] }, shape: GraphShape): number[] {
  const loop = at.roles.filter((r) => r.role !== 'judge' && r.calls.length > 0);
  const stages = [...new Set(loop.map((r) => shape.stages[r.role] ?? 0))].sort((a, b) => a - b);
  let previous: number[][] = [];
  let first: number[][] = [];
  for (const stage of stages) {
    const groups: number[][] = [];
    for (const { role, calls } of loop.filter((r) => (shape.stages[r.role] ?? 0) === stage)) {
      groups.push(calls.map((lengths, i) => add(graph, { ...lengths, problem: at.problem, iteration: at.iteration, role, deps: previous.length === 0 ? at.before : depsOf(i, calls.length, previous, shape) })));
    }
    if (previous.length === 0) first = groups;
    previous = groups;
  }
  for (const { calls } of at.roles.filter((r) => r.role === 'judge')) {
    calls.forEach((lengths, i) => add(graph, { ...lengths, problem: at.problem, iteration: at.iteration, role: 'judge', deps: first.length === 0 ? at.before : depsOf(i, calls.length, first, { ...shape, schedule: 'pipelined' }) }));
  }
  return previous.flat();
}

function depsOf(i: number, n: number, previous: number[][], shape: GraphShape): number[] {
  if (shape.schedule === 'barrier') return previous.flat();
  return previous.flatMap((group) => overlapping(i, n, group.length).map((j) => group[j] as number));
}

function add(graph: PlannedCall[], call: PlannedCall): number {
  graph.push(call);
  return graph.length - 1;
}
