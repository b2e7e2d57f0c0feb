/**
 * The Verification agent: checks one candidate and ends with `SCORE: s`,
 * s in [0, 1]. A reply without a parseable score gives `score: null`, never a
 * silent zero.
 */
import { callInfo, parseScore, replyBase, statedText, unusableBecause } from '../reply.ts';
import { COMMON_VARIABLES, PROBLEM_BLOCK, SOLUTION_BLOCK, solutionValues } from '../role-template.ts';
import { createRoleMachine, passesPerCandidate } from '../role.machine.ts';
import { templateRole } from '../template-role.ts';

/** Verification calls are indexed candidate × this + verification: unique within an iteration as long as M < 10,000. */
export const VERIFICATION_INDEX_STRIDE = 10_000;

/** The Verification agent's definition. */
export const verificationRole = templateRole('verification', {
  kind: 'grade',
  index: (request) => request.candidate * VERIFICATION_INDEX_STRIDE + request.index,
  subject: passesPerCandidate(VERIFICATION_INDEX_STRIDE, (pass) => `verification ${pass}`),
  /** The Verification agent's user message: the problem, the candidate, and how to score it. */
  template: {
    source: `${PROBLEM_BLOCK}

${SOLUTION_BLOCK}

Check every step of the {{ 'proof' if proof else 'solution' }} above. Point out errors, gaps and unjustified claims. \
Then, on the last line, write "SCORE: s" where s is a number in [0, 1]: 1 means fully correct, 0 means wrong.`,
    variables: COMMON_VARIABLES,
    system: (_, options) => {
      const what = options.proof ? 'proof' : 'solution';
      return 'You are the Verification agent of a team that solves hard mathematics problems. ' + `You check a candidate ${what} step by step and judge whether it is correct and complete.`;
    },
    values: solutionValues,
  },
  reply: (request, output) => ({
    type: 'verification.completed',
    ...replyBase(request),
    candidate: request.candidate,
    index: request.index,
    score: parseScore(statedText(output)),
    analysis: output.content,
    call: callInfo(output),
  }),
  validate: (_, output) => unusableBecause(parseScore(statedText(output)) === null ? 'no parseable "SCORE: s" line with s in [0, 1] (or on a scale it names, 7/10)' : null, output),
});

/** Builds the verification prompt for one check of a candidate. */
export const verificationPrompt = verificationRole.prompt;

/** The Verification agent's actor definition. */
export const verificationMachine = createRoleMachine(verificationRole);
