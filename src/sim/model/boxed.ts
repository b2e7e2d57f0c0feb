/**
 * Reading and writing the `\boxed{}` final answer. The simulated verifier reads
 * a candidate's answer with the same rule the runtime applies to solutions: the
 * last `\boxed{...}`, braces balanced.
 */

const OPEN = '\\boxed{';

/** The content of the last balanced `\boxed{...}` in `text`, or null when there is none. */
export function lastBoxed(text: string): string | null {
  let from = text.length;
  while (from >= 0) {
    const at = text.lastIndexOf(OPEN, from);
    if (at < 0) return null;
    const content = balancedFrom(text, at + OPEN.length);
    if (content !== null) return content.trim();
    from = at - 1;
  }
  return null;
}

function balancedFrom(text: string, start: number): string | null {
  let depth = 1;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\') {
      i++; // an escaped brace does not count
    } else if (ch === '{') {
      depth++;
    } else if (ch === '}') {
      depth--;
      if (depth === 0) return text.slice(start, i);
    }
  }
  return null;
}

/** The final-answer line of a solution. */
export function boxedLine(answer: string): string {
  return `Therefore, the final answer is \\boxed{${answer}}.`;
}
