/** The `rse` strategy (Recycling Search Experience): rollouts distilled into a per-problem experience bank, deduplicated and uncapped, that the next rollouts see. */
import type { Strategy } from '../../contract.ts';
import { createProgramMachine } from '../../program.machine.ts';
import { distillMachine, distillRole, MAX_DISTILL_ATTEMPTS, rolloutMachine, rolloutRole } from './rse.roles.ts';
import { RSE_BANK_MAX_RECORDS, rseProgram } from './rse.program.ts';

/** RSE as a strategy. */
export const rseStrategy: Strategy = {
  name: 'rse',
  description: "RSE: N rollouts per iteration, each distilled (JSON, up to 6 attempts) into verified propositions and critical pitfalls, merged into a deduplicated, uncapped bank that the next rollouts' system prompt shows as pitfalls to avoid and hypotheses to verify",
  roles: { rollout: rolloutMachine, distill: distillMachine },
  definitions: { rollout: rolloutRole, distill: distillRole },
  loopSettings: ['nCandidates', 'maxIterations', 'jaccardThreshold'],
  problem: createProgramMachine(rseProgram),
  // A program restarts at iteration 0 on resume (the journal answers what completed); distillations are retried on invalid output, so their count varies.
  expectedCalls: (settings) => ({ rollout: settings.nCandidates * settings.maxIterations }),
  // The most: every rollout distilled, each asked again until the sixth attempt (only invalid JSON is asked again; an empty rollout is not distilled).
  callBounds: ({ nCandidates, maxIterations }) => ({ distill: nCandidates * maxIterations * MAX_DISTILL_ATTEMPTS }),
  sim: { rollout: 'rse-rollout', distill: 'rse-distill' },
  stages: { rollout: 0, distill: 1 },
  // WangXinglin/RSE scripts/run.sh: TEMPERATURE=0.6, TOP_P=0.95, TOP_K=20, MAX_TOKENS=38912 for every step.
  sampling: { temperature: 0.6, topP: 0.95, topK: 20 },
  completionMaxTokens: 38_912,
  bankMaxRecords: RSE_BANK_MAX_RECORDS,
};
