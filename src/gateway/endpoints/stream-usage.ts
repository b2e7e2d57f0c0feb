/**
 * What an endpoint's streams tell of the tokens it decodes (EndpointState's
 * `streamUsage`): their usage in every chunk while the server gives it, else
 * their text once it proves steady (streamed-text.ts), else nothing.
 */
import type { EndpointState } from './endpoint-state.ts';
import type { Reply } from '../reply/reply.ts';

/** Whether its streams are asked for their usage in every chunk. */
export function askingUsage(state: EndpointState): boolean {
  return state.streamUsage.state === 'asked' || state.streamUsage.state === 'counting';
}

/** Whether the knee counts the tokens from our streams: their usage, or their text once it is known steady. */
export function countingStreams(state: EndpointState): boolean {
  return state.streamUsage.state === 'counting' || (state.streamUsage.state === 'text' && state.text.verdict === 'steady');
}

/** A server that rejects or ignores `continuous_usage_stats`: its streams are not asked again, and their text is counted instead. */
export function refuseStreamUsage(state: EndpointState): void {
  if (!askingUsage(state)) return;
  state.streamUsage = { state: 'text', tokens: 0 };
}

/**
 * Its streams' text cannot count its tokens: no cap, once its metrics are
 * known to have no counter (until they answer, the readings decide:
 * readLoad disables the knee of a server whose tokens nothing counts).
 */
export function stopCountingText(state: EndpointState): void {
  state.streamUsage.state = 'off';
  if (state.counter === false) state.knee.disable();
}

/**
 * A call ended with `chars` of text: its characters per token judge the
 * text (streamed-text.ts). Judged steady, the text counts from now on,
 * unless the first text of the calls usually came late (a hidden reasoning:
 * text at the end, not as it is decoded), which is asked once, then: later
 * waits in a busy server's queue say nothing of it.
 */
export function onTextEnded(state: EndpointState, chars: number, usage: Reply['usage']): void {
  if (state.streamUsage.state !== 'text') return;
  const before = state.text.verdict;
  state.text.ended(chars, usage?.completionTokens ?? null);
  if (state.text.verdict === 'unsteady') return stopCountingText(state);
  if (before === 'steady' || state.text.verdict !== 'steady') return;
  if (state.watch.textFlows() === false) return stopCountingText(state);
  // The slow start begins from the calls the server has (it ran uncapped meanwhile).
  if (state.counter !== true) state.knee.restart(state.inFlight);
}

/** A stream carried its usage: from now on the knee counts the server's tokens from our streams. */
export function confirmStreamUsage(state: EndpointState): void {
  if (state.streamUsage.state !== 'asked') return;
  state.streamUsage.state = 'counting';
  // A server without the counter may have gone uncapped (UNCONFIRMED_HOLD_MS in endpoint-state.ts): the slow start begins from the calls it has.
  if (state.counter !== true) state.knee.restart(state.inFlight);
}
