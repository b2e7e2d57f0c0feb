/** The `verify-refine` strategy: each candidate is verified, then refined using the verification. */
import { solutionMachine, solutionRole } from '../../roles/solution.role.ts';
import type { Strategy } from '../../contract.ts';
import { verificationMachine, verificationRole } from '../../roles/verification.role.ts';
import { createProgramMachine } from '../../program.machine.ts';
import { refineMachine, refineRole } from './refine.role.ts';
import { verifyRefineProgram } from './verify-refine.program.ts';

/** Verify-Refine as a strategy. */
export const verifyRefineStrategy: Strategy = {
  name: 'verify-refine',
  description: 'Verify-Refine (V-R): N candidates, M verifications each; each iteration refines every candidate using its verifications',
  roles: { solution: solutionMachine, verification: verificationMachine, refine: refineMachine },
  definitions: { solution: solutionRole, verification: verificationRole, refine: refineRole },
  problem: createProgramMachine(verifyRefineProgram),
  // A program restarts at iteration 0 on resume (the journal answers what completed).
  expectedCalls: ({ nCandidates, nVerifications, maxIterations }) => ({
    solution: nCandidates,
    verification: nCandidates * nVerifications * maxIterations,
    refine: nCandidates * (maxIterations - 1),
  }),
  sim: { solution: 'solution', verification: 'verification', refine: 'revision' },
};
