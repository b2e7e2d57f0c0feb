/** TMAS, the reference method (docs/concepts/tmas-loop.md). */
import { SHARED_LOOP_SETTINGS, type Strategy } from '../../contract.ts';
import { judgeMachine, judgeRole } from '../../roles/judge.role.ts';
import { solutionMachine, solutionRole } from './solution.role.ts';
import { summaryMachine, summaryRole } from '../../roles/summary.role.ts';
import { verificationMachine, verificationRole } from '../../roles/verification.role.ts';
import { experienceMachine, experienceRole } from './experience.role.ts';
import { guidelineMachine, guidelineRole } from './guideline.role.ts';
import { createProgramMachine } from '../../program.machine.ts';
import { tmasProgram } from './tmas.program.ts';

/** TMAS as a strategy. */
export const tmasStrategy: Strategy = {
  name: 'tmas',
  description: 'TMAS: solution, verification, summary, experience and guideline agents with two evolving banks',
  roles: {
    solution: solutionMachine,
    verification: verificationMachine,
    summary: summaryMachine,
    experience: experienceMachine,
    guideline: guidelineMachine,
    judge: judgeMachine,
  },
  loopSettings: SHARED_LOOP_SETTINGS,
  problem: createProgramMachine(tmasProgram),
  definitions: { solution: solutionRole, verification: verificationRole, summary: summaryRole, experience: experienceRole, guideline: guidelineRole, judge: judgeRole },
  // A resumed problem picks up after its last completed iteration.
  expectedCalls: (settings, span) => {
    const iterations = Math.max(0, settings.maxIterations - span.from);
    const n = settings.nCandidates;
    const judgePasses = span.judged ? (settings.judgePasses ?? 0) : 0;
    return {
      solution: iterations * n,
      verification: iterations * n * settings.nVerifications,
      summary: iterations * n,
      experience: iterations,
      guideline: iterations,
      ...(judgePasses > 0 ? { judge: iterations * n * judgePasses } : {}),
    };
  },
  sim: { solution: 'solution', verification: 'verification', summary: 'summary', experience: 'experience', guideline: 'guideline', judge: 'judge' },
  stages: { solution: 0, verification: 1, summary: 2, experience: 3, guideline: 3 },
};
