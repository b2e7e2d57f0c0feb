/**
 * Answers in parts named on the left ("a = 2, b = 3", "\min = 4, \max = 9",
 * "f(1) = 2, f(2) = 5"): two that name the same parts pair them by name
 * alone. Weighed against each other across names ("a = 2" against "b = 2",
 * which a renaming of letters may equate), the parts swapped between the
 * names left the answer unsure, never different.
 */
import { fixedArguments } from '../parse/labels.ts';
import type { Answer } from '../parse/types.ts';
import { rawText } from './text-key.ts';

type Relation = Extract<Answer, { kind: 'relation' }>;

/**
 * The name a relation's left side gives its part: the text, a function at fixed arguments ("f(1)"), or any
 * function of a variable ("f(x)" and "f(n)" name one function).
 */
export function labelKey(r: Relation): string {
  const lhs = r.parts[0];
  const text = lhs === undefined ? '' : rawText(lhs).replace(/\s+/g, '');
  const fixed = fixedArguments(text);
  if (fixed !== null) return `f(${fixed})`;
  return /^[a-zA-Z]'*\([^()]*\)$/.test(text) ? 'f()' : text.replace(/\([^()]*\)/g, '()');
}

/**
 * Two lists of named parts compared name by name: true where each part equals the other's of its name; null where
 * they do not name the same parts, each once (another rule weighs them).
 */
export function pairedByName(gold: readonly Answer[], pred: readonly Answer[], equal: (x: Answer, y: Answer) => boolean): boolean | null {
  const named = (items: readonly Answer[]): Map<string, Answer> | null => {
    const byName = new Map<string, Answer>();
    for (const item of items) {
      if (item.kind !== 'relation' || byName.has(labelKey(item))) return null;
      byName.set(labelKey(item), item);
    }
    return byName;
  };
  const [g, p] = [named(gold), named(pred)];
  if (g === null || p === null || g.size !== p.size || [...g.keys()].some((name) => !p.has(name))) return null;
  return [...g].every(([name, part]) => {
    const other = p.get(name);
    return other !== undefined && equal(part, other);
  });
}
