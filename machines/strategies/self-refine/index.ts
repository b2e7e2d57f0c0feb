/** The `self-refine` strategy: each candidate critiques and rewrites its own solution every iteration. */
import { solutionMachine, solutionRole } from '../../roles/solution.role.ts';
import type { Strategy } from '../../contract.ts';
import { createProgramMachine } from '../../program.machine.ts';
import { critiqueMachine, critiqueRole, rewriteMachine, rewriteRole } from './self-refine.roles.ts';
import { selfRefineProgram } from './self-refine.program.ts';

/** Self-Refine as a strategy. */
export const selfRefineStrategy: Strategy = {
  name: 'self-refine',
  description: 'Self-Refine: N candidates; each iteration every candidate critiques, then rewrites, its own solution',
  roles: { solution: solutionMachine, critique: critiqueMachine, rewrite: rewriteMachine },
  definitions: { solution: solutionRole, critique: critiqueRole, rewrite: rewriteRole },
  problem: createProgramMachine(selfRefineProgram),
  // A program restarts at iteration 0 on resume (the journal answers what completed).
  expectedCalls: ({ nCandidates, maxIterations }) => ({
    solution: nCandidates,
    critique: nCandidates * (maxIterations - 1),
    rewrite: nCandidates * (maxIterations - 1),
  }),
  sim: { solution: 'solution', critique: 'verification', rewrite: 'revision' },
  // A candidate's critique, then its rewrite; a solution is its iteration's last call, like a rewrite.
  stages: { critique: 0, rewrite: 1, solution: 1 },
};
