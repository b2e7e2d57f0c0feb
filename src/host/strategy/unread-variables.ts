/**
 * A user's template that parses and renders but never puts the request into
 * its message: every call of the role would send the same words, and a run
 * would grade answers to a prompt without its problem. Two shapes of it:
 * a placeholder of Python's `str.format` (`{problem}`, as a paper's code
 * writes its prompts), which Jinja sends as it stands, and a template that
 * reads none of its role's variables at all.
 */
import type { TemplateVariable } from '../../../machines/role-template.ts';
import type { TemplateProblem } from './template-problem.ts';

/**
 * `{name}` outside any tag: not part of `{{ … }}`, not a LaTeX argument
 * (`\boxed{answer}`, `x^{n}`, `a_{k}`, `}{`), not a format escape (`{{name}}`).
 */
const FORMAT_PLACEHOLDER = /(?<![{}\\\w^_])\{\s*([A-Za-z_]\w*)\s*(?:![rsa])?(?::[^{}]*)?\}(?!\})/g;

/** The first `{name}` in `source` that names one of the role's variables, with its line: checked before the template is parsed, since such a file's `{{` escapes do not parse either. */
export function formatPlaceholder(source: string, variables: Readonly<Record<string, TemplateVariable>>): TemplateProblem | null {
  for (const match of source.matchAll(FORMAT_PLACEHOLDER)) {
    const name = match[1] as string;
    if (!Object.hasOwn(variables, name)) continue;
    const line = 1 + (source.slice(0, match.index).match(/\n/g)?.length ?? 0);
    return {
      line,
      what: `"${match[0]}" is a placeholder of Python's str.format, which a Jinja template sends as it stands, without the ${name}: write "{{ ${name} }}", and a brace the format string escaped as "{{" or "}}" as one brace`,
    };
  }
  return null;
}

/** Why a template that parses would send the same message for every request, or null: it reads none of its variables (`used`: the names its tags read). */
export function unreadVariables(variables: Readonly<Record<string, TemplateVariable>>, used: ReadonlySet<string>): TemplateProblem | null {
  const names = Object.keys(variables);
  if (names.length === 0 || names.some((name) => used.has(name))) return null;
  return { line: 1, what: `it reads none of the role's variables, so every call of the role would send the same message, without its problem: put "{{ ${names[0]} }}" where the ${names[0]} goes` };
}
