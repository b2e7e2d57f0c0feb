/**
 * Fitting a prompt to its token budget (docs/concepts/context-budget.md): which droppable
 * pieces to leave out, lowest drop rank first, until system + user fit. A
 * piece is a whole part (`drop` on a text part) or a value of a template
 * part's variables (its `drops`), after which the template is rendered again.
 * A system message that is a template (RSE's experience bank) is one more
 * template part, before the user's: its values compete with the user's in
 * one drop order, and it is never left out whole.
 * Pure; the counting functions come from the tokenizer thread that calls it.
 */
import { dropScales, rememberedCount, valueTokens, type Count } from './drop-costs.ts';
import { isTemplatePart, PART_SEPARATOR, renderTemplate, TemplateRenderError, withoutDrops } from './prompt-template.ts';
import { fitShortening } from './shorten-values.ts';
import type { FitOutput, FitTask, FittedValues, TemplateDrop, TemplateFitPart } from './tasks.ts';

/** One piece that may be left out: a whole part, or one drop of a template part. */
interface DropUnit {
  part: number;
  /** The template drop; absent for a whole text part. */
  drop?: TemplateDrop;
  rank: number;
  id: string;
}

/** Every droppable piece of `parts`, in drop order: ascending rank, ties by position. */
function dropOrder(parts: FitTask['parts']): DropUnit[] {
  const units: DropUnit[] = [];
  parts.forEach((part, index) => {
    if (isTemplatePart(part)) {
      for (const drop of part.drops ?? []) units.push({ part: index, drop, rank: drop.drop, id: drop.id });
    } else if (part.drop !== undefined) {
      units.push({ part: index, rank: part.drop, id: part.id });
    }
  });
  for (const unit of units) {
    if (!Number.isFinite(unit.rank)) throw new TypeError(`part "${unit.id}" has a drop rank that is not a finite number`);
  }
  // Array.prototype.sort is stable, so equal ranks keep their original order.
  return units.sort((a, b) => a.rank - b.rank);
}

/** How a fit counts: a text's tokens, and the tokens outside the user text for a system message (its own and both messages' framing). */
export interface FitCounter {
  count(text: string): number;
  framing(system: string): number;
}

/**
 * Fits `parts` into `budget` tokens, with the system message counted by
 * `counter.framing`.
 *
 * A prompt that fits whole (the usual case) is counted once, as joined. One
 * that does not has each part counted once, and drops are decided on the sum
 * of those counts plus the separators' (a template drop counts the texts it
 * leaves out, scaled by what its template makes of them: drop-costs.ts); the
 * kept text is then counted, for the exact `promptTokens`.
 * BPE merges tokens across a join (a trailing "." absorbs the blank line after
 * it), so the sum usually over-counts the joined text by about a token per
 * join: when the budget falls within those few tokens, one part more than
 * strictly needed may go. We accept that to avoid re-encoding a prompt that
 * may hold a 100,000-token rollout after every drop. When the sum under-counts
 * instead (a part that starts with a newline, a template's own text around a
 * dropped value) and the exact count is over the budget, the next pieces in
 * drop order go until their estimate covers the excess, and the kept text is
 * recounted.
 */
export function fitPrompt(task: Pick<FitTask, 'system' | 'parts' | 'budget'>, counter: FitCounter): FitOutput {
  try {
    // A bank's lines are counted for the estimate and again for the figures: once each.
    const remembered = { ...counter, count: rememberedCount(counter.count) };
    // A prompt that does not fit with every drop made may still fit with the values it quotes whole shortened
    // (counted unremembered: the cut's bisection counts many slices of one text, each once).
    const fitted = fitShortening(task, (shortened) => fitRendered(shortened, remembered), counter.count);
    if (typeof task.system === 'string') return fitted;
    return { ...fitted, systemValues: systemValues(task.system, fitted.dropped, remembered.count) };
  } catch (error) {
    // A template that fails on these values (a filter it cannot apply, say) is the user's to fix: the call is not sent.
    if (error instanceof TemplateRenderError) return { user: '', promptTokens: 0, dropped: [], renderError: error.message };
    throw error;
  }
}

/** The droppable values of a system template, those `dropped` left out, and the tokens of their texts. */
function systemValues(system: TemplateFitPart, dropped: readonly string[], count: Count): FittedValues {
  const gone = new Set(dropped);
  const figures = { values: 0, kept: 0, tokens: 0, keptTokens: 0 };
  for (const drop of system.drops ?? []) {
    const tokens = valueTokens(system.variables, drop, count);
    figures.values += 1;
    figures.tokens += tokens;
    if (gone.has(drop.id)) continue;
    figures.kept += 1;
    figures.keptTokens += tokens;
  }
  return figures;
}

function render(part: FitTask['parts'][number]): string {
  return isTemplatePart(part) ? renderTemplate(part.template, part.variables, part.whitespace) : part.text;
}

function fitRendered(task: Pick<FitTask, 'system' | 'parts' | 'budget'>, counter: FitCounter): FitOutput {
  const { budget } = task;
  const { count } = counter;
  // A templated system message is piece 0, the user's parts follow; a text one is outside the pieces.
  const templated = typeof task.system !== 'string';
  const pieces = typeof task.system === 'string' ? task.parts : [task.system, ...task.parts];
  const first = templated ? 1 : 0;
  const units = dropOrder(pieces);
  const rendered = pieces.map(render);
  const system = typeof task.system === 'string' ? task.system : (rendered[0] ?? '');
  const systemOut = templated ? { system } : {};
  const whole = rendered.slice(first).join(PART_SEPARATOR);
  const framing = counter.framing(system);
  const wholeTokens = framing + count(whole);
  if (wholeTokens <= budget || units.length === 0) return { user: whole, promptTokens: wholeTokens, dropped: [], ...systemOut };

  // The system template's own tokens are outside the user's parts (in `framing`), but its drops are scaled by them.
  const renderedTokens = rendered.map((text) => count(text));
  const partTokens = renderedTokens.map((tokens, index) => (index < first ? 0 : tokens));
  const scales = dropScales(pieces, renderedTokens, count);
  const separatorTokens = count(PART_SEPARATOR);
  const costOf = (unit: DropUnit): number => {
    const part = pieces[unit.part];
    if (unit.drop === undefined || part === undefined || !isTemplatePart(part)) return partTokens[unit.part] ?? 0;
    return valueTokens(part.variables, unit.drop, count) * (scales[unit.part] ?? 0);
  };

  const kept = pieces.map(() => true);
  const templateDrops = pieces.map((): TemplateDrop[] => []);
  let keptCount = task.parts.length;
  let keptTokens = framing + partTokens.reduce((sum, tokens) => sum + tokens, 0);
  let dropped = 0;
  /** Leaves out the next piece in drop order; what the estimate says it saved. */
  const dropNext = (): number => {
    const unit = units[dropped++] as DropUnit;
    const saved = costOf(unit);
    keptTokens -= saved;
    if (unit.drop !== undefined) {
      templateDrops[unit.part]?.push(unit.drop);
      return saved;
    }
    kept[unit.part] = false;
    keptCount -= 1;
    return saved;
  };
  const estimate = (): number => keptTokens + Math.max(0, keptCount - 1) * separatorTokens;

  while (estimate() > budget && dropped < units.length) dropNext();

  const textOf = (index: number): string => {
    const part = pieces[index];
    const drops = templateDrops[index] ?? [];
    return part !== undefined && isTemplatePart(part) && drops.length > 0 ? renderTemplate(part.template, withoutDrops(part.variables, drops), part.whitespace) : (rendered[index] ?? '');
  };
  const fitted = (): { system: string; user: string } => ({
    system: templated ? textOf(0) : system,
    user: pieces
      .flatMap((_, index) => (index < first || !kept[index] ? [] : [textOf(index)]))
      .join(PART_SEPARATOR),
  });
  let now = fitted();
  let promptTokens = counter.framing(now.system) + count(now.user);
  while (promptTokens > budget && dropped < units.length) {
    // As many pieces as the estimate says cover the excess (at least one), then one exact count.
    const excess = promptTokens - budget;
    let saved = 0;
    do saved += dropNext();
    while (saved < excess && dropped < units.length);
    now = fitted();
    promptTokens = counter.framing(now.system) + count(now.user);
  }

  return { user: now.user, promptTokens, dropped: units.slice(0, dropped).map((unit) => unit.id), ...(templated ? { system: now.system } : {}) };
}
