/**
 * The rule-based grade of a candidate, the same for its result line
 * (candidates.ts) and for `--judge-when unsure` (judging.ts): its extracted
 * answer against the reference, read with the problem's question (a form it
 * asks for) and the candidate's own response (several final answers in it),
 * so that the rule says `unsure` where only a reader can decide.
 */
import { askedAnswer, gradeAnswer, type Grade } from '../src/grader/index.ts';

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

/**
 * The answer a candidate's result line shows and a vote counts: the reading of its response the rule grades
 * (asked-answer.ts), so that the answer shown, the answer voted on and the answer graded are one. The methods' own
 * prompts keep the extracted answer: what is sent to the model does not change with it.
 */
export function ruleAnswer(candidate: RuleGraded, question: string): string | null {
  return askedAnswer(candidate.answer, { question, ...(candidate.text === null ? {} : { response: candidate.text }) });
}

/**
 * A candidate's grade against `reference` (null without one, or without an answer) and the answer its result line
 * shows, from one reading of its response: the grade's own (Grade.answer), where the line read it a second time.
 */
export function ruleResult(candidate: RuleGraded, reference: string | undefined, question: string): { grade: Grade | null; answer: string | null } {
  const grade = reference === undefined ? null : ruleGrade(candidate, reference, question);
  return { grade, answer: grade === null ? ruleAnswer(candidate, question) : grade.answer };
}
