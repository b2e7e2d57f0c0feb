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
 *
 * Calls sent the same prompt share a prompt group (`prompt`): the calls of an
 * iteration's first stage of one role (a problem's N solutions), and where a
 * stage has more calls than the stage before, those of one role that fall on
 * the same call before (a candidate's M verifications, a candidate's judge
 * passes). Every other call has a prompt of its own (null). The gateway's
 * router reads the groups (its prefix affinity: scheduled-server.ts).
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
  /** Its prompt group: calls of one group are sent the same prompt; null: a prompt no other call is sent. */
  prompt: number | null;
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
  const groups = new PromptGroups();
  problems.forEach((iterations, problem) => {
    let before: number[] = [];
    for (const { iteration, roles } of iterations) {
      const last = addIteration(graph, { problem, iteration, roles, before, groups }, shape);
      if (last.length > 0) before = last;
    }
  });
  return graph;
}

/** Numbers the prompt groups of a graph: one per key, in the order first asked. */
class PromptGroups {
  private readonly ids = new Map<string, number>();

  /** The group of the key. */
  of(key: string): number {
    let id = this.ids.get(key);
    if (id === undefined) this.ids.set(key, (id = this.ids.size));
    return id;
  }
}

interface IterationAt {
  problem: number;
  iteration: number;
  roles: RoleCalls[];
  before: number[];
  groups: PromptGroups;
}

/** The prompt group of call i of a role's n calls, after a stage of p calls (0: the iteration's first stage). */
function promptOf(at: IterationAt, role: string, i: number, n: number, p: number): number | null {
  const own = `${at.problem}/${at.iteration}/${role}`;
  if (p === 0) return n > 1 ? at.groups.of(own) : null;
  return n > p ? at.groups.of(`${own}/${overlapping(i, n, p)[0] as number}`) : null;
}

/** Adds one iteration's calls; returns the indexes of its last stage. */
function addIteration(graph: PlannedCall[], at: IterationAt, shape: GraphShape): number[] {
  const loop = at.roles.filter((r) => r.role !== 'judge' && r.calls.length > 0);
  const stages = [...new Set(loop.map((r) => shape.stages[r.role] ?? 0))].sort((a, b) => a - b);
  let previous: number[][] = [];
  let first: number[][] = [];
  for (const stage of stages) {
    const groups: number[][] = [];
    const p = previous[0]?.length ?? 0;
    for (const { role, calls } of loop.filter((r) => (shape.stages[r.role] ?? 0) === stage)) {
      const deps = (i: number) => (previous.length === 0 ? at.before : depsOf(i, calls.length, previous, shape));
      groups.push(calls.map((lengths, i) => add(graph, plannedCall(lengths, at, role, deps(i), promptOf(at, role, i, calls.length, p)))));
    }
    if (previous.length === 0) first = groups;
    previous = groups;
  }
  const candidates = first[0]?.length ?? 0;
  for (const { calls } of at.roles.filter((r) => r.role === 'judge')) {
    const deps = (i: number) => (first.length === 0 ? at.before : depsOf(i, calls.length, first, { ...shape, schedule: 'pipelined' }));
    calls.forEach((lengths, i) => add(graph, plannedCall(lengths, at, 'judge', deps(i), promptOf(at, 'judge', i, calls.length, candidates))));
  }
  return previous.flat();
}

function depsOf(i: number, n: number, previous: number[][], shape: GraphShape): number[] {
  if (shape.schedule === 'barrier') return previous.flat();
  return previous.flatMap((group) => overlapping(i, n, group.length).map((j) => group[j] as number));
}

/**
 * A call of the graph, written out field by field: V8 (Node 20) gives every object made as
 * `{ ...lengths, problem, … }` a hidden class of its own, about 300 bytes more a call (a plan of
 * 400 problems × 20 iterations holds 656,000 of them) and property reads that no cache can serve.
 */
function plannedCall(lengths: CallLengths, at: IterationAt, role: string, deps: number[], prompt: number | null): PlannedCall {
  return { promptTokens: lengths.promptTokens, outputTokens: lengths.outputTokens, problem: at.problem, iteration: at.iteration, role, deps, prompt };
}

function add(graph: PlannedCall[], call: PlannedCall): number {
  graph.push(call);
  return graph.length - 1;
}
