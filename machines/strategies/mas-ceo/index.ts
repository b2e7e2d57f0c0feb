/** The `mas-ceo` strategy (MAS-TTS): a CEO agent plans each round of a recruited expert team. */
import type { Strategy } from '../../contract.ts';
import { createProgramMachine } from '../../program.machine.ts';
import { CEO_LIMITS, ceoMachine, ceoRole, criticMachine, criticRole, evaluatorMachine, evaluatorRole, recruiterMachine, recruiterRole, solverMachine, solverRole } from './mas-ceo.roles.ts';
import { MAX_INNER_TURNS, masCeoProgram } from './mas-ceo.program.ts';

/** MAS-TTS with the adaptive CEO as a strategy. */
export const masCeoStrategy: Strategy = {
  name: 'mas-ceo',
  description: 'MAS-TTS: per round a CEO plans (continue/stop, experts, direction, budget), a recruited team solves and critiques to consensus, an evaluator judges',
  roles: { ceo: ceoMachine, recruiter: recruiterMachine, solver: solverMachine, critic: criticMachine, evaluator: evaluatorMachine },
  definitions: { ceo: ceoRole, recruiter: recruiterRole, solver: solverRole, critic: criticRole, evaluator: evaluatorRole },
  loopSettings: ['maxIterations'],
  problem: createProgramMachine(masCeoProgram),
  // Rounds end early (a correct verdict, a stop) and the CEO chooses the team's size: no count is fixed in advance.
  expectedCalls: () => ({}),
  // Every round run, with the largest team the CEO may recruit and every critique round objected to.
  // The judge grades each round's one solution, once per pass, where the problem is judged.
  callBounds: ({ maxIterations, judgePasses }) => ({
    judge: maxIterations * (judgePasses ?? 0),
    ceo: maxIterations,
    recruiter: maxIterations,
    solver: (1 + MAX_INNER_TURNS) * maxIterations,
    critic: (CEO_LIMITS.experts.max - 1) * MAX_INNER_TURNS * maxIterations,
    evaluator: maxIterations,
  }),
  sim: { ceo: 'ceo', recruiter: 'recruiter', solver: 'revision', critic: 'critic', evaluator: 'evaluator' },
  // A round's order; the solver's revisions after a critique repeat stages 2-3 (up to the turn limit).
  stages: { ceo: 0, recruiter: 1, solver: 2, critic: 3, evaluator: 4 },
  // jincan333/MAS-TTS agentverse/tasks/tasksolving/*/m1-32b/config.yaml: temperature 0.7 for every agent; top_p is
  // agentverse/llms/openai.py's default, 0.95 (OpenAIChatArgs), which no config overrides.
  sampling: { temperature: 0.7, topP: 0.95 },
  // The CEO's budget caps the round's solver and critic calls (the lower of it and the run's limit applies).
  roleLimits: `solver and critics: the CEO's budget, ${CEO_LIMITS.budget.min} to ${CEO_LIMITS.budget.max}`,
};
