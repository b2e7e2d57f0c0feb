/** The `self-refine` strategy: each candidate critiques and rewrites its own solution every iteration, until its critique finds no error. */
import { solutionMachine, solutionRole } from '../tmas/solution.role.ts';
import type { Strategy } from '../../contract.ts';
import { createProgramMachine } from '../../program.machine.ts';
import { critiqueMachine, critiqueRole, rewriteMachine, rewriteRole } from './self-refine.roles.ts';
import { selfRefineProgram } from './self-refine.program.ts';

/** Self-Refine as a strategy. */
export const selfRefineStrategy: Strategy = {
  name: 'self-refine',
  description: 'Self-Refine: N candidates; each iteration every candidate critiques, then rewrites, its own solution, until its critique finds no error',
  roles: { solution: solutionMachine, critique: critiqueMachine, rewrite: rewriteMachine },
  definitions: { solution: solutionRole, critique: critiqueRole, rewrite: rewriteRole },
  loopSettings: ['nCandidates', 'maxIterations'],
  problem: createProgramMachine(selfRefineProgram),
  // A program restarts at iteration 0 on resume (the journal answers what completed). Critiques and
  // rewrites stop once a candidate's critique finds no error, so their counts depend on the replies.
  expectedCalls: ({ nCandidates }) => ({ solution: nCandidates }),
  // At most one critique and one rewrite per candidate in each iteration after the first.
  callBounds: ({ nCandidates, maxIterations }) => ({ critique: nCandidates * Math.max(0, maxIterations - 1), rewrite: nCandidates * Math.max(0, maxIterations - 1) }),
  sim: { solution: 'solution', critique: 'critique', rewrite: 'revision' },
  // A candidate's critique, then its rewrite; a solution is its iteration's last call, like a rewrite.
  stages: { critique: 0, rewrite: 1, solution: 1 },
};
