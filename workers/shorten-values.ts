/**
 * Shortening the values a prompt quotes whole when it does not fit its
 * window even with every droppable piece left out: a template part's
 * `shortens` (src/kernel/prompt-wire.ts). RSE's distiller quotes a rollout
 * whole, and a rollout cut at its limit fills the window it was written in:
 * below a window of about 80k tokens its distillation could not be sent at
 * all (TMAS_CONTEXT_LENGTH). Each such value keeps its first and last halves
 * (bound-tokens.ts), the middle giving way to a line that says how many
 * tokens were left out, so the reader sees how the text starts and what it
 * concludes. A value that would keep fewer than LEAST_KEPT tokens is not
 * shortened: the prompt then fails as before. What was shortened is named in
 * the fit's `dropped`, as `<id>:middle`.
 */
import { boundTokens } from './bound-tokens.ts';
import { isTemplatePart, valueAt } from './prompt-template.ts';
import type { FitOutput, FitTask, TemplateFitPart, TemplateShorten, TemplateValue } from './tasks.ts';

/** What the line in a shortened value says of why. */
const WHY = 'the rest of this text did not fit the context window';
/** Shortenings tried before giving up: a join or the marker line may cost a few tokens the estimate missed. */
const ATTEMPTS = 3;
/** Tokens taken beyond the excess: the marker line and the joins around the cut. */
const SPARE = 64;
/** A value shortened to fewer tokens than this says nothing of its text. */
const LEAST_KEPT = 256;

/** One shortenable value: the piece it is in, where, and its whole text with its tokens. */
interface Shortenable {
  piece: 'system' | number;
  shorten: TemplateShorten;
  text: string;
  tokens: number;
}

/** `fit(task)`, and when that is over the budget, `fit` of the task with its shortenable values shortened to cover the excess. */
export function fitShortening(task: Pick<FitTask, 'system' | 'parts' | 'budget'>, fit: (task: Pick<FitTask, 'system' | 'parts' | 'budget'>) => FitOutput, count: (text: string) => number): FitOutput {
  const first = fit(task);
  if (first.promptTokens <= task.budget || first.renderError !== undefined) return first;
  const values = shortenables(task, count);
  if (values.length === 0) return first;
  let output = first;
  let excess = first.promptTokens - task.budget + SPARE;
  for (let attempt = 0; attempt < ATTEMPTS && output.promptTokens > task.budget; attempt++) {
    const total = values.reduce((sum, value) => sum + value.tokens, 0);
    const bounds = values.map((value) => value.tokens - Math.ceil((excess * value.tokens) / total));
    if (bounds.some((bound) => bound < LEAST_KEPT)) break;
    const fitted = fit(withShortened(task, values, bounds, count));
    output = { ...fitted, dropped: [...fitted.dropped, ...values.map((value) => `${value.shorten.id}:middle`)] };
    excess += Math.max(SPARE, output.promptTokens - task.budget);
  }
  return output.promptTokens <= task.budget ? output : first;
}

/** The task's shortenable string values, with their tokens. */
function shortenables(task: Pick<FitTask, 'system' | 'parts'>, count: (text: string) => number): Shortenable[] {
  const pieces: Array<['system' | number, TemplateFitPart]> = [];
  if (typeof task.system !== 'string') pieces.push(['system', task.system]);
  task.parts.forEach((part, index) => {
    if (isTemplatePart(part)) pieces.push([index, part]);
  });
  return pieces.flatMap(([piece, part]) =>
    (part.shortens ?? []).flatMap((shorten) => {
      const text = valueAt(part.variables, shorten.path);
      return typeof text === 'string' ? [{ piece, shorten, text, tokens: count(text) }] : [];
    }),
  );
}

/** The task with each value cut to its bound. */
function withShortened<T extends Pick<FitTask, 'system' | 'parts' | 'budget'>>(task: T, values: readonly Shortenable[], bounds: readonly number[], count: (text: string) => number): T {
  const system = typeof task.system === 'string' ? task.system : { ...task.system };
  const parts = task.parts.map((part) => (isTemplatePart(part) ? { ...part } : part));
  values.forEach((value, index) => {
    const part = (value.piece === 'system' ? system : parts[value.piece]) as TemplateFitPart;
    part.variables = setAt(part.variables, value.shorten.path, boundTokens(value.text, bounds[index] as number, count, WHY)) as Record<string, TemplateValue>;
  });
  return { ...task, system, parts };
}

/** A copy of `value` with `text` at `path`, the rest shared. */
function setAt(value: TemplateValue, path: ReadonlyArray<string | number>, text: string): TemplateValue {
  if (path.length === 0) return text;
  const [key, ...rest] = path;
  if (Array.isArray(value)) return value.map((item, index) => (index === key ? setAt(item, rest, text) : item));
  if (value !== null && typeof value === 'object') return { ...value, [String(key)]: setAt(value[String(key)] ?? null, rest, text) };
  return value;
}
