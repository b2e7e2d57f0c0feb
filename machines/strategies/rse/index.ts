/** The `rse` strategy (Recycling Search Experience): rollouts distilled into a per-problem experience bank that the next rollouts see. */
import type { Strategy } from '../../contract.ts';
import { createProgramMachine } from '../../program.machine.ts';
import { distillMachine, distillRole, rolloutMachine, rolloutRole } from './rse.roles.ts';
import { rseProgram } from './rse.program.ts';

/** RSE as a strategy. */
export const rseStrategy: Strategy = {
  name: 'rse',
  description: 'RSE: N rollouts per iteration, each distilled (strict JSON) into verified propositions and pitfalls merged into a deduplicated bank in the next rollouts\' system prompt',
  roles: { rollout: rolloutMachine, distill: distillMachine },
  definitions: { rollout: rolloutRole, distill: distillRole },
  problem: createProgramMachine(rseProgram),
  // A program restarts at iteration 0 on resume (the journal answers what completed); distillations are retried on invalid output, so their count varies.
  expectedCalls: (settings) => ({ rollout: settings.nCandidates * settings.maxIterations }),
  sim: { rollout: 'rse-rollout', distill: 'rse-distill' },
};
