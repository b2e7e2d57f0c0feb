/**
 * Prompt templates as they are rendered: Jinja, by `@huggingface/jinja` (the
 * library Hugging Face's JavaScript renders chat templates with), in one of
 * two modes (template-whitespace.ts): a user's template as Python's jinja2
 * renders it by default, the built-in templates with trim_blocks and
 * lstrip_blocks on, as they are written; both drop a template's one final
 * newline. What a prompt leaves out to fit the context window is left out of
 * the variables, and the template is rendered again, so a template always
 * sees a consistent set of values.
 *
 * Pure: the pool renders in its threads, the host renders samples to check a
 * user's template before any call.
 */
import type { Template } from '@huggingface/jinja';
import type { FitPart, TemplateDrop, TemplateFitPart, TemplateValue, TemplateWhitespace } from './tasks.ts';
import { parseTemplate } from './template-whitespace.ts';

/** What joins the parts of a user message. */
export const PART_SEPARATOR = '\n\n';

/** Parsed templates kept per thread: a run has one per role, so a few. */
const MAX_TEMPLATES = 256;
/** By mode, then source. */
const parsed = new Map<string, Template>();

/** A template that failed to render: the library's message, with the part it was. */
export class TemplateRenderError extends Error {
  override name = 'TemplateRenderError';
}

/**
 * The parsed template of `source`, kept for the next render. Throws the
 * library's error when it does not parse. `whitespace` absent: trimmed, as
 * the built-in templates are written.
 */
export function compileTemplate(source: string, whitespace: TemplateWhitespace = 'trimmed'): Template {
  const key = `${whitespace}:${source}`;
  let template = parsed.get(key);
  if (template === undefined) {
    template = parseTemplate(source, whitespace);
    if (parsed.size >= MAX_TEMPLATES) parsed.clear();
    parsed.set(key, template);
  }
  return template;
}

/** `source` rendered over `variables` (`whitespace` as for compileTemplate). Throws a TemplateRenderError saying what failed. */
export function renderTemplate(source: string, variables: Record<string, TemplateValue>, whitespace?: TemplateWhitespace): string {
  try {
    return compileTemplate(source, whitespace).render(variables);
  } catch (error) {
    throw new TemplateRenderError(error instanceof Error ? error.message : String(error), { cause: error });
  }
}

/** Drop paths as a tree: a leaf (true) is a value left out, a branch holds the drops below it. */
type DropTree = Map<string | number, DropTree | true>;

function treeOf(drops: readonly TemplateDrop[]): DropTree {
  const root: DropTree = new Map();
  for (const { path } of drops) {
    let at = root;
    path.forEach((key, depth) => {
      if (depth === path.length - 1) {
        at.set(key, true);
        return;
      }
      let next = at.get(key);
      if (next === true) return;
      if (next === undefined) {
        next = new Map();
        at.set(key, next);
      }
      at = next;
    });
  }
  return root;
}

function prune(value: TemplateValue, tree: DropTree): TemplateValue {
  if (Array.isArray(value)) {
    const kept: TemplateValue[] = [];
    value.forEach((item, index) => {
      const below = tree.get(index);
      if (below !== true) kept.push(below === undefined ? item : prune(item, below));
    });
    return kept;
  }
  if (value === null || typeof value !== 'object') return value;
  const kept: Record<string, TemplateValue> = {};
  for (const [key, item] of Object.entries(value)) {
    const below = tree.get(key);
    if (below !== true) kept[key] = below === undefined ? item : prune(item, below);
  }
  return kept;
}

/** The variables without the values `drops` name: a list item is removed from its list, a field from its object. */
export function withoutDrops(variables: Record<string, TemplateValue>, drops: readonly TemplateDrop[]): Record<string, TemplateValue> {
  if (drops.length === 0) return variables;
  return prune(variables, treeOf(drops)) as Record<string, TemplateValue>;
}

/** The value at `path`, or undefined. */
export function valueAt(variables: Record<string, TemplateValue>, path: ReadonlyArray<string | number>): TemplateValue | undefined {
  let at: TemplateValue | undefined = variables;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = Array.isArray(at) ? (typeof key === 'number' ? at[key] : undefined) : at[String(key)];
  }
  return at;
}

/** The texts a drop leaves out (every string under its path), for an estimate of the tokens it saves. */
export function droppedTexts(variables: Record<string, TemplateValue>, drop: TemplateDrop): string[] {
  const texts: string[] = [];
  const walk = (value: TemplateValue | undefined): void => {
    if (typeof value === 'string') texts.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(valueAt(variables, drop.path));
  return texts;
}

/** Whether a part of a prompt is a template part. */
export function isTemplatePart(part: FitPart | TemplateFitPart): part is TemplateFitPart {
  return 'template' in part;
}

/** The user message of `parts` with nothing left out: each part's text or rendering, joined with a blank line. */
export function userText(parts: ReadonlyArray<FitPart | TemplateFitPart>): string {
  return parts.map((part) => (isTemplatePart(part) ? renderTemplate(part.template, part.variables, part.whitespace) : part.text)).join(PART_SEPARATOR);
}

/** The system message with nothing left out: the text, or the template's rendering. */
export function systemText(system: string | TemplateFitPart): string {
  return typeof system === 'string' ? system : renderTemplate(system.template, system.variables, system.whitespace);
}
