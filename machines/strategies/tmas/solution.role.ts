/**
 * The Solution agent: writes one candidate. Its prompt depends on the
 * candidate's source (docs/concepts/tmas-loop.md): `normal` sees the problem alone
 * (every baseline asks it so, and reuses this role),
 * `experience` (exploit) sees R(t-1) and E(t-1), `guideline` (explore) sees
 * G(t-1) and is asked for a strategy none of them used.
 */
import { extractAnswer } from '../../../src/grader/index.ts';
import { answerFields, callInfo, replyBase } from '../../reply.ts';
import { COMMON_VARIABLES, PROBLEM_BLOCK, problemValues } from '../../role-template.ts';
import { createRoleMachine, type RoleOptions } from '../../role.machine.ts';
import { onePerCandidate, templateRole } from '../../template-role.ts';
import { CONTEXT_VARIABLES, EXPERIENCE_BLOCK, experienceValues, GUIDELINES_BLOCK, guidelineValues, ROLLOUTS_BLOCK, rolloutValues } from './tmas-context.ts';

function system(options: RoleOptions): string {
  return options.proof
    ? 'You are the Solution agent of a team that solves hard mathematics problems. ' +
        'Write a complete and rigorous proof: justify every step. State the final result in \\boxed{} on the last line.'
    : 'You are the Solution agent of a team that solves hard mathematics problems. ' +
        'Reason step by step and check your work. Put the final answer, and only the final answer, in \\boxed{} on the last line.';
}

/** The Solution agent's definition. */
export const solutionRole = templateRole('solution', {
  kind: 'solution',
  ...onePerCandidate('solution'),
  /** The Solution agent's user message: the problem alone, or with R(t-1) and E(t-1) (exploit), or with G(t-1) (explore). */
  template: {
    source: `${PROBLEM_BLOCK}

{% if source == 'experience' %}
${ROLLOUTS_BLOCK}

${EXPERIENCE_BLOCK}

Above are the previous attempts at this problem, each with its final answer, the summary of its verifications and its score, \
and an experience bank of reliable intermediate conclusions and known pitfalls. \
Build on the reliable conclusions, avoid the pitfalls, and write an improved, complete solution.
{%- elif source == 'guideline' %}
${GUIDELINES_BLOCK}

Above are the high-level strategies already tried on this problem and how each fared. \
Solve the problem with a strategy that differs from all of them. Name it on the first line as "Strategy: ...".
{%- else %}
Solve the problem above.
{%- endif %}`,
    variables: {
      problem: COMMON_VARIABLES.problem,
      proof: COMMON_VARIABLES.proof,
      source: {
        shape: { oneOf: ['normal', 'experience', 'guideline'] },
        about: "the candidate's source: 'normal' (iteration 0 and baselines: the problem alone), 'experience' (exploit: with rollouts and experience), 'guideline' (explore: with guidelines)",
      },
      rollouts: { ...CONTEXT_VARIABLES.rollouts, about: `${CONTEXT_VARIABLES.rollouts.about}; empty unless source is 'experience'` },
      experience: { ...CONTEXT_VARIABLES.experience, about: `${CONTEXT_VARIABLES.experience.about}; empty unless source is 'experience'` },
      guidelines: { ...CONTEXT_VARIABLES.guidelines, about: `${CONTEXT_VARIABLES.guidelines.about}; empty unless source is 'guideline'` },
    },
    system: (_, options) => system(options),
    values: (request, options) => {
      const rollouts = rolloutValues(request.rollouts);
      const experience = experienceValues(request.experience);
      const guidelines = guidelineValues(request.guidelines);
      return {
        variables: problemValues(request, options, { source: request.source, rollouts: rollouts.values, experience: experience.values, guidelines: guidelines.values }),
        drops: [...rollouts.drops, ...experience.drops, ...guidelines.drops],
      };
    },
  },
  reply: (request, output, options) => ({
    type: 'solution.completed',
    ...replyBase(request),
    candidate: request.candidate,
    source: request.source,
    text: output.content,
    ...answerFields(extractAnswer(output.content), output, options.proof),
    call: callInfo(output),
  }),
});

/** Builds the solution prompt for a candidate. */
export const solutionPrompt = solutionRole.prompt;

/** The Solution agent's actor definition. */
export const solutionMachine = createRoleMachine(solutionRole);
