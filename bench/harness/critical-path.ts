/**
 * A lower bound on a TMAS run's makespan from its journal: the time the run
 * would take with unlimited slots and no runtime cost, given what each call
 * cost (by default the latency it actually had). Per problem and iteration, candidate i needs its solution,
 * then its slowest verification, then its summary; the banks need every
 * summary, then the slower of the experience and guideline calls; the next
 * iteration needs the banks. Judge calls and retries are left out, which only
 * lowers the bound, so it is a bound whatever they did.
 */
import { Store, type CallRecord } from '../../src/store/store.ts';

/** Verification indexes are candidate × this + verification (see machines/roles/verification.role.ts). */
const VERIFICATION_STRIDE = 10_000;

interface IterationCalls {
  solution: Map<number, number>;
  verification: Map<number, number>;
  summary: Map<number, number>;
  banks: number;
}

/** What one call costs on the critical path: its journaled latency in ms by default. */
export type CallCost = (call: CallRecord) => number;

/** The bound in the unit of `costOf` (milliseconds by default), over every problem of the run in `runDir`. */
export async function criticalPathMs(runDir: string, costOf: CallCost = (call) => call.timings.latencyMs): Promise<number> {
  const iterations = new Map<string, Map<number, IterationCalls>>();
  const store = await Store.open(runDir);
  try {
    for await (const call of store.callRecords()) {
      let problem = iterations.get(call.problem);
      if (!problem) iterations.set(call.problem, (problem = new Map()));
      let calls = problem.get(call.iteration);
      if (!calls) problem.set(call.iteration, (calls = { solution: new Map(), verification: new Map(), summary: new Map(), banks: 0 }));
      const latency = costOf(call);
      // A retried call keeps its slowest attempt only: the bound stays a bound.
      const slowest = (map: Map<number, number>, key: number) => map.set(key, Math.max(map.get(key) ?? 0, latency));
      if (call.role === 'solution') slowest(calls.solution, call.index);
      else if (call.role === 'verification') slowest(calls.verification, Math.floor(call.index / VERIFICATION_STRIDE));
      else if (call.role === 'summary') slowest(calls.summary, call.index);
      else if (call.role === 'experience' || call.role === 'guideline') calls.banks = Math.max(calls.banks, latency);
    }
  } finally {
    await store.close();
  }
  let bound = 0;
  for (const problem of iterations.values()) {
    let total = 0;
    for (const calls of problem.values()) {
      let candidates = 0;
      for (const [candidate, solution] of calls.solution) {
        candidates = Math.max(candidates, solution + (calls.verification.get(candidate) ?? 0) + (calls.summary.get(candidate) ?? 0));
      }
      total += candidates + calls.banks;
    }
    bound = Math.max(bound, total);
  }
  return bound;
}
