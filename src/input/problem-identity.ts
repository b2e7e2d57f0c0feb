/**
 * Which problem an id names. Two runs' problems of one id are one problem only when their question
 * and reference answer agree: another version of a data set (a question reworded, an answer
 * corrected) is another problem, and a figure paired over the two (a difference, a disagreement)
 * measures nothing. The viewer's compare page, its problem list and the report's groups all ask here.
 */
import { createHash } from 'node:crypto';

/** What makes a problem the one it is: its question and reference answer (a text, or a digest of it). */
export interface ProblemIdentity {
  question: string;
  answer?: string | undefined;
}

/** A problem's identity as two short digests: enough to tell versions apart, small enough to keep per problem of a run. */
export function identityDigest(problem: ProblemIdentity): { question: string; answer: string } {
  const digest = (text: string | undefined) => createHash('sha256').update(text === undefined ? '\u0000none' : `=${text}`).digest('hex').slice(0, 16);
  return { question: digest(problem.question), answer: digest(problem.answer) };
}

/** What of `own` differs from `shown` under the same id: `question`, `reference answer`; empty when it is the same problem. */
export function problemDifferences(shown: ProblemIdentity, own: ProblemIdentity): string[] {
  const differs: string[] = [];
  if (own.question !== shown.question) differs.push('question');
  if ((own.answer ?? null) !== (shown.answer ?? null)) differs.push('reference answer');
  return differs;
}
