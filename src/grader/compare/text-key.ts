/**
 * Answers as loose text: what two answers that no rule reads are compared
 * by, and a name on the left of an equation is keyed by.
 */
import type { Answer } from '../parse/types.ts';

/**
 * Loose text form: spaces, `\text`, and "(C)" vs "C" do not matter; case
 * matters only in mathematics (x and X are different variables, "Even" and
 * "even" the same word).
 */
export function textKey(answer: Answer, ignoreCase = answer.kind === 'text'): string {
  const raw = rawText(answer);
  return (ignoreCase ? raw.toLowerCase() : raw)
    .replace(/\\text\{([^{}]*)\}/g, '$1')
    // "1 0 0" is no spelling of 100: a space between digits stays (clean.ts joins thousands groups before).
    .replace(/(?<!\d)\s+|\s+(?!\d)/g, '')
    .replace(/^\(([a-zA-Z])\)$/, '$1');
}

/** An answer written out as text, its parts joined as written. */
export function rawText(answer: Answer): string {
  switch (answer.kind) {
    case 'expr':
      return answer.tex + (answer.percent ? '%' : '');
    case 'text':
      return answer.text;
    case 'tuple':
      return answer.open + answer.items.map(rawText).join(',') + answer.close;
    case 'set':
      return `\\{${answer.items.map(rawText).join(',')}\\}`;
    case 'list':
      return answer.items.map(rawText).join(',');
    case 'union':
      return answer.parts.map(rawText).join('\\cup');
    case 'relation':
      return answer.parts.map(rawText).reduce((acc, part, k) => `${acc}${answer.ops[k - 1] ?? ''}${part}`);
    case 'cases':
      return (answer.label ?? '') + answer.items.map((c) => `${rawText(c.value)}\\text{if ${c.when}}`).join(';');
  }
}
