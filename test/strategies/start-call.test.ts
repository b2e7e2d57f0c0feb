/**
 * A role's calls of the runtime's own `llm` logic run as plain functions
 * (machines/start-call.ts): each result must still reach the role that asked,
 * and a role that stops must still abort its calls and hear from none of them.
 */
import { assign, createActor, setup } from 'xstate';
import { describe, expect, test } from 'vitest';
import { callLlmWith, llmLogic, type CallDoneEvent, type LlmFunction } from '../../machines/start-call.ts';
import type { LlmInput, LlmResult } from '../../machines/llm.ts';

/** A role that starts one call per `ask` event and keeps the ids of the results it hears. */
function roleWith(run: LlmFunction) {
  const machine = setup({
    types: { context: {} as { heard: string[] }, events: {} as { type: 'ask'; id: string } | CallDoneEvent | { type: 'finish' } },
    actions: { callLlm: callLlmWith(llmLogic(run)) as never },
  }).createMachine({
    context: { heard: [] },
    initial: 'working',
    states: {
      working: {
        on: {
          ask: { actions: { type: 'callLlm', params: ({ event }: { event: { id: string } }) => ({ id: event.id, input: { problem: event.id } as unknown as LlmInput }) } as never },
          'llm.done': { actions: assign({ heard: ({ context, event }) => [...context.heard, event.id] }) },
          finish: 'done',
        },
      },
      done: { type: 'final' },
    },
  });
  return createActor(machine).start();
}

/** A call that settles when told, and notes whether its signal was aborted. */
function heldCall() {
  let settle: (result: LlmResult) => void = () => {};
  const seen: { signal: AbortSignal | null } = { signal: null };
  const run: LlmFunction = (input, signal) => {
    seen.signal = signal;
    return new Promise<LlmResult>((resolve) => {
      settle = resolve;
    });
  };
  return { run, seen, settle: (result: LlmResult) => settle(result) };
}

const FAILED = { ok: false, request: { type: 'x' }, code: 'TMAS_TEST', error: 'no' } as unknown as LlmResult;

describe('calls of the runtime logic', () => {
  test("a call's result reaches the role that asked, as llm.done with the call's id", async () => {
    const call = heldCall();
    const role = roleWith(call.run);
    role.send({ type: 'ask', id: 'c1' });
    expect(call.seen.signal?.aborted).toBe(false);
    call.settle(FAILED);
    await new Promise((resolve) => setImmediate(resolve));
    expect(role.getSnapshot().context.heard).toEqual(['c1']);
  });

  test('a role that stops aborts its calls in flight, and a result that comes after is not sent', async () => {
    const call = heldCall();
    const role = roleWith(call.run);
    role.send({ type: 'ask', id: 'c1' });
    role.send({ type: 'finish' });
    expect(role.getSnapshot().status).toBe('done');
    expect(call.seen.signal?.aborted).toBe(true);
    call.settle(FAILED);
    await new Promise((resolve) => setImmediate(resolve));
    expect(role.getSnapshot().context.heard).toEqual([]);
  });
});
