/**
 * The call a message says was paid for, and the role that made it: a role's
 * reply carries its call; an `output.invalid` that is asked again carries
 * the attempt's call, which has no reply of its own (a final invalid output's
 * call comes with its reply, so it is not counted twice). The metrics and the
 * progress line count calls and tokens through this one rule.
 */
import type { CallInfo, Message } from '../kernel/protocol.ts';

/** The paid call `message` reports, with its role; null for a message that reports none. */
export function paidCall(message: Message): { role: string; call: CallInfo } | null {
  if (message.type === 'output.invalid') return message.retrying && message.call !== undefined ? { role: message.role, call: message.call } : null;
  if (!('call' in message)) return null;
  return { role: message.type.slice(0, message.type.lastIndexOf('.')), call: message.call };
}
