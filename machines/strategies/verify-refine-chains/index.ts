/** The `verify-refine-chains` strategy: N independent chains, each candidate verified, then refined using its own verifications (the `verify-refine` of tmas before it followed DeepSeek-Math-V2). */
import { solutionMachine, solutionRole } from '../tmas/solution.role.ts';
import type { Strategy } from '../../contract.ts';
import { verificationMachine, verificationRole } from '../../roles/verification.role.ts';
import { createProgramMachine } from '../../program.machine.ts';
import { refineMachine, refineRole } from './refine.role.ts';
import { verifyRefineChainsProgram } from './verify-refine-chains.program.ts';

/** Verify-Refine in independent chains as a strategy. */
export const verifyRefineChainsStrategy: Strategy = {
  name: 'verify-refine-chains',
  description: 'Verify-Refine in N independent chains: M verifications per candidate; each iteration refines every candidate using its own verifications',
  roles: { solution: solutionMachine, verification: verificationMachine, refine: refineMachine },
  definitions: { solution: solutionRole, verification: verificationRole, refine: refineRole },
  loopSettings: ['nCandidates', 'nVerifications', 'maxIterations'],
  problem: createProgramMachine(verifyRefineChainsProgram),
  // A program restarts at iteration 0 on resume (the journal answers what completed).
  expectedCalls: ({ nCandidates, nVerifications, maxIterations }) => ({
    solution: nCandidates,
    verification: nCandidates * nVerifications * maxIterations,
    refine: nCandidates * (maxIterations - 1),
  }),
  sim: { solution: 'solution', verification: 'verification', refine: 'revision' },
  stages: { solution: 0, refine: 0, verification: 1 },
};
