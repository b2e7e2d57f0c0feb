/** Python's str.replace(), and how many replacements it would make, for a bound before it is made. */
import { pyLength } from './python-str.ts';

/**
 * Python's str.replace(): every `old` in `text` (the first `count` of them, when count is not negative) by
 * `replacement`; an empty `old` stands before each character and after the last, characters as Python counts them.
 * Made by splitting and joining, never by adding to a text piece by piece: that made a rope of millions of pieces,
 * and a replace of 8 million characters took 4 s (jinja2: milliseconds).
 */
export function pyReplace(text: string, old: string, replacement: string, count = -1): string {
  const most = count < 0 ? Infinity : count;
  if (old === '') {
    const chars = Array.from(text);
    if (most >= chars.length + 1) return replacement + chars.join(replacement) + replacement;
    return chars.slice(0, most).map((char) => replacement + char).join('') + chars.slice(most).join('');
  }
  if (most === Infinity) return text.split(old).join(replacement);
  const pieces: string[] = [];
  let at = 0;
  for (let found = text.indexOf(old); found >= 0 && pieces.length < most; found = text.indexOf(old, at)) {
    pieces.push(text.slice(at, found));
    at = found + old.length;
  }
  return pieces.length === 0 ? text : pieces.join(replacement) + replacement + text.slice(at);
}

/** How many `old` pyReplace replaces in `text` (at most `count` when not negative): what a caller bounds the result by before it is made. */
export function replacements(text: string, old: string, count = -1): number {
  const most = count < 0 ? Infinity : count;
  if (old === '') return Math.min(most, pyLength(text) + 1);
  // As many as fit in the text, when that is few enough; else counted by the engine's split (a search per one took 150 ns).
  if (text.length / old.length <= most) return text.split(old).length - 1;
  let made = 0;
  for (let found = text.indexOf(old); found >= 0 && made < most; found = text.indexOf(old, found + old.length)) made++;
  return made;
}
