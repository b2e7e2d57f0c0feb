/**
 * Calls never sent because their prompt did not fit the context window even
 * trimmed (`TMAS_CONTEXT_LENGTH`, "not sent: …"), counted by role. Such a
 * call is a result, the same on every resume, so the run goes on without it
 * and ends with exit 0: before, all it showed was a count in the table's
 * `failed` column (an agents module whose summary prompt was 2,000,000 tokens
 * lost every summary of the run that way). The end of the run now names the
 * role, how many, and the first reason, and for a run with an agents module,
 * what to change in it.
 */
import path from 'node:path';
import type { Observable } from 'rxjs';
import type { Envelope } from '../kernel/protocol.ts';

/** One role's unsent calls: how many, and the first one's reason. */
interface UnsentRole {
  count: number;
  first: string;
}

/** Counts the unsent calls of a run's messages, by role. */
export function countUnsentCalls(envelopes$: Observable<Envelope>): Map<string, UnsentRole> {
  const byRole = new Map<string, UnsentRole>();
  envelopes$.subscribe(({ message }) => {
    if (message.type !== 'llm.failed' || message.code !== 'TMAS_CONTEXT_LENGTH' || !message.error.startsWith('not sent')) return;
    const role = byRole.get(message.role);
    if (role) role.count++;
    else byRole.set(message.role, { count: 1, first: message.error });
  });
  return byRole;
}

/** The warnings the end of a run prints of its unsent calls, one per role; `agents`: the run's agents module, or null. */
export function unsentCallWarnings(byRole: ReadonlyMap<string, UnsentRole>, agents: string | null): string[] {
  return [...byRole].map(([role, { count, first }]) => {
    const module = agents === null ? '' : ` If the agents module ${path.basename(agents)} (--agents) writes the ${role} prompt, shorten what it sends, or give its parts a drop rank ({ id, text, drop }) so that they may be left out to fit.`;
    return `tmas: warning: ${count} ${role} call${count === 1 ? ' was' : 's were'} not sent: the prompt did not fit the context window even trimmed (the first: ${first}); the run went on without ${count === 1 ? 'it' : 'them'}.${module}`;
  });
}
