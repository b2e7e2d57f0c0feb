/**
 * What-if: a finished run's journaled calls, with the lengths they had,
 * replayed through the capacity model under other servers, another
 * concurrency or another schedule; several runs (a table's methods) at once
 * on shared servers. Which calls waited on which comes from the strategy's
 * structure (call-graph.ts), per problem and iteration, the calls of a role
 * in their index order.
 */
import type { Strategy } from '../../machines/contract.ts';
import { buildCallGraph, type IterationCalls } from './call-graph.ts';
import type { JournalCall, RunJournal } from './run-journal.ts';
import { simulateRuns, type Servers, type Simulated } from './simulate.ts';
import { rankedIterations } from './forecast.ts';

/** A run's calls as the graph takes them: per problem, its iterations in order, each role's calls in index order. */
export function journaledCalls(journal: RunJournal): IterationCalls[][] {
  const byProblem = new Map<string, Map<number, Map<string, JournalCall[]>>>();
  for (const call of journal.calls) {
    const iterations = byProblem.get(call.problem) ?? new Map<number, Map<string, JournalCall[]>>();
    byProblem.set(call.problem, iterations);
    const roles = iterations.get(call.iteration) ?? new Map<string, JournalCall[]>();
    iterations.set(call.iteration, roles);
    const own = roles.get(call.role) ?? [];
    own.push(call);
    roles.set(call.role, own);
  }
  return journal.problems.map(({ id }) =>
    [...(byProblem.get(id) ?? [])]
      .sort(([a], [b]) => a - b)
      .map(([iteration, roles]) => ({
        iteration,
        roles: [...roles].map(([role, calls]) => ({ role, calls: calls.sort((a, b) => a.index - b.index).map(({ promptTokens, outputTokens }) => ({ promptTokens, outputTokens })) })),
      })),
  );
}

/** The run replayed on `servers` under `schedule`. */
export function replayRun(journal: RunJournal, options: { strategy: Strategy; servers: Servers; schedule: 'pipelined' | 'barrier' }): Simulated {
  return replayRuns([{ journal, strategy: options.strategy, schedule: options.schedule }], options.servers);
}

/** Runs replayed at once on `servers` (the methods of a table, as one gateway sends them), each under its own schedule. */
export function replayRuns(runs: Array<{ journal: RunJournal; strategy: Strategy; schedule: 'pipelined' | 'barrier' }>, servers: Servers): Simulated {
  const graphs = runs.map(({ journal, strategy, schedule }) => {
    const stages = strategy.stages ?? {};
    return { calls: buildCallGraph(journaledCalls(journal), { stages, schedule }), iterations: rankedIterations(strategy, journal.config.loop.maxIterations), stages };
  });
  return simulateRuns(graphs, servers);
}
