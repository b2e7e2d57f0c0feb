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
 *
 * A text part with a token bound (`maxTokens`: the judge's view of a
 * response, 16,384 tokens) is cut to its bound first, and shortened further
 * the same way when the window leaves less: at a 16k window the judge's
 * prompt could not hold a view of 16k tokens, and every long response went
 * ungraded.
 */
import { boundTokens } from './bound-tokens.ts';
import { isTemplatePart, valueAt } from './prompt-template.ts';
import type { FitOutput, FitPart, FitTask, TemplateFitPart, TemplateShorten, TemplateValue } from './tasks.ts';

/** What the line in a shortened value says of why. */
const WHY = 'the rest of this text did not fit the context window';
/** Shortenings tried before giving up: a join or the marker line may cost a few tokens the estimate missed. */
const ATTEMPTS = 3;
/** Tokens taken beyond the excess: the marker line and the joins around the cut. */
const SPARE = 64;
/** A value shortened to fewer tokens than this says nothing of its text. */
const LEAST_KEPT = 256;

/** One shortenable value: the piece it is in, where (a template's value; none for a text part), its whole text and its own bound (Infinity for a template's value). */
interface Shortenable {
  piece: 'system' | number;
  shorten: TemplateShorten | null;
  id: string;
  text: string;
  maxTokens: number;
}

/** `fit(task)`, and when that is over the budget, `fit` of the task with its shortenable values shortened to cover the excess. */
export function fitShortening(task: Pick<FitTask, 'system' | 'parts' | 'budget'>, fit: (task: Pick<FitTask, 'system' | 'parts' | 'budget'>) => FitOutput, count: (text: string) => number): FitOutput {
  const values = shortenables(task);
  // Each at its own bound (a text part's; none for a template's value): what is sent when it fits.
  const first = fit(withShortened(task, values, values.map((value) => value.maxTokens), count));
  if (first.promptTokens <= task.budget || first.renderError !== undefined || values.length === 0) return first;
  // Counted only now: a prompt that fits (nearly every one) is not counted twice.
  const own = values.map((value) => Math.min(count(value.text), value.maxTokens));
  let output = first;
  let excess = first.promptTokens - task.budget + SPARE;
  // Only values long enough to keep LEAST_KEPT tokens after a cut are cut, each in proportion to its length; short ones stay whole.
  const cut = own.map((tokens) => tokens > 2 * LEAST_KEPT);
  const total = own.reduce((sum, tokens, index) => sum + (cut[index] ? tokens : 0), 0);
  for (let attempt = 0; attempt < ATTEMPTS && total > 0 && output.promptTokens > task.budget; attempt++) {
    const bounds = values.map((value, index) => (cut[index] ? (own[index] as number) - Math.ceil((excess * (own[index] as number)) / total) : value.maxTokens));
    if (bounds.some((bound, index) => cut[index] && bound < LEAST_KEPT)) break;
    const fitted = fit(withShortened(task, values, bounds, count));
    output = { ...fitted, dropped: [...fitted.dropped, ...values.flatMap((value, index) => (cut[index] ? [`${value.id}:middle`] : []))] };
    excess += Math.max(SPARE, output.promptTokens - task.budget);
  }
  return output.promptTokens <= task.budget ? output : first;
}

/** The task's shortenable string values: template values marked so, and text parts with a token bound. */
function shortenables(task: Pick<FitTask, 'system' | 'parts'>): Shortenable[] {
  const pieces: Array<['system' | number, FitTask['parts'][number]]> = [];
  if (typeof task.system !== 'string') pieces.push(['system', task.system]);
  task.parts.forEach((part, index) => pieces.push([index, part]));
  return pieces.flatMap(([piece, part]): Shortenable[] => {
    if (!isTemplatePart(part)) return part.maxTokens === undefined ? [] : [{ piece, shorten: null, id: part.id, text: part.text, maxTokens: part.maxTokens }];
    return (part.shortens ?? []).flatMap((shorten) => {
      const text = valueAt(part.variables, shorten.path);
      return typeof text === 'string' ? [{ piece, shorten, id: shorten.id, text, maxTokens: Number.POSITIVE_INFINITY }] : [];
    });
  });
}

/** The task with each value cut to its bound: a text part's own bound says so as it always has, a tighter one that the window left less. */
function withShortened<T extends Pick<FitTask, 'system' | 'parts' | 'budget'>>(task: T, values: readonly Shortenable[], bounds: readonly number[], count: (text: string) => number): T {
  // Template values at no bound (each fit of a prompt that has them, before any cut): the task as it is, not a copy.
  if (bounds.every((bound) => bound === Number.POSITIVE_INFINITY)) return task;
  const system = typeof task.system === 'string' ? task.system : { ...task.system };
  const parts = task.parts.map((part) => ({ ...part }));
  values.forEach((value, index) => {
    const bound = bounds[index] as number;
    if (bound === Number.POSITIVE_INFINITY) return;
    const text = bound < value.maxTokens ? boundTokens(value.text, bound, count, WHY) : boundTokens(value.text, value.maxTokens, count);
    const part = value.piece === 'system' ? system : parts[value.piece];
    if (value.shorten === null) (part as FitPart).text = text;
    else (part as TemplateFitPart).variables = setAt((part as TemplateFitPart).variables, value.shorten.path, text) as Record<string, TemplateValue>;
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
