/**
 * The announcements a stop cut off. A problem's iteration is saved (its
 * record and banks, one atomic write) and then announced (`bank.updated`,
 * `iteration.completed`, logged by the next writes). A process killed between
 * the two leaves an iteration saved but never announced: a resume starts after
 * it and does not announce it either, so the message log, and the metrics read
 * from it (that problem missing from the iteration's pass@1), would lack it for
 * good. The save marks the problem's iteration unannounced and the logged
 * `iteration.completed` clears the mark, each in its own atomic write
 * (store.ts), so a resume reads which iterations to announce again, from their
 * records, without reading the log.
 */
import type { ProblemInput } from '../../../machines/contract.ts';
import { iterationAnnouncement } from '../../../machines/kit.ts';
import type { Message } from '../../kernel/protocol.ts';
import { iterationKey } from '../../store/records.ts';
import type { Store } from '../../store/store.ts';

/** The problems whose last saved iteration was never announced (a stop came between the save and its announcement): problem id to iteration. */
export async function unannouncedIterations(store: Store): Promise<Map<string, number>> {
  const pending = new Map<string, number>();
  for await (const [problem, iteration] of store.unannounced().iterator()) if (typeof iteration === 'number') pending.set(problem, iteration);
  return pending;
}

/** The messages to publish again: the announcements of the problems' last saved iterations that were never logged. */
export async function lostAnnouncements(store: Store, inputs: readonly ProblemInput[]): Promise<Message[]> {
  const unannounced = await unannouncedIterations(store);
  const lost: Message[] = [];
  for (const input of inputs) {
    const iteration = unannounced.get(input.problem.id);
    // Only the iteration the problem resumes after can be unannounced: a save follows the announcement before it.
    if (iteration === undefined || iteration !== input.start.iteration - 1) continue;
    const record = await store.getIteration(iterationKey(input.ordinal, iteration));
    if (record !== undefined) lost.push(...iterationAnnouncement(input, iteration, record.candidates, record.bank));
  }
  return lost;
}
