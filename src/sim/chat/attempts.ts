/**
 * Which attempt of a request this is, and so which fault it meets: the
 * server counts the attempts of each request body whose last attempt failed,
 * so that a retry draws again (faults.ts) and a retried request eventually
 * succeeds. A body that succeeds is forgotten; the oldest are forgotten first
 * when too many fail.
 */
import type { ChatContext } from './chat-context.ts';
import { decideFault, type FaultKind } from '../faults/faults.ts';

/** Bodies whose attempts are tracked at most; the oldest are forgotten first. */
const MAX_TRACKED = 100_000;

/** This attempt of the body whose sha256 is `key`, and its fault (counted in the server's stats), or null. */
export function nextAttempt(context: ChatContext, key: string): { attempt: number; fault: FaultKind | null } {
  const attempt = (context.attempts.get(key) ?? 0) + 1;
  const fault = decideFault(context.faults, context.settings.seed, key, attempt);
  if (fault === null) context.attempts.delete(key);
  else {
    track(context.attempts, key, attempt);
    context.stats.faults[fault] = (context.stats.faults[fault] ?? 0) + 1;
  }
  return { attempt, fault };
}

function track(attempts: Map<string, number>, key: string, attempt: number): void {
  attempts.delete(key);
  if (attempts.size >= MAX_TRACKED) {
    const oldest = attempts.keys().next();
    if (!oldest.done) attempts.delete(oldest.value);
  }
  attempts.set(key, attempt);
}
