/** The `verify-refine` strategy: DeepSeek-Math-V2's verify-refine over a pool of rated proofs. */
import type { Strategy } from '../../contract.ts';
import { createProgramMachine } from '../../program.machine.ts';
import { REFINE_PROOFS_FLAG, verifyRefineProgram } from './verify-refine.program.ts';
import { proverMachine, proverRole, raterMachine, raterRole } from './verify-refine.roles.ts';

/** Verify-Refine (DeepSeek-Math-V2) as a strategy. */
export const verifyRefineStrategy: Strategy = {
  name: 'verify-refine',
  description: 'Verify-Refine (DeepSeek-Math-V2): N self-evaluated proofs a round, M ratings (0, 0.5, 1) each, pooled over all rounds; the best-scored are refined; stops once a proof scores 1',
  roles: { prover: proverMachine, rater: raterMachine },
  definitions: { prover: proverRole, rater: raterRole },
  loopSettings: ['nCandidates', 'nVerifications', 'maxIterations'],
  problem: createProgramMachine(verifyRefineProgram),
  flags: [REFINE_PROOFS_FLAG],
  // Rounds end early once a proof scores 1, and only proofs that parse are rated: no count is fixed in advance.
  expectedCalls: () => ({}),
  // Every round run and every proof rated: N proofs and N x M ratings a round.
  callBounds: ({ nCandidates, nVerifications, maxIterations }) => ({ prover: nCandidates * maxIterations, rater: nCandidates * nVerifications * maxIterations }),
  sim: { prover: 'self-evaluated', rater: 'rating' },
  stages: { prover: 0, rater: 1 },
  // deepseek-ai/DeepSeek-Math-V2 inference/main.py: temperature 1.0 (--proof_gen_temp, --proof_verification_temp), top_p 0.95.
  sampling: { temperature: 1.0, topP: 0.95 },
};
