/**
 * A strategy: a named set of role actor definitions plus the problem machine
 * that wires them. The runtime provides the side effects (`llm`, `post`,
 * `dedupBanks`, `saveIteration`) to whatever machines a strategy names, so a
 * strategy never reaches past the message protocol.
 */
import type { AnyStateMachine } from 'xstate';
import { experienceMachine } from './experience.role.ts';
import { guidelineMachine } from './guideline.role.ts';
import { problemMachine } from './problem.machine.ts';
import { solutionMachine } from './solution.role.ts';
import { summaryMachine } from './summary.role.ts';
import { verificationMachine } from './verification.role.ts';

/** A method the runtime can run. */
export interface Strategy {
  name: string;
  description: string;
  /** Role actors by role name; each receives `<name>.requested` messages. */
  roles: Record<string, AnyStateMachine>;
  /** The per-problem loop. Takes `ProblemInput` and ends with `problem.completed`. */
  problem: AnyStateMachine;
}

/** TMAS, the reference method (DESIGN.md section 1). */
export const tmasStrategy: Strategy = {
  name: 'tmas',
  description: 'TMAS: solution, verification, summary, experience and guideline agents with two evolving banks',
  roles: {
    solution: solutionMachine,
    verification: verificationMachine,
    summary: summaryMachine,
    experience: experienceMachine,
    guideline: guidelineMachine,
  },
  problem: problemMachine,
};

/** Every built-in strategy, by name. */
export const STRATEGIES: Record<string, Strategy> = {
  tmas: tmasStrategy,
};
