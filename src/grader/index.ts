/**
 * The answer grader: extraction of a final answer from a model response,
 * equivalence of a predicted answer with the reference, and the canonical
 * form used for majority voting.
 */
export { askedAnswer } from './asked-answer.ts';
export { askedForm } from './asked-form.ts';
export { afterReasoning, extractAnswer, finalAnswers, statedAnswer } from './extract/extract.ts';
export { extractFinalMath } from './extract/final-math.ts';
export { givesSeveralAnswers, gradeAnswer, normalizeAnswer } from './grade.ts';
export { preloadMathjs } from './math/mathjs-env.ts';
export type { Grade, GradeContext, GradeOptions, Verdict } from './parse/types.ts';
