/**
 * Fitting a prompt to its token budget (docs/concepts/context-budget.md): which droppable
 * pieces to leave out, lowest drop rank first, until system + user fit. A
 * piece is a whole part (`drop` on a text part) or a value of a template
 * part's variables (its `drops`), after which the template is rendered again.
 * Pure; the counting function comes from the tokenizer thread that calls it.
 */
import { droppedTexts, isTemplatePart, PART_SEPARATOR, renderTemplate, TemplateRenderError, withoutDrops } from './prompt-template.ts';
import type { FitOutput, FitTask, TemplateDrop } from './tasks.ts';

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

/**
 * Fits `parts` into `budget` tokens, `fixedTokens` being the tokens outside
 * the user text (the system message and the framing).
 *
 * A prompt that fits whole (the usual case) is counted once, as joined. One
 * that does not has each part counted once, and drops are decided on the sum
 * of those counts plus the separators' (a template drop counts the texts it
 * leaves out); the kept text is then counted, for the exact `promptTokens`.
 * BPE merges tokens across a join (a trailing "." absorbs the blank line after
 * it), so the sum usually over-counts the joined text by about a token per
 * join: when the budget falls within those few tokens, one part more than
 * strictly needed may go. We accept that to avoid re-encoding a prompt that
 * may hold a 100,000-token rollout after every drop. When the sum under-counts
 * instead (a part that starts with a newline, a template's own text around a
 * dropped value) and the exact count is over the budget, the next piece in
 * drop order goes and the kept text is recounted.
 */
export function fitPrompt(task: Pick<FitTask, 'parts' | 'budget'>, fixedTokens: number, count: (text: string) => number): FitOutput {
  try {
    return fitRendered(task, fixedTokens, count);
  } catch (error) {
    // A template that fails on these values (a filter it cannot apply, say) is the user's to fix: the call is not sent.
    if (error instanceof TemplateRenderError) return { user: '', promptTokens: 0, dropped: [], renderError: error.message };
    throw error;
  }
}

function fitRendered(task: Pick<FitTask, 'parts' | 'budget'>, fixedTokens: number, count: (text: string) => number): FitOutput {
  const { parts, budget } = task;
  const units = dropOrder(parts);
  const rendered = parts.map((part) => (isTemplatePart(part) ? renderTemplate(part.template, part.variables, part.whitespace) : part.text));
  const whole = rendered.join(PART_SEPARATOR);
  const wholeTokens = fixedTokens + count(whole);
  if (wholeTokens <= budget || units.length === 0) return { user: whole, promptTokens: wholeTokens, dropped: [] };

  const partTokens = rendered.map(count);
  const separatorTokens = count(PART_SEPARATOR);
  const costOf = (unit: DropUnit): number => {
    const part = parts[unit.part];
    if (unit.drop === undefined || part === undefined || !isTemplatePart(part)) return partTokens[unit.part] ?? 0;
    return droppedTexts(part.variables, unit.drop).reduce((sum, text) => sum + count(text), 0);
  };

  const kept = parts.map(() => true);
  const templateDrops = parts.map((): TemplateDrop[] => []);
  let keptCount = parts.length;
  let keptTokens = partTokens.reduce((sum, tokens) => sum + tokens, 0);
  let dropped = 0;
  const dropNext = (): void => {
    const unit = units[dropped++] as DropUnit;
    keptTokens -= costOf(unit);
    if (unit.drop !== undefined) {
      templateDrops[unit.part]?.push(unit.drop);
      return;
    }
    kept[unit.part] = false;
    keptCount -= 1;
  };
  const estimate = (): number => fixedTokens + keptTokens + Math.max(0, keptCount - 1) * separatorTokens;

  while (estimate() > budget && dropped < units.length) dropNext();

  const join = (): string =>
    parts
      .flatMap((part, index) => {
        if (!kept[index]) return [];
        const drops = templateDrops[index] ?? [];
        return [isTemplatePart(part) && drops.length > 0 ? renderTemplate(part.template, withoutDrops(part.variables, drops), part.whitespace) : (rendered[index] ?? '')];
      })
      .join(PART_SEPARATOR);
  let user = join();
  let promptTokens = fixedTokens + count(user);
  while (promptTokens > budget && dropped < units.length) {
    dropNext();
    user = join();
    promptTokens = fixedTokens + count(user);
  }

  return { user, promptTokens, dropped: units.slice(0, dropped).map((unit) => unit.id) };
}
