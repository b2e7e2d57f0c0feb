/**
 * The announcements a stop cut off. A problem's iteration is saved (its
 * record and banks, one atomic write) and then announced (`bank.updated`,
 * `iteration.completed`, logged by the next writes). A process killed between
 * the two leaves an iteration saved but never announced: a resume starts after
 * it and does not announce it either, so the message log, and the metrics read
 * from it (that problem missing from the iteration's pass@1), would lack it for
 * good. Saves and announcements alternate per problem and the log's writes land
 * in order, so only a problem's last saved iteration can have lost its
 * announcement; it is announced again, from its record, when the run resumes.
 */
import type { ProblemInput } from '../../../machines/contract.ts';
import { iterationAnnouncement } from '../../../machines/kit.ts';
import type { Message } from '../../kernel/protocol.ts';
import { iterationKey } from '../../store/records.ts';
import type { Store } from '../../store/store.ts';

/** The correlation of a problem's `iteration.completed` (machines/kit.ts `messageBase`). */
function completionCorrelation(problem: string, iteration: number): string {
  return `${problem}/${iteration}/iteration/0`;
}

/** The messages to publish again: the announcements of the problems' last saved iterations that the log does not hold. */
export async function lostAnnouncements(store: Store, inputs: readonly ProblemInput[]): Promise<Message[]> {
  const lastSaved = new Map<string, ProblemInput>();
  for (const input of inputs) if (input.start.iteration > 0) lastSaved.set(completionCorrelation(input.problem.id, input.start.iteration - 1), input);
  if (lastSaved.size === 0) return [];
  // The messages' outlines only: no text is read back.
  for await (const { message } of store.envelopeOutlines(() => false)) {
    if (message.type === 'iteration.completed') lastSaved.delete(message.correlation);
    if (lastSaved.size === 0) return [];
  }
  const lost: Message[] = [];
  for (const input of lastSaved.values()) {
    const iteration = input.start.iteration - 1;
    const record = await store.getIteration(iterationKey(input.ordinal, iteration));
    if (record === undefined) continue;
    lost.push(...iterationAnnouncement(input, iteration, record.candidates, record.bank));
  }
  return lost;
}
