/**
 * The watch on an agents module's own machines (module-machine-watch.ts): a
 * request its machine leaves unanswered past the bound stops the run, while
 * time its calls spend in flight does not count, whatever role they name.
 */
import { Subject } from 'rxjs';
import { describe, expect, test } from 'vitest';
import { watchModuleMachines } from '../../src/host/strategy/module-machine-watch.ts';
import type { Envelope } from '../../src/kernel/protocol.ts';
import type { UserError } from '../../src/kernel/errors.ts';

const request = (type: string, fields: Record<string, unknown> = {}): Envelope => ({ message: { type, run: 'r', problem: 'p1', iteration: 0, correlation: 'p1/0/summary/0', ...fields } }) as unknown as Envelope;

/** A watch of the summary role with a clock the test moves; `stops` holds what it stopped the run with. */
function watched() {
  let clock = 0;
  const stops: UserError[] = [];
  const envelopes$ = new Subject<Envelope>();
  const watch = watchModuleMachines({ roles: new Map([['summary', 'agents.ts']]), boundMs: 200, envelopes$, stop: (error) => stops.push(error), now: () => clock });
  if (watch === null) throw new Error('no watch');
  return { watch, stops, envelopes$, advance: (ms: number) => (clock += ms) };
}

const ticks = () => new Promise((resolve) => setTimeout(resolve, 150));

describe("the watch on a module's own machine", () => {
  test('stops the run when a request waits past the bound with no call in flight', async () => {
    const { watch, stops, envelopes$, advance } = watched();
    envelopes$.next(request('summary.requested'));
    advance(500);
    await ticks();
    watch.dispose();
    expect(stops.map((error) => error.code)).toEqual(['TMAS_AGENTS']);
  });

  test("does not count the time of a call the machine makes for the request's problem under another role's name", async () => {
    // A machine that names its calls otherwise than its role ("summarizer" for summary): a call streaming past
    // --timeout in all (a long reasoning reply is never idle) stopped the run as though the machine never answered.
    const { watch, stops, envelopes$, advance } = watched();
    envelopes$.next(request('summary.requested'));
    const ended = watch.callStarted({ role: 'summarizer', problem: 'p1' });
    advance(500);
    await ticks();
    expect(stops).toEqual([]);
    ended();
    advance(100);
    await ticks();
    expect(stops).toEqual([]);
    advance(150);
    await ticks();
    watch.dispose();
    expect(stops.map((error) => error.code)).toEqual(['TMAS_AGENTS']);
  });

  // Before, such a reply was delivered to its problem and counted, while the request it should have answered was waited
  // on: the run stopped --timeout later, the error saying the machine never answered.
  test.each([
    ['another correlation', { correlation: 'p1/0/summary/0-mine' }, 'correlation p1/0/summary/0-mine'],
    ['another problem', { problem: 'p2' }, 'problem p2'],
    ['another iteration', { iteration: 3 }, 'iteration 3'],
  ])("stops the run at once, naming the module and the role, when the machine's reply carries %s than its request", async (_, fields, named) => {
    const { watch, stops, envelopes$ } = watched();
    envelopes$.next(request('summary.requested'));
    envelopes$.next(request('summary.completed', fields));
    envelopes$.next(request('summary.completed', fields));
    watch.dispose();
    expect(stops).toHaveLength(1);
    expect(stops[0]?.code).toBe('TMAS_AGENTS');
    expect(stops[0]?.message).toMatch(/^agents\.ts: the summary actor \(a machine of the module's own\) posted a summary\.completed \(.*\) that answers none of its requests/);
    expect(stops[0]?.message).toContain(named);
    expect(stops[0]?.message).toContain('...replyBase(request)');
  });

  test('a reply that answers its request is counted: nothing stops, however long after; a second reply to it is refused', async () => {
    const { watch, stops, envelopes$, advance } = watched();
    envelopes$.next(request('summary.requested'));
    envelopes$.next(request('summary.completed'));
    advance(500);
    await ticks();
    expect(stops).toEqual([]);
    envelopes$.next(request('summary.completed'));
    watch.dispose();
    expect(stops[0]?.message).toContain('no summary.requested of problem p1 waits for a reply');
  });
});
