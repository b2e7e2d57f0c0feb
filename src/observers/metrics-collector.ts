/**
 * The metrics as a running fold of the message stream: one accumulator per
 * iteration (iteration-accumulator.ts), summed into figures on request.
 */
import type { Envelope } from '../kernel/protocol.ts';
import { countFaults } from './fault-counts.ts';
import { accumulate, createIterationAccumulator, summarizeIteration, type IterationAccumulator } from './iteration-accumulator.ts';
import { scoreIteration, type IterationMetrics } from './metrics.ts';
import { createRoleOutputCounter } from './role-outputs.ts';

/** A running fold of the message stream into metrics. */
export interface MetricsCollector {
  observe(envelope: Envelope): void;
  /** The figures so far, one entry per iteration that at least one problem finished. */
  iterations(): IterationMetrics[];
  /** Calls that failed for good in iterations no problem finished, which `iterations()` has no entry for. */
  unfinishedFailures(): number;
}

/** Creates a metrics collector. */
export function createMetricsCollector(): MetricsCollector {
  const byIteration = new Map<number, IterationAccumulator>();
  // When each running (problem, iteration) saw its first message; dropped when it completes.
  const startedAt = new Map<string, number>();
  const roleOutputs = createRoleOutputCounter();

  function at(iteration: number, time: number): IterationAccumulator {
    let accumulator = byIteration.get(iteration);
    if (!accumulator) {
      accumulator = createIterationAccumulator(time);
      byIteration.set(iteration, accumulator);
    }
    accumulator.firstAt = Math.min(accumulator.firstAt, time);
    accumulator.lastAt = Math.max(accumulator.lastAt, time);
    return accumulator;
  }

  return {
    observe({ message, at: time }) {
      if (message.iteration < 0) return;
      const accumulator = at(message.iteration, time);
      const key = `${message.problem}\u0000${message.iteration}`;
      if (!startedAt.has(key) && message.type !== 'iteration.completed' && message.type !== 'bank.updated') startedAt.set(key, time);
      countFaults(accumulator.faults, message);
      // A reply whose parse error no output.invalid reported (RSE's distiller, the CEO) is an invalid output too.
      if (roleOutputs.observe(accumulator.outputsByRole, message)) accumulator.faults.invalidOutputs++;
      if (message.type === 'iteration.completed') {
        // A problem's iteration completed again (saved again on resume) has the figures of its last save; its time counted once.
        const again = accumulator.problems.has(message.problem);
        accumulator.problems.set(message.problem, scoreIteration(message.candidates));
        const start = startedAt.get(key);
        if (start !== undefined && !again) accumulator.seconds.push((time - start) / 1000);
        startedAt.delete(key);
        return;
      }
      accumulate(accumulator, message);
    },
    iterations() {
      return [...byIteration.entries()]
        .sort(([a], [b]) => a - b)
        .filter(([, accumulator]) => accumulator.problems.size > 0)
        .map(([iteration, accumulator]) => summarizeIteration(iteration, accumulator, byIteration.get(iteration - 1)?.problems));
    },
    unfinishedFailures() {
      return [...byIteration.values()].filter((accumulator) => accumulator.problems.size === 0).reduce((sum, accumulator) => sum + accumulator.failures, 0);
    },
  };
}
