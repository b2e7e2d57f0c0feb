/**
 * A role's user message as a Jinja template (docs/extending/prompts.md: prompts are
 * data). The role says which variables it gives a template, what each holds
 * and its shape, and computes their values per request; its built-in template
 * (in our words) and a user's (`tmas run --prompt ROLE=FILE`) are rendered by
 * the same path, in the worker pool, where values that do not fit the context
 * window are left out before the template is rendered again.
 *
 * The system message stays code: it names the role ("You are the X agent"),
 * which is also how the simulated model knows what to answer.
 */
import type { PromptSpec, TemplateDrop, TemplatePromptPart, TemplateShorten, TemplateValue, TemplateWhitespace } from './prompt.ts';

/** The shape of a template variable: what `tmas prompts` prints and what a user's template is tried on before a run. */
export type VariableShape =
  | 'string'
  | 'integer'
  | 'boolean'
  | { oneOf: readonly string[] }
  | { orNone: VariableShape }
  /** A field that is absent (not none: `is defined` tells) when it was left out to fit the window. */
  | { mayBeLeftOut: VariableShape }
  | { listOf: VariableShape }
  | { fields: Readonly<Record<string, VariableShape>> };

/** One variable a role gives its template. */
export interface TemplateVariable {
  shape: VariableShape;
  /** What it holds, in a sentence (and what may be left out of it when the prompt does not fit). */
  about: string;
}

/** The values of a role's variables for one request, and which of them may be left out to fit the window. */
export interface TemplateValues {
  variables: Record<string, TemplateValue>;
  drops?: TemplateDrop[];
  /** Strings that may lose their middle when the prompt does not fit with every drop made (prompt-wire.ts). */
  shortens?: TemplateShorten[];
}

/** A role's user message as a template: its built-in source, its variables and how a request fills them. */
export interface RoleTemplate<R = never, O = never> {
  /** The template (Jinja): the built-in one, in our words, or a user's (`--prompt ROLE=FILE`). */
  source: string;
  /**
   * How its block tags treat the whitespace around them. Absent: `trimmed`, trim_blocks and lstrip_blocks
   * on, as @huggingface/jinja renders chat templates: the built-in templates are written so (a line that
   * holds only a block tag leaves no line). A user's template is `jinja2`: as Python's jinja2 renders by default.
   */
  whitespace?: TemplateWhitespace;
  /** The variables the template may name; a user's template that names another is refused before the run. */
  variables: Readonly<Record<string, TemplateVariable>>;
  /** When the template is rendered, in words, if not for every call. */
  applies?: string;
  /** The system message: not a user's template; a text, or a built-in template whose values may be left out to fit (RSE's bank). */
  system(request: R, options: O): string | TemplatePromptPart;
  values(request: R, options: O): TemplateValues;
  /** The whole prompt of a request the template is not rendered for (PaCoRe's round 0: the problem alone), or null. */
  untemplated?(request: R, options: O): PromptSpec | null;
}

/** The id of the user message's template part, as `context.trimmed` and the journal see it. */
export const TEMPLATE_PART_ID = 'user';

/** The template part of a request's prompt. */
export function templatePart<R, O>(template: RoleTemplate<R, O>, request: R, options: O): TemplatePromptPart {
  const { variables, drops, shortens } = template.values(request, options);
  return {
    id: TEMPLATE_PART_ID,
    template: template.source,
    ...(template.whitespace === undefined ? {} : { whitespace: template.whitespace }),
    variables,
    ...(drops === undefined || drops.length === 0 ? {} : { drops }),
    ...(shortens === undefined || shortens.length === 0 ? {} : { shortens }),
  };
}

/** The `prompt` function of a role whose user message is `template`. */
export function templatePrompt<R, O>(template: RoleTemplate<R, O>): (request: R, options: O) => PromptSpec {
  return (request, options) => template.untemplated?.(request, options) ?? { system: template.system(request, options), parts: [templatePart(template, request, options)] };
}

/** A shape in words: `list of {candidate: integer, text: string}`. */
export function describeShape(shape: VariableShape): string {
  if (typeof shape === 'string') return shape;
  if ('oneOf' in shape) return `one of ${shape.oneOf.map((value) => `'${value}'`).join(', ')}`;
  if ('orNone' in shape) return `${describeShape(shape.orNone)} or none`;
  if ('mayBeLeftOut' in shape) return `${describeShape(shape.mayBeLeftOut)} (absent when left out to fit)`;
  if ('listOf' in shape) return `list of ${typeof shape.listOf === 'string' ? `${shape.listOf}s` : describeShape(shape.listOf)}`;
  return `{${Object.entries(shape.fields)
    .map(([name, field]) => `${name}: ${describeShape(field)}`)
    .join(', ')}}`;
}

/** The problem block of the built-in templates, as the simulated model reads it. */
export const PROBLEM_BLOCK = '<problem>\n{{ problem }}\n</problem>';

/** The candidate solution block of the built-in templates. */
export const SOLUTION_BLOCK = '<solution>\n{{ solution }}\n</solution>';

/** The variables most roles share. */
export const COMMON_VARIABLES = {
  problem: { shape: 'string', about: 'the problem text' },
  proof: { shape: 'boolean', about: 'true in proof mode, false with --no-proof (short answers)' },
  solution: { shape: 'string', about: "the candidate's solution text" },
} as const satisfies Record<string, TemplateVariable>;

/** The values of the variables most roles share, `problem` and `proof`, then the role's own. */
export function problemValues(request: { question: string }, options: { proof: boolean }, own: Record<string, TemplateValue> = {}): Record<string, TemplateValue> {
  return { problem: request.question, proof: options.proof, ...own };
}

/** The values of a template over COMMON_VARIABLES: the problem, the mode and the candidate's solution. */
export function solutionValues(request: { question: string; solution: string }, options: { proof: boolean }): TemplateValues {
  return { variables: problemValues(request, options, { solution: request.solution }) };
}

/** The values `names` of a template, marked as strings that may lose their middle to fit the window (prompt-wire.ts). */
export function shortenable(names: readonly string[]): Pick<TemplateValues, 'shortens'> {
  return { shortens: names.map((name) => ({ id: name, path: [name] })) };
}

/**
 * solutionValues, the solution shortenable: a role that reads a solution
 * quoted whole (RSE's distiller, MAS-TTS's critics and evaluator) could not
 * be sent one cut at its limit, which fills the window it was written in.
 */
export function quotedSolutionValues(request: { question: string; solution: string }, options: { proof: boolean }): TemplateValues {
  return { ...solutionValues(request, options), ...shortenable(['solution']) };
}
