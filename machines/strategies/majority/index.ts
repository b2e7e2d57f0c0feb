/** The `majority` strategy (MV@k): k independent samples and a majority vote. */
import { solutionMachine, solutionRole } from '../tmas/solution.role.ts';
import type { Strategy } from '../../contract.ts';
import { createProgramMachine } from '../../program.machine.ts';
import { majorityProgram, SAMPLES_FLAG, samplesOf, VOTE_POOL_FLAG } from './majority.program.ts';

/** MV@k as a strategy. */
export const majorityStrategy: Strategy = {
  name: 'majority',
  description: 'MV@k: k independent samples (--samples, default 64), or a pool of n ≥ k (--vote-pool), majority vote; iteration t holds the first n·(t+1)/T samples',
  roles: { solution: solutionMachine },
  definitions: { solution: solutionRole },
  loopSettings: ['maxIterations'],
  problem: createProgramMachine(majorityProgram),
  flags: [SAMPLES_FLAG, VOTE_POOL_FLAG],
  checkOptions: (options) => {
    const [k, pool] = [Number(options.samples), Number(options.votePool)];
    return pool > 0 && pool < k ? `--vote-pool ${pool} is below --samples ${k}: the pool the votes of k are drawn from holds at least k samples. Give at least ${k}, or 0 for one vote over the k samples.` : null;
  },
  // Every sample is requested in iteration 0, also on resume (the journal answers those that completed).
  expectedCalls: (settings) => ({ solution: samplesOf(settings) }),
  upFront: true,
  sim: { solution: 'solution' },
};
