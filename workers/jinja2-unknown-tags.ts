/**
 * Tags that jinja2 does not know by default and `@huggingface/jinja` reads:
 * `{% generation %}` (transformers' chat templates; the library drops it) and
 * `{% break %}` / `{% continue %}` (an extension of jinja2's). jinja2 refuses
 * such a template ("Encountered unknown tag 'generation'"); the library
 * rendered it, so a render in the pool gave a prompt where jinja2 gives none.
 * The host refuses them before a run with advice (template-check.ts); a
 * render fails on them here as jinja2's does.
 */

/** A node of the parsed template (the library exports no AST types). */
interface Node {
  type: string;
  [field: string]: unknown;
}

const GENERATION = /\{%[-+]?\s*(?:end)?generation\b/;

/** The first loop-control statement in the parsed tree, as its tag's name, or null. */
function loopControlIn(value: unknown): string | null {
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = loopControlIn(item);
      if (found !== null) return found;
    }
    return null;
  }
  if (typeof value !== 'object' || value === null || typeof (value as Node).type !== 'string') return null;
  const node = value as Node;
  if (node.type === 'Break' || node.type === 'Continue') return node.type.toLowerCase();
  return loopControlIn(Object.values(node));
}

/** The tag of `source` (parsed as `parsed`) that jinja2 does not know, or null. */
export function unknownTagOf(source: string, parsed: unknown): string | null {
  return GENERATION.test(source) ? 'generation' : loopControlIn(parsed);
}

/** jinja2's refusal of a template that uses `tag`. */
export function unknownTagError(tag: string): Error {
  return new SyntaxError(`Encountered unknown tag '${tag}'. jinja2 does not know it without an extension (its TemplateSyntaxError)`);
}
