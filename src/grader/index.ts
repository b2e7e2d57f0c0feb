/**
 * The answer grader: extraction of a final answer from a model response,
 * equivalence of a predicted answer with the reference, and the canonical
 * form used for majority voting.
 */
export { extractAnswer, extractFinalMath, statedAnswer } from './extract.ts';
export { gradeAnswer, normalizeAnswer } from './grade.ts';
export { preloadMathjs } from './mathjs-env.ts';
export type { Grade, GradeOptions, Verdict } from './types.ts';
