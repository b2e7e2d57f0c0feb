/**
 * A call whose iteration waits on another branch can wait: held calls are
 * sent by the chain left of their problem less their slack (how far they
 * stand ahead of their iteration's least advanced call), and are ranked
 * again, in the dispatcher's line, once that call ends.
 */
import { describe, expect, test } from 'vitest';
import { createDispatcher, type Slots } from '../../../src/gateway/dispatch/dispatcher.ts';
import { createPrefixMemory } from '../../../src/gateway/dispatch/prefix-memory.ts';
import { createRouter, type Routable } from '../../../src/gateway/dispatch/routing.ts';
import type { CallRank } from '../../../src/gateway/reply/completion.ts';
import { createCallRanks, type CallRanks } from '../../../src/host/calls/call-ranks.ts';
import { tmasStrategy } from '../../../machines/strategies/tmas/index.ts';

const call = (problem: string, role: string, iteration = 0) => ({ problem, iteration, role, grading: false });

/** One server of one slot, taken by another problem's solution; `hold` queues a call there and `sent` lists them as they go. */
async function busyServer(ranks: CallRanks) {
  const server: Slots & { limit: number; drained: boolean } = { inFlight: 0, limit: 1, drained: false };
  const dispatcher = createDispatcher(10);
  await dispatcher.admit({ pool: 'p', replicas: [server], rank: ranks.rankOf(call('c', 'solution')), sequence: 0, tieBreak: 0 });
  const sent: string[] = [];
  const hold = (name: string, rank: CallRank, sequence: number) =>
    void dispatcher.admit({ pool: 'p', replicas: [server], rank, sequence, tieBreak: 0 }).then(() => sent.push(name));
  return { server, dispatcher, sent, hold };
}

/** A fast and a slow replica of one slot each, both taken by other problems' solutions. */
async function busySlowerPool(ranks: CallRanks) {
  const replica = (sequenceSpeed: number): Routable & { limit: number } => ({ limit: 1, inFlight: 0, drained: false, sequenceSpeed, kneeSize: null, failedAttempts: 0, trialAt: 0, prefixes: createPrefixMemory() });
  const [fast, slow] = [replica(0.1), replica(0.05)];
  const dispatcher = createDispatcher(10, 'rank', createRouter('prefix'));
  const admit = (rank: CallRank, sequence: number) => dispatcher.admit({ pool: 'p', replicas: [fast, slow], rank, sequence, tieBreak: 0 });
  await admit(ranks.rankOf(call('c', 'solution')), 0);
  await admit(ranks.rankOf(call('d', 'solution')), 1);
  return { fast, dispatcher, admit };
}

describe('slack within an iteration', () => {
  test("a verification waits behind another problem's while a solution of its own iteration is still out, and goes by arrival again once it is in", async () => {
    const ranks = createCallRanks(3, tmasStrategy.stages);
    // Problem a: two candidates, the first one's solution in, the second's still being written. Problem b: both in.
    const [aFirst, aSecond] = [ranks.rankOf(call('a', 'solution')), ranks.rankOf(call('a', 'solution'))];
    const [bFirst, bSecond] = [ranks.rankOf(call('b', 'solution')), ranks.rankOf(call('b', 'solution'))];
    for (const rank of [aFirst, bFirst, bSecond]) expect(ranks.ended(rank)).toEqual([]);

    const { server, dispatcher, sent, hold } = await busyServer(ranks);
    // a's verification comes first, but its iteration waits on a's second solution: b's goes before it.
    const aCheck = ranks.rankOf(call('a', 'verification'));
    hold('a verification', aCheck, 1);
    hold('b verification', ranks.rankOf(call('b', 'verification')), 2);
    expect(aCheck.slack).toBeGreaterThan(0);
    dispatcher.release(server);
    await Promise.resolve();
    expect(sent).toEqual(['b verification']);

    // Another of b's, then a's second solution comes in: a's verification is no longer ahead of anything, and goes by arrival.
    hold('b verification 2', ranks.rankOf(call('b', 'verification')), 3);
    const changes = ranks.ended(aSecond);
    expect(changes).toEqual([{ rank: aCheck, slack: 0 }]);
    dispatcher.reslack(changes);
    dispatcher.release(server);
    await Promise.resolve();
    expect(sent).toEqual(['b verification', 'a verification']);
  });

  test('only the least advanced stage moving ranks again; calls of other iterations, and grading calls, never hold one up', () => {
    const ranks = createCallRanks(3, tmasStrategy.stages);
    const solutions = [ranks.rankOf(call('a', 'solution')), ranks.rankOf(call('a', 'solution'))];
    const summary = ranks.rankOf(call('a', 'summary'));
    expect(summary.slack).toBe(2);
    // A judge's call and the next iteration's solution stand apart from iteration 0's line.
    const judge = ranks.rankOf({ ...call('a', 'judge'), grading: true });
    expect(judge.slack).toBeUndefined();
    expect(ranks.rankOf(call('a', 'solution', 1)).slack).toBe(0);
    // One solution of two ended: the least advanced stage is still the solutions'.
    expect(ranks.ended(solutions[0] as CallRank)).toEqual([]);
    expect(ranks.ended(judge)).toEqual([]);
    expect(ranks.ended(solutions[1] as CallRank)).toEqual([{ rank: summary, slack: 0 }]);
    // Ended twice (a call answered and then its attempt's cleanup): nothing more.
    expect(ranks.ended(solutions[1] as CallRank)).toEqual([]);
  });

  test('a call that comes behind every call of its iteration still out gives them slack, in the line where they are held', async () => {
    const ranks = createCallRanks(3, tmasStrategy.stages);
    // a's iteration 0: its only solution is in, its verification held; then a solution is written again (its window refused the first).
    ranks.ended(ranks.rankOf(call('a', 'solution')));
    const { server, dispatcher, sent, hold } = await busyServer(ranks);
    const aCheck = ranks.rankOf(call('a', 'verification'));
    expect(aCheck.slack).toBe(0);
    hold('a verification', aCheck, 1);
    hold('b verification', ranks.rankOf(call('b', 'verification')), 2);
    const raised: unknown[] = [];
    ranks.rankOf(call('a', 'solution'), (changes) => {
      raised.push(...changes);
      dispatcher.reslack(changes);
    });
    expect(raised).toEqual([{ rank: aCheck, slack: 1 }]);
    // a's verification now waits on its own iteration's solution: b's, held after it, goes first.
    dispatcher.release(server);
    await Promise.resolve();
    expect(sent).toEqual(['b verification']);
  });

  test("on a pool with a slower replica, held calls wait by their chain alone: the one held back by its slack would be the slow replica's pick", async () => {
    const ranks = createCallRanks(3, tmasStrategy.stages);
    const aSolutions = [ranks.rankOf(call('a', 'solution')), ranks.rankOf(call('a', 'solution'))];
    ranks.ended(aSolutions[0] as CallRank);
    const { fast, dispatcher, admit } = await busySlowerPool(ranks);
    const sent: string[] = [];
    const aCheck = ranks.rankOf(call('a', 'verification'));
    expect(aCheck.slack).toBeGreaterThan(0);
    void admit(aCheck, 2).then((to) => sent.push(`a verification to ${to === fast ? 'fast' : 'slow'}`));
    void admit(ranks.rankOf(call('b', 'verification')), 3).then((to) => sent.push(`b verification to ${to === fast ? 'fast' : 'slow'}`));
    // The fast replica frees a slot: the first of the two equal chains goes there, whatever a's slack.
    dispatcher.release(fast);
    await Promise.resolve();
    expect(sent).toEqual(['a verification to fast']);
  });
});

describe('slack on a pool with a slower replica', () => {
  test('a call held there with no slack gets none later, when its iteration falls behind it and then catches up part way', async () => {
    const ranks = createCallRanks(3, tmasStrategy.stages);
    // a's summary is ranked while nothing else of its iteration is out (slack 0); a solution and a verification of it come later.
    const aSummary = ranks.rankOf(call('a', 'summary'));
    expect(aSummary.slack).toBe(0);
    const aSolution = ranks.rankOf(call('a', 'solution'));
    ranks.rankOf(call('a', 'verification'));
    const { fast, dispatcher, admit } = await busySlowerPool(ranks);
    const sent: string[] = [];
    void admit(aSummary, 2).then(() => sent.push('a summary'));
    void admit(ranks.rankOf(call('b', 'summary')), 3).then(() => sent.push('b summary'));
    // a's solution ends: its summary is now a stage ahead of its verification, a slack it must not wait by here.
    dispatcher.reslack(ranks.ended(aSolution));
    dispatcher.release(fast);
    await Promise.resolve();
    expect(sent).toEqual(['a summary']);
  });

  test('a call held there is not held back when a call comes behind it in its iteration: the slack it is given stays off its copy', async () => {
    const ranks = createCallRanks(3, tmasStrategy.stages);
    // a's verification is ranked with its solution in (slack 0), then a solution of its iteration is written again.
    ranks.ended(ranks.rankOf(call('a', 'solution')));
    const aCheck = ranks.rankOf(call('a', 'verification'));
    const { fast, dispatcher, admit } = await busySlowerPool(ranks);
    const sent: string[] = [];
    void admit(aCheck, 2).then(() => sent.push('a verification'));
    void admit(ranks.rankOf(call('b', 'verification')), 3).then(() => sent.push('b verification'));
    ranks.rankOf(call('a', 'solution'), (changes) => dispatcher.reslack(changes));
    // Its own rank is raised, for where it may be held again, but it waits here by its chain: it came first and goes first.
    expect(aCheck.slack).toBe(1);
    dispatcher.release(fast);
    await Promise.resolve();
    expect(sent).toEqual(['a verification']);
  });
});
