/**
 * What-if: a finished run's journaled calls, with the lengths they had,
 * replayed through the capacity model under other servers, another
 * concurrency or another schedule. Which calls waited on which comes from the
 * strategy's structure (call-graph.ts), per problem and iteration, the calls
 * of a role in their index order.
 */
import type { Strategy } from '../../machines/contract.ts';
import { buildCallGraph, type IterationCalls } from './call-graph.ts';
import type { JournalCall, RunJournal } from './run-journal.ts';
import { simulateCalls, type Servers, type Simulated } from './simulate.ts';

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
  const stages = options.strategy.stages ?? {};
  const graph = buildCallGraph(journaledCalls(journal), { stages, schedule: options.schedule });
  return simulateCalls(graph, { servers: options.servers, iterations: journal.config.loop.maxIterations, stages });
}
