/**
 * The roles of `verify-refine`, after DeepSeek-Math-V2's inference
 * (deepseek-ai/DeepSeek-Math-V2, inference/math_templates.py): the Prover
 * writes a proof followed by its own evaluation of it (`## Solution`, then
 * `## Self Evaluation` ending in a \boxed{} score), either from scratch or by
 * refining one earlier proof shown with its ratings; the Rater scores a proof
 * 0, 0.5 or 1 against the same rubric. The instructions are upstream's,
 * restated in our words; the section headings and the boxed scores are kept
 * because upstream's parsing reads them.
 */
import { extractAnswer } from '../../../src/grader/index.ts';
import { lastBoxedAnswer } from '../../../src/grader/extract/boxes.ts';
import { COMMON_VARIABLES, PROBLEM_BLOCK, problemValues, SOLUTION_BLOCK } from '../../role-template.ts';
import { callInfo, cutOff, emptyReply, replyBase, unusableIf } from '../../reply.ts';
import type { LlmOutput } from '../../llm.ts';
import { NO_FINAL_ANSWER } from '../../../src/kernel/answerless-reason.ts';
import { createRoleMachine, passesPerCandidate } from '../../role.machine.ts';
import { onePerCandidate, templateRole } from '../../template-role.ts';
import { roleLine } from '../../kit.ts';

/** Ratings of one proof per candidate at most: index = candidate × this + rating. */
export const RATER_INDEX_STRIDE = 10_000;

/** The scoring rubric the Prover is told it will be rated by and the Rater applies. */
const RUBRIC = [
  'A solution is rated as follows. The problem may ask for a proof or for an answer; when an answer is asked for, the solution must give it and also prove rigorously that it is right.',
  '- Score 1: completely correct, every step carried out properly and shown clearly.',
  '- Score 0.5: correct in substance, with some details left out or minor errors.',
  '- Score 0: does not address the problem, contains a fatal error, or leaves out something essential.',
  'Citing a result from a paper does not replace proving it: unless the solution also proves the cited result correctly, rate it by the criteria above, and never 1.',
].join('\n');

/** The Prover's task (upstream's proof_generation template, in our words). */
const PROVER_TASK = [
  'Solve the problem above. Your final solution must be thorough and easy to follow: it will be rated by this rubric.',
  RUBRIC,
  'You can rate a solution yourself: reason about the problem, evaluate your approach by the rubric, and improve the solution by fixing what you find, until you can improve it no further.',
  'Your final response presents your best solution and then an honest evaluation of it. Look hard for issues in your own solution and fix as many as you can; if some remain that you cannot resolve, say so plainly. Give yourself 1 only if you find no issue at all: a wrong solution presented as correct is the worst possible response.',
  'Answer in exactly this format:',
  '## Solution',
  // What the Solution section ends with.
  '(your complete solution; {% if proof %}End the Solution section with the final result in \\boxed{} on its last line.{% else %}End the Solution section with the final answer, and only the final answer, in \\boxed{} on its last line.{% endif %})',
  '## Self Evaluation',
  'Here is my evaluation of the solution: (go through the key steps and the ones you doubted; for each, say why it is right or what is wrong and what that breaks)',
  'Based on my evaluation, the final overall score should be: \\boxed{s}, s being 0, 0.5 or 1, given only after re-examining the solution.',
].join('\n');

/** Upstream's normalisation of the two headings (bold or spaced variants become `## Solution` / `## Self Evaluation`). */
function normalized(text: string): string {
  return `\n${text.trim()}`
    .replace(/\n\s*\*+\s*Solution\s*\*+\s*\n/g, '\n## Solution\n')
    .replace(/\n\s*\*+\s*Self Evaluation\s*\*+\s*\n/g, '\n## Self Evaluation\n')
    .replace(/\n## Solution[ \t]*\n/g, '\n## Solution\n')
    .replace(/\n## Self Evaluation[ \t]*\n/g, '\n## Self Evaluation\n');
}

/** The two sections of a Prover reply, read after its last `</think>` as upstream's extract_solution does; null when one is missing or they are out of order. */
function proverSections(content: string): { proof: string; evaluation: string } | null {
  const text = normalized(content.split('</think>').at(-1) ?? content);
  const evaluation = text.indexOf('\n## Self Evaluation\n');
  const start = text.indexOf('\n## Solution\n');
  if (evaluation < 0 || start < 0 || start > evaluation) return null;
  return { proof: text.slice(start + '\n## Solution\n'.length, evaluation).trim(), evaluation: text.slice(evaluation) };
}

/**
 * A boxed score on the scale asked (0, 0.5 or 1), or null. Upstream keeps any
 * number, for its own model, which answers on that scale; a reasoning model
 * that grades out of 10 (`\boxed{8}`) then outranked every proof scored 1
 * (a mean of 8 among 0s and 1s), picked as best-verified and refined first, a
 * reading of its verdict no rater gave: a number outside [0, 1] is no score.
 */
function scaledScore(boxed: string | undefined): number | null {
  const score = boxed === undefined || boxed === '' ? Number.NaN : Number(boxed);
  return Number.isFinite(score) && score >= 0 && score <= 1 ? score : null;
}

/** The self-evaluation's score: its last \boxed{}, when that is a number in [0, 1] (upstream's extract_self_eval); null when unreadable. */
function selfScoreOf(evaluation: string): number | null {
  return scaledScore(lastBoxedAnswer(evaluation)?.trim());
}

/**
 * The proof and the self-evaluation score of a Prover reply, read after its
 * last `</think>`, as upstream's extract_solution / extract_self_eval do; null
 * when a section is missing; an unreadable score is 0, as upstream reads it.
 */
export function parseProverReply(content: string): { proof: string; selfScore: number } | null {
  const sections = proverSections(content);
  return sections === null ? null : { proof: sections.proof, selfScore: selfScoreOf(sections.evaluation) ?? 0 };
}

/**
 * Why a Prover reply is unusable, or null: cut off (upstream verifies only
 * finished proofs), without its two sections, with no readable score in its
 * self-evaluation (upstream then reads 0), or, with short answers, a Solution
 * section that states no final answer.
 */
function proverUnusable(output: LlmOutput, sections: { proof: string; evaluation: string } | null, answer: string | null, proof: boolean): string | null {
  const empty = emptyReply(output);
  if (empty !== null) return empty;
  const cut = cutOff(output);
  if (cut !== null) return `the proof was ${cut}`;
  if (sections === null) return 'no "## Solution" section followed by a "## Self Evaluation" section';
  if (selfScoreOf(sections.evaluation) === null) return 'no \\boxed{} score in [0, 1] in the self-evaluation';
  return !proof && answer === null ? `${NO_FINAL_ANSWER} in the Solution section` : null;
}

/** The Prover's definition. */
export const proverRole = templateRole('prover', {
  kind: 'solution',
  endpoint: 'solution',
  ...onePerCandidate('prover'),
  /** The Prover's user message: the problem, the proof to refine with its ratings (if any, as upstream lays it out: "Solution 0" and its numbered evaluations), the task. */
  template: {
    source: `${PROBLEM_BLOCK}

{% if refine is not none %}
## Candidate solution to refine
Here is an earlier solution with evaluations of it. Write a better solution by resolving the issues the evaluations raise, by reusing its promising ideas, or both.
--- Solution 0 ---
<solution>
{{ refine.solution }}
</solution>
{% for rating in refine.ratings %}

=== Evaluation {{ loop.index0 }} of Solution 0 ===
{{ rating }}
{% endfor %}

{% endif %}
${PROVER_TASK}
{%- if refine is not none %}

Your response must follow this format: a "## Solution" section, then a "## Self Evaluation" section.
{%- endif %}`,
    variables: {
      problem: COMMON_VARIABLES.problem,
      proof: COMMON_VARIABLES.proof,
      refine: {
        shape: { orNone: { fields: { solution: 'string', ratings: { listOf: 'string' } } } },
        about: 'the earlier proof to refine, with the ratings of it; none for a proof from scratch',
      },
    },
    system: () => roleLine('Prover', 'You write rigorous solutions and evaluate them honestly.'),
    values: (request, options) => ({
      variables: problemValues(request, options, { refine: request.refine === null ? null : { solution: request.refine.proof, ratings: request.refine.ratings } }),
    }),
  },
  reply: (request, output, options) => {
    // Upstream verifies only proofs that finished (finish_reason "stop") and whose sections parse.
    const sections = cutOff(output) === null ? proverSections(output.content) : null;
    // The self-evaluation ends in a boxed score: the answer is the Solution section's. A reply without the
    // sections is not rated, but its final answer is graded as every method's is (the judge reads it whole).
    const answer = cutOff(output) !== null ? null : extractAnswer(sections?.proof ?? output.content);
    return {
      type: 'prover.completed',
      ...replyBase(request),
      candidate: request.candidate,
      text: sections?.proof ?? output.content,
      proof: sections?.proof ?? null,
      selfScore: sections === null ? 0 : (selfScoreOf(sections.evaluation) ?? 0),
      answer,
      ...unusableIf(proverUnusable(output, sections, answer, options.proof)),
      call: callInfo(output),
    };
  },
});

/** A rating's score: the last \boxed{} after the last `</think>`, when it is a number in [0, 1] (upstream keeps any number: scaledScore says why not here). */
export function parseRating(content: string): { score: number | null; rating: string } {
  const rating = (content.split('</think>').at(-1) ?? content).trim();
  return { score: scaledScore(lastBoxedAnswer(rating)?.trim()), rating };
}

/** The Rater's definition. */
export const raterRole = templateRole('rater', {
  kind: 'grade',
  endpoint: 'verification',
  index: (request) => request.candidate * RATER_INDEX_STRIDE + request.index,
  subject: passesPerCandidate(RATER_INDEX_STRIDE, (rating) => `rating ${rating}`),
  /** The Rater's user message (upstream's proof_verification template, in our words). */
  template: {
    source: `${PROBLEM_BLOCK}

${SOLUTION_BLOCK}

${[
  'Evaluate the solution above and score it.',
  RUBRIC,
  'Reason carefully about the quality of the solution. Answer in this format:',
  'Here is my evaluation of the solution: (go through the key steps and the ones you doubted; for a correct step, say why you doubted it and why it holds; for a wrong one, say what is wrong and what it breaks)',
  'Based on my evaluation, the final overall score should be: \\boxed{s}, s being 0, 0.5 or 1 and nothing else.',
].join('\n')}`,
    variables: { ...COMMON_VARIABLES, solution: { shape: 'string', about: 'the proof to rate' } },
    system: () => roleLine('Rater', 'You evaluate the quality of a solution to a problem.'),
    values: (request, options) => ({ variables: problemValues(request, options, { solution: request.proof }) }),
  },
  reply: (request, output) => {
    // A rating cut off at the limit is not read, as upstream reads only finished ones.
    const cut = cutOff(output);
    const parsed = cut === null ? parseRating(output.content) : { score: null, rating: output.content };
    const unusable = parsed.score !== null ? null : cut === null ? 'no \\boxed{} score (0, 0.5 or 1; a number outside [0, 1] is none)' : `the rating was ${cut}`;
    return { type: 'rater.completed', ...replyBase(request), candidate: request.candidate, index: request.index, ...parsed, ...unusableIf(unusable), call: callInfo(output) };
  },
});

/** The Prover's actor definition. */
export const proverMachine = createRoleMachine(proverRole);
/** The Rater's actor definition. */
export const raterMachine = createRoleMachine(raterRole);
