/**
 * Everything a plugin (`tmas run --agents ./my-agents.ts`) or a new strategy
 * needs, from one entry: `import { defineAgents } from 'tmas'` (the package's
 * `exports`; a module loaded with `--agents` resolves `tmas` to the tmas that
 * loads it). See docs/extending/agents-module.md and docs/extending/strategy.md.
 */

// Declaring and applying plugins.
export { applyAgents, defineAgents, defineMultiCallRole, defineRole, loadAgents, resolveStrategy, type Agents, type RequestOf, type RoleName, type RoleOverride } from './host/strategy/plugins.ts';
export { strategyNamed } from '../machines/strategies/index.ts';

// Role actors: one call per request, or several.
export { createRoleMachine, endpointSlotOf, type RoleDefinition, type RoleOptions } from '../machines/role.machine.ts';
export { createMultiCallRoleMachine, type CallSpec, type MultiCallRoleDefinition } from '../machines/multi-call.role.ts';
export type { LlmOutput } from '../machines/llm.ts';

// Prompt and reply building blocks (the tags are what the simulated model reads).
export { instructionPart, problemPart, solutionPart, type PromptPart, type PromptSpec, type TemplatePromptPart } from '../machines/prompt.ts';
export { templatePrompt, type RoleTemplate, type TemplateVariable, type VariableShape } from '../machines/role-template.ts';
export { callInfo, parseJsonReply, parseScore, replyBase } from '../machines/reply.ts';

// The built-in roles, to reuse or wrap.
export { solutionPrompt, solutionRole } from '../machines/strategies/tmas/solution.role.ts';
export { verificationPrompt, verificationRole } from '../machines/roles/verification.role.ts';
export { summaryRole } from '../machines/roles/summary.role.ts';
export { experienceRole } from '../machines/strategies/tmas/experience.role.ts';
export { guidelineRole } from '../machines/strategies/tmas/guideline.role.ts';

// Strategies: the registry, and the pieces the baselines are built from.
export { STRATEGIES } from '../machines/strategies/index.ts';
export { createProgramMachine } from '../machines/program.machine.ts';
export { finishedAfter, waiting, type Effect, type ProblemProgram, type Step } from '../machines/program.ts';
export { messageBase, resultOf, saveOf, failureOf, roleLine, answerInstruction, responseOf, NO_RESPONSE, type CandidateView, type CandidateResponse } from '../machines/kit.ts';
export { optionOf, type CallSpan, type LoopSettings, type ProblemInput, type Strategy, type StrategyFlag } from '../machines/contract.ts';

// The message protocol.
export type { CandidateResult, EndpointSlot, Message, MessageOf, MessageType, Verification } from './kernel/protocol.ts';
