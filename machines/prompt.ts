/**
 * What a role asks the model, and the plain building blocks of a prompt.
 *
 * A prompt is a system message plus a user message made of named parts: text
 * parts, and template parts (a Jinja template over variables, which is how
 * every built-in role but the judge writes its user message: role-template.ts).
 * Parts, and values of a template part, that may be left out when the prompt
 * does not fit the context window carry a `drop` rank: the pool drops the
 * lowest rank first (docs/concepts/context-budget.md). The tags below (`<problem>`,
 * `<solution>`) are also what the simulated model reads, so they are the wire
 * format between prompts and the sim.
 */

/** One piece of the user message. */
export interface PromptPart {
  id: string;
  text: string;
  /** Drop rank: parts with a rank may be left out, lowest rank first. */
  drop?: number;
  /** At most this many tokens of the part are kept: its first and last halves, with a line saying how many were left out (the judge's view). */
  maxTokens?: number;
}

// The template types below mirror the fit task's (workers/tasks.ts), which machines/ may not import:
// the host hands a prompt to the pool as it is, so the compiler checks that they agree.

/** A value a prompt template reads: JSON. */
export type TemplateValue = string | number | boolean | null | TemplateValue[] | { [key: string]: TemplateValue };

/** A value a template part may leave out when the prompt does not fit: a list item (removed from its list) or a field (from its object). */
export interface TemplateDrop {
  id: string;
  /** Where the value is in the variables: names of fields and positions in lists. */
  path: Array<string | number>;
  /** Drop rank, as a part's: lowest first. */
  drop: number;
}

/** How a template's block tags treat the whitespace around them: `jinja2`, Python jinja2's defaults; `trimmed`, trim_blocks and lstrip_blocks on. */
export type TemplateWhitespace = 'jinja2' | 'trimmed';

/** A piece of the user message that is a Jinja template rendered over variables (see machines/role-template.ts). */
export interface TemplatePromptPart {
  id: string;
  /** The template's source. */
  template: string;
  /** How it renders; absent: `trimmed`, as the built-in templates are written. */
  whitespace?: TemplateWhitespace;
  variables: Record<string, TemplateValue>;
  drops?: TemplateDrop[];
}

/** What a role asks the model: the system message and the parts of the user message, joined with a blank line. */
export interface PromptSpec {
  /**
   * The system message: a text, or a template whose values may be left out to fit the window, in one
   * drop order with the user parts' (RSE's experience bank, which upstream puts in the system message).
   */
  system: string | TemplatePromptPart;
  parts: Array<PromptPart | TemplatePromptPart>;
}

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
