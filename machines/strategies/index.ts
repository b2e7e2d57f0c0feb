/**
 * A strategy: a named set of role actor definitions plus the problem machine
 * that wires them. The runtime provides the side effects (`llm`, `post`,
 * `dedupBanks`, `saveIteration`) to whatever machines a strategy names, so a
 * strategy never reaches past the message protocol.
 */
import type { AnyStateMachine } from 'xstate';
import { experienceMachine, experienceRole } from './tmas/experience.role.ts';
import { guidelineMachine, guidelineRole } from './tmas/guideline.role.ts';
import { judgeMachine, judgeRole } from '../roles/judge.role.ts';
import { problemMachine } from './tmas/tmas.machine.ts';
import type { RoleDefinition } from '../role.machine.ts';
import { solutionMachine, solutionRole } from '../roles/solution.role.ts';
import { summaryMachine, summaryRole } from '../roles/summary.role.ts';
import { verificationMachine, verificationRole } from '../roles/verification.role.ts';
import { majorityStrategy } from './majority/index.ts';
import { masCeoStrategy } from './mas-ceo/index.ts';
import { rseStrategy } from './rse/index.ts';
import { selfRefineStrategy } from './self-refine/index.ts';
import { verifyRefineStrategy } from './verify-refine/index.ts';

/** A method the runtime can run. */
export interface Strategy {
  name: string;
  description: string;
  /** Role actors by role name; each receives `<name>.requested` messages. */
  roles: Record<string, AnyStateMachine>;
  /** The per-problem loop. Takes `ProblemInput` and ends with `problem.completed`. */
  problem: AnyStateMachine;
  /** The `RoleDefinition` behind each role built with `createRoleMachine`: what a plugin's `prompt`/`reply` override applies to. */
  definitions?: Record<string, RoleDefinition>;
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
    judge: judgeMachine,
  },
  problem: problemMachine,
  definitions: { solution: solutionRole, verification: verificationRole, summary: summaryRole, experience: experienceRole, guideline: guidelineRole, judge: judgeRole },
};

/** Every built-in strategy, by name. */
export const STRATEGIES: Record<string, Strategy> = {
  tmas: tmasStrategy,
  majority: majorityStrategy,
  'self-refine': selfRefineStrategy,
  'verify-refine': verifyRefineStrategy,
  rse: rseStrategy,
  'mas-ceo': masCeoStrategy,
};
