/**
 * What leaving out each droppable piece of a prompt saves, estimated for the
 * fit (fit-prompt.ts) without rendering and counting the prompt once per drop.
 *
 * A whole text part saves its own tokens. A template's value saves its
 * texts' tokens times what the template makes of its values: the template
 * rendered with all of them and with none, counted, against the sum of their
 * texts. A template that shows each value once (with a line break or a
 * bullet around it) scales by about 1; one that does not show them at all
 * (RSE's user message, whose default template has the bank in the system
 * message only) by 0, so those values do not count twice and the estimate
 * does not stop dropping halfway, leaving hundreds of drops to be made one
 * exact count of a 100,000-token prompt at a time.
 */
import { droppedTexts, isTemplatePart, renderTemplate, withoutDrops } from './prompt-template.ts';
import type { FitTask, TemplateDrop } from './tasks.ts';

/** A text's token count, remembered for the fit: a bank's lines are counted for the estimate and again for the figures. */
export type Count = (text: string) => number;

/** `count`, remembering each text's count (the texts of a fit are few and short, or counted once). */
export function rememberedCount(count: Count): Count {
  const counts = new Map<string, number>();
  return (text) => {
    let tokens = counts.get(text);
    if (tokens === undefined) {
      tokens = count(text);
      counts.set(text, tokens);
    }
    return tokens;
  };
}

/** The tokens of a drop's texts, each counted alone. */
export function valueTokens(variables: Parameters<typeof droppedTexts>[0], drop: TemplateDrop, count: Count): number {
  return droppedTexts(variables, drop).reduce((sum, text) => sum + count(text), 0);
}

/**
 * Per piece, what one token of its values' texts saves when left out: 0 for a
 * text part (which is dropped whole) or a template without drops, else the
 * rendered template's tokens less the bare one's (every drop left out), over
 * the tokens of the values' texts.
 */
export function dropScales(pieces: ReadonlyArray<FitTask['parts'][number] | FitTask['system']>, renderedTokens: readonly number[], count: Count): number[] {
  return pieces.map((piece, index) => {
    if (typeof piece === 'string' || !isTemplatePart(piece) || (piece.drops ?? []).length === 0) return 0;
    const drops = piece.drops ?? [];
    const texts = drops.reduce((sum, drop) => sum + valueTokens(piece.variables, drop, count), 0);
    if (texts === 0) return 0;
    const bare = count(renderTemplate(piece.template, withoutDrops(piece.variables, drops), piece.whitespace));
    return Math.max(0, ((renderedTokens[index] ?? 0) - bare) / texts);
  });
}
