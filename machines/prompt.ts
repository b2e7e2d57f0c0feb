/**
 * What a role asks the model, and the plain building blocks of a prompt.
 *
 * A prompt is a system message plus a user message made of named parts: text
 * parts, and template parts (a Jinja template over variables, which is how
 * every built-in role but the judge writes its user message: role-template.ts).
 * Its types are the wire the pool's workers read (src/kernel/prompt-wire.ts).
 * The tags below (`<problem>`, `<solution>`) are also what the simulated model
 * reads, so they are the wire format between prompts and the sim.
 */
import type { PromptPart } from '../src/kernel/prompt-wire.ts';

export type { PromptPart, PromptSpec, TemplateDrop, TemplatePromptPart, TemplateShorten, TemplateValue, TemplateWhitespace } from '../src/kernel/prompt-wire.ts';

/** The problem statement block. Never dropped. */
export function problemPart(question: string): PromptPart {
  return { id: 'problem', text: `<problem>\n${question}\n</problem>` };
}

/** A fixed instruction part. Never dropped. */
export function instructionPart(text: string): PromptPart {
  return { id: 'instructions', text };
}

/** A candidate solution block, as the verification, summary and judge agents see it. */
export function solutionPart(text: string): PromptPart {
  return { id: 'solution', text: `<solution>\n${text}\n</solution>` };
}
