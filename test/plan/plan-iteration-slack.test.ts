/**
 * tmas plan's simulated server holds calls in the gateway's heap and moves
 * them when their slack changes, as the dispatcher does: here when a call
 * comes at a stage behind every call of its iteration still out (a solution
 * written again, a refine of verify-refine-chains in a replayed journal).
 */
import { describe, expect, test } from 'vitest';
import { createCallRanks } from '../../src/host/calls/call-ranks.ts';
import { ScheduledServer, type ServedCall } from '../../src/plan/scheduled-server.ts';
import { createManualClock } from '../../src/sim/capacity/clock.ts';
import { createCapacityEngine } from '../../src/sim/capacity/engine.ts';
import { resolveCapacity } from '../../src/sim/capacity/options.ts';
import { tmasStrategy } from '../../machines/strategies/tmas/index.ts';

const served = (problem: number, role: string, outputTokens: number): ServedCall => ({ problem, iteration: 0, role, promptTokens: 100, outputTokens });

describe("the plan's server, when a call comes behind its iteration's calls", () => {
  test("a held verification whose iteration gets a new solution goes after another problem's", () => {
    const ranks = createCallRanks(3, tmasStrategy.stages);
    // Problem 0's only solution is in; its verification is then held, and a solution of its iteration is written again.
    ranks.ended(ranks.rankOf({ problem: '0', iteration: 0, role: 'solution', grading: false }));
    const clock = createManualClock();
    const capacity = resolveCapacity({});
    const server = new ScheduledServer({ replicas: [{ engine: createCapacityEngine(capacity, clock), capacity, cap: 2 }], concurrency: 2, limit: 'none', routing: 'least-loaded', ranks, clairvoyant: false });
    const done: string[] = [];
    const send = (name: string, call: ServedCall) => server.send(call, () => done.push(name));
    // Two other problems' solutions take both slots; the shorter frees one for problem 0's new solution, the longer for a verification.
    send('2 solution', served(2, 'solution', 100));
    send('3 solution', served(3, 'solution', 200));
    server.pump();
    send('0 verification', served(0, 'verification', 100));
    send('1 verification', served(1, 'verification', 100));
    send('0 solution', served(0, 'solution', 100_000));
    server.pump();
    clock.runAll();
    // Problem 0's verification waits on its own solution: problem 1's, held after it, goes first.
    expect(done).toEqual(['2 solution', '3 solution', '1 verification', '0 verification', '0 solution']);
  });
});
