/** The `pacore` strategy: PaCoRe's parallel coordinated reasoning, one round per iteration. */
import type { Strategy } from '../../contract.ts';
import { createProgramMachine } from '../../program.machine.ts';
import { pacoreProgram, ROUND_WIDTHS_FLAG, widthOf } from './pacore.program.ts';
import { synthesisMachine, synthesisRole } from './synthesis.role.ts';

/** PaCoRe as a strategy. */
export const pacoreStrategy: Strategy = {
  name: 'pacore',
  description: "PaCoRe: K_t responses in round t (default upstream's 4, then 1); each later round answers again with the previous round's responses (after their last </think>) as references",
  roles: { synthesis: synthesisMachine },
  definitions: { synthesis: synthesisRole },
  // N is read only when --round-widths is empty; else the header shows the widths.
  loopSettings: ['maxIterations'],
  alsoReads: (options) => (String(options.roundWidths ?? ROUND_WIDTHS_FLAG.default).trim() === '' ? ['nCandidates'] : []),
  problem: createProgramMachine(pacoreProgram),
  flags: [ROUND_WIDTHS_FLAG],
  // A program restarts at round 0 on resume (the journal answers what completed).
  expectedCalls: (settings) => ({ synthesis: Array.from({ length: settings.maxIterations }, (_, round) => widthOf(settings, round)).reduce((a, b) => a + b, 0) }),
  sim: { synthesis: 'synthesis' },
  // stepfun-ai/PaCoRe and its paper: temperature 1.0, top_p 1.0.
  sampling: { temperature: 1.0, topP: 1.0 },
};
