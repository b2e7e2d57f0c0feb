/**
 * The problems a run was given without a reference answer. Nothing grades
 * them (no rule has an answer to compare, no judge a reference to read), so
 * they are in no figure: a table over 5 problems 2 of which have none reads
 * `3 of 5` in its problems row, which, unexplained, says a method lost 2.
 * Read from the run's store (the identity digest of each problem it was given).
 */
import { identityDigest, type ProblemIdentity } from '../input/problem-identity.ts';

/** The digest a problem without an answer has (identityDigest of an absent answer). */
const NO_ANSWER = identityDigest({ question: '', answer: undefined }).answer;

/** The ids of a run's problems without a reference answer, in the store's order; null when its store could not be read. */
export function unreferencedProblems(run: { identities: ReadonlyMap<string, ProblemIdentity> | null }): string[] | null {
  if (run.identities === null) return null;
  return [...run.identities].flatMap(([id, identity]) => (identity.answer === NO_ANSWER ? [id] : []));
}

/** `2 have no reference answer (demo-002, demo-004), which nothing grades: ` … ; '' when every problem has one. */
export function unreferencedSentence(ids: readonly string[]): string {
  if (ids.length === 0) return '';
  const shown = ids.slice(0, 5).join(', ') + (ids.length > 5 ? `, and ${ids.length - 5} more` : '');
  const them = ids.length === 1 ? '1 has' : `${ids.length} have`;
  return `${them} no reference answer (${shown}), which nothing grades: they are in no figure, and each method's 'problems' row counts them among those it ran, not those it graded.`;
}
