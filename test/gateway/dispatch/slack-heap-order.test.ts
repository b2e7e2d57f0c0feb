/**
 * Held calls leave in the order of their ranks as they stand when they leave,
 * however often their slacks changed while held: a rank changed in place,
 * without its ticket moved in the heaps, sends calls out of order from then on.
 */
import { describe, expect, test } from 'vitest';
import { createDispatcher, type Slots } from '../../../src/gateway/dispatch/dispatcher.ts';
import { compareHeld } from '../../../src/gateway/dispatch/held-calls.ts';
import type { CallRank } from '../../../src/gateway/reply/completion.ts';
import { createCallRanks } from '../../../src/host/calls/call-ranks.ts';
import { tmasStrategy } from '../../../machines/strategies/tmas/index.ts';

/** A small deterministic generator, so that a failure replays. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

const roles = ['solution', 'verification', 'summary', 'experience'];

describe('held calls after reslacks', () => {
  test.each([1, 2, 3, 4, 5])('leave in rank order (draw %i), with calls out on the server, aborted while held, sent again, and raised by a call behind them', async (seed) => {
    const draw = random(seed);
    const ranks = createCallRanks(4, tmasStrategy.stages);
    const server: Slots & { limit: number; drained: boolean } = { inFlight: 0, limit: 1, drained: false };
    const dispatcher = createDispatcher(1);
    await dispatcher.admit({ pool: 'p', replicas: [server], rank: { grading: false, remaining: 1e9 }, sequence: -1, tieBreak: 0 });
    const held = new Set<{ rank: CallRank; sequence: number }>();
    const out: CallRank[] = [];
    const sent: Array<{ rank: CallRank; sequence: number }> = [];
    let sequence = 0;
    let raised = 0;
    const hold = (rank: CallRank, signal?: AbortSignal) => {
      const entry = { rank, sequence: sequence++ };
      held.add(entry);
      dispatcher.admit({ pool: 'p', replicas: [server], rank, sequence: entry.sequence, tieBreak: 0 }, signal).then(
        () => sent.push(entry),
        () => held.delete(entry),
      );
      return entry;
    };
    // The server frees its slot: the call held that ranks best now goes, and its rank ends.
    const sendNext = async () => {
      const best = [...held].reduce((a, b) => (compareHeld(a, b) <= 0 ? a : b));
      dispatcher.release(server);
      await Promise.resolve();
      const next = sent.at(-1);
      expect(next).toBe(best);
      held.delete(next as { rank: CallRank; sequence: number });
      // What leaves ends its rank, and the calls still held move with it.
      dispatcher.reslack(ranks.ended((next as { rank: CallRank }).rank));
    };
    for (let step = 0; step < 400; step++) {
      // A call at a stage behind its iteration's calls out (often, roles drawn at random) raises their slacks in the line.
      const rank = ranks.rankOf({ problem: `p${Math.floor(draw() * 4)}`, iteration: Math.floor(draw() * 2), role: roles[Math.floor(draw() * roles.length)] as string, grading: false }, (changes) => {
        raised += changes.filter(({ rank, slack }) => slack > (rank.slack ?? 0)).length;
        dispatcher.reslack(changes);
      });
      const choice = draw();
      if (choice < 0.3) out.push(rank);
      else if (choice < 0.4) {
        // Aborted while held, then its rank ends (the call's cleanup).
        const abort = new AbortController();
        hold(rank, abort.signal);
        abort.abort(new Error('stopped'));
        await Promise.resolve();
        dispatcher.reslack(ranks.ended(rank));
      } else hold(rank);
      if (draw() < 0.3 && out.length > 0) dispatcher.reslack(ranks.ended(out.splice(Math.floor(draw() * out.length), 1)[0] as CallRank));
      // Some calls leave while others still come, so that an order broken by a slack raised in place is seen before later changes move every call again.
      if (draw() < 0.2 && held.size > 0) await sendNext();
    }
    for (const rank of out) dispatcher.reslack(ranks.ended(rank));
    await Promise.resolve();
    while (held.size > 0) await sendNext();
    expect(raised).toBeGreaterThan(0);
  });
});
