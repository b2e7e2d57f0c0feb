/**
 * The rule-based grade of a candidate, the same for its result line
 * (candidates.ts) and for `--judge-when unsure` (judging.ts): its extracted
 * answer against the reference, read with the problem's question (a form it
 * asks for) and the candidate's own response (several final answers in it),
 * so that the rule says `unsure` where only a reader can decide.
 */
import { gradeAnswer, type Grade } from '../src/grader/index.ts';

/** What the rule reads of a candidate. */
export interface RuleGraded {
  answer: string | null;
  text: string | null;
}

/** The rule's grade of a candidate against `reference`, or null when it extracted no answer. */
export function ruleGrade(candidate: RuleGraded, reference: string, question: string): Grade | null {
  if (candidate.answer === null) return null;
  return gradeAnswer(candidate.answer, reference, undefined, { question, ...(candidate.text === null ? {} : { response: candidate.text }) });
}
