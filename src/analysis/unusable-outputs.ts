/**
 * The journaled calls whose output their role could not use (no parseable
 * score or verdict, no final answer, no summary label, JSON not of the schema,
 * an empty or cut-off answer). The run logs each, with its call's journal key,
 * on the same two paths the metrics' `outputsByRole` counts
 * (observers/role-outputs.ts): an `output.invalid` from the role machine (then
 * asked again, or gone on without it), or a reply that carries a
 * `parseError`. The RL export marks their records with the reason, so a
 * trainer can tell a format-broken generation from one the method used;
 * `tmas plan --check` sets apart the calls asked again, which no forecast
 * counts.
 */
import type { Message } from '../kernel/protocol.ts';
import type { Store } from '../store/store.ts';

/** An output its role could not use: why, and whether the role machine asked again for it (a call more than the strategy's count). */
export interface UnusableOutput {
  reason: string;
  askedAgain: boolean;
}

/** The unusable output a logged message reports, and the call it is about; null for any other message. */
function unusableOutput(message: Message): ({ key: string } & UnusableOutput) | null {
  if (message.type === 'output.invalid') return message.call === undefined ? null : { key: message.call.key, reason: message.reason, askedAgain: message.retrying };
  if (!('call' in message) || !message.type.endsWith('.completed')) return null;
  const parseError = 'parseError' in message ? message.parseError : undefined;
  return typeof parseError === 'string' ? { key: message.call.key, reason: parseError, askedAgain: false } : null;
}

/** The reasons are the only long texts read back. */
const REASONS = (_type: string, path: Array<string | number>): boolean => path.at(-1) === 'reason' || path.at(-1) === 'parseError';

/** The journal keys of the calls whose output was unusable, each with the run's reason. Reads the message log once; holds only those calls. */
export async function unusableCalls(store: Store): Promise<Map<string, UnusableOutput>> {
  const unusable = new Map<string, UnusableOutput>();
  for await (const envelope of store.envelopeOutlines(REASONS)) {
    // A log written before replies carried their call names none: those records cannot be marked.
    const found = unusableOutput(envelope.message);
    if (found !== null) unusable.set(found.key, { reason: found.reason, askedAgain: found.askedAgain });
  }
  return unusable;
}
