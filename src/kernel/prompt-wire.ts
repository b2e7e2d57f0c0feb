/**
 * A prompt as it travels from a role to the worker pool's `fit` task: a system
 * message plus a user message made of named parts, text parts and template
 * parts (a Jinja template over variables). Declared once here, where both the
 * kit (machines/prompt.ts builds them) and the workers (workers/fit-prompt.ts
 * fits and renders them) may import it: the host hands a role's prompt to the
 * pool as it is. Types only, so that importing this file loads nothing.
 *
 * Parts, and values of a template part, that may be left out when the prompt
 * does not fit the context window carry a `drop` rank: the lowest rank goes
 * first, among the parts' and the values' ranks together
 * (docs/concepts/context-budget.md).
 */

/** One text piece of the user message. */
export interface PromptPart {
  id: string;
  text: string;
  /** Drop rank: parts with a rank may be left out, lowest rank first. */
  drop?: number;
  /** At most this many tokens of the part are kept: its first and last halves, with a line saying how many were left out (the judge's view). Absent: kept whole. */
  maxTokens?: number;
}

/** A value a prompt template reads: JSON. */
export type TemplateValue = string | number | boolean | null | TemplateValue[] | { [key: string]: TemplateValue };

/** A value a template part may leave out when the prompt does not fit: a list item (removed from its list) or a field (removed from its object). */
export interface TemplateDrop {
  id: string;
  /** Where the value is in the variables: names of fields and positions in lists. */
  path: Array<string | number>;
  /** Drop rank, as a part's: lowest first. */
  drop: number;
}

/**
 * A string value of a template part that may lose its middle when the prompt
 * does not fit even with every droppable piece left out (a rollout quoted
 * whole, RSE's distiller's: one cut at its limit fills the window it was
 * written in). It keeps its first and last halves, with a line saying how
 * many tokens were left out (workers/shorten-values.ts).
 */
export interface TemplateShorten {
  id: string;
  /** Where the string is in the variables. */
  path: Array<string | number>;
}

/**
 * How a template's block tags treat the whitespace around them
 * (workers/template-whitespace.ts): `jinja2`, as Python's jinja2 renders by
 * default (a user's template); `trimmed`, with trim_blocks and lstrip_blocks
 * on (the built-in templates, written so); `transformers`, a model's chat
 * template as transformers' apply_chat_template renders it (trim_blocks,
 * lstrip_blocks, its sandbox, tojson and globals: workers/transformers-environment.ts).
 */
export type TemplateWhitespace = 'jinja2' | 'trimmed' | 'transformers';

/** A piece of the user message that is a Jinja template rendered over variables (machines/role-template.ts writes them, workers/prompt-template.ts renders them). */
export interface TemplatePromptPart {
  id: string;
  /** The template's source. */
  template: string;
  /** How it renders; absent: `trimmed`, as the built-in templates are written. */
  whitespace?: TemplateWhitespace;
  variables: Record<string, TemplateValue>;
  drops?: TemplateDrop[];
  shortens?: TemplateShorten[];
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
