/**
 * The messages of a run's errors tab: calls failed for good, prompts cut to
 * fit, and every output a role could not use. A role that asks again
 * (`validate`: a verification, a summary, a bank agent) reports each unusable
 * attempt as `output.invalid`; the others (a judge pass without a verdict, a
 * solution without a final answer, a distillation out of its schema, a rater,
 * a critic) carry their reason only as the `parseError` of their
 * `<role>.completed`, which the tab left out: a run whose judge gave no
 * verdict on 1024 of 1024 passes read "No errors in this run".
 */
import type { Message } from '../kernel/protocol.ts';

/** Message types that are errors whatever they hold. */
const ERROR_TYPES = new Set(['llm.failed', 'output.invalid', 'context.trimmed']);

/** The role and request a message is about, as `output.invalid` and its `<role>.completed` both name them. */
function outputKey(role: string, correlation: string): string {
  const hash = correlation.lastIndexOf('#');
  return `${role}\u0000${hash < 0 ? correlation : correlation.slice(0, hash)}`;
}

/**
 * A filter over the log in order: true for each error message. A reply whose
 * last attempt an `output.invalid` already reported (it follows at once) is not
 * shown a second time.
 */
export function errorMessageFilter(): (message: Message) => boolean {
  const reported = new Set<string>();
  return (message) => {
    if (message.type === 'output.invalid') {
      if (!message.retrying) reported.add(outputKey(message.role, message.correlation));
      return true;
    }
    if (ERROR_TYPES.has(message.type)) return true;
    if (!message.type.endsWith('.completed') || !('parseError' in message) || typeof message.parseError !== 'string') return false;
    return !reported.delete(outputKey(message.type.slice(0, -'.completed'.length), message.correlation));
  };
}
