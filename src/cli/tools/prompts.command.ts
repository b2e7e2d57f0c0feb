/**
 * `tmas prompts --strategy S [--role R]`: each role's built-in user-message
 * template, in the Jinja a `--prompt ROLE=FILE` takes, headed by a Jinja
 * comment that lists the role's variables. A user's template renders with
 * jinja2's defaults, so a built-in one (written for trim_blocks and
 * lstrip_blocks) is printed rewritten for them; the comment renders to
 * nothing, so a role's section saved as a file is a template that renders
 * exactly the built-in prompt: the place to start a paper's template from.
 */
import { describeShape, type RoleTemplate } from '../../../machines/role-template.ts';
import { asJinja2Defaults } from '../../../workers/template-whitespace.ts';
import type { Strategy } from '../../../machines/contract.ts';
import { UserError } from '../../kernel/errors.ts';
import { strategyNamed } from '../../../machines/strategies/index.ts';
import { templatedRoles } from '../../host/strategy/prompt-templates.ts';

/** Width the comment's lines are wrapped to. */
const WIDTH = 100;

function wrap(text: string, indent: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line !== '' && indent.length + line.length + 1 + word.length > WIDTH) {
      lines.push(indent + line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(indent + line);
  return lines;
}

/** A role's template as a user's renders (jinja2's defaults). */
function jinja2Source(template: RoleTemplate<never, never>): string {
  return template.whitespace === 'jinja2' ? template.source : asJinja2Defaults(template.source);
}

/** A role's section: the comment that documents it, then its template. */
export function promptSection(strategy: Strategy, role: string, template: RoleTemplate<never, never>): string {
  const source = jinja2Source(template);
  const width = Math.max(...Object.keys(template.variables).map((name) => name.length));
  const variables = Object.entries(template.variables).flatMap(([name, variable]) => [
    `    ${name.padEnd(width)}  ${describeShape(variable.shape)}`,
    ...wrap(variable.about, `    ${' '.repeat(width)}  `),
  ]);
  return [
    '{#',
    ...wrap(`The ${role} role of ${strategy.name}: its user message${template.applies === undefined ? '' : `, for ${template.applies}`}. Its system message is not a template.`, '  '),
    '  Variables:',
    ...variables,
    ...wrap(
      "Rendered as Python's jinja2 renders by default (trim_blocks and lstrip_blocks off: a line that holds only a block tag leaves its newline; " +
        'the final newline of the file is dropped). This comment renders to nothing.',
      '  ',
    ),
    `  Use a copy with: tmas run --strategy ${strategy.name} --prompt ${role}=FILE`,
    // `-#}` also removes the newline after the comment, unless the template starts with whitespace of its own, which it would remove too.
    /^\s/.test(source) ? `#}${source}` : `-#}\n${source}`,
  ].join('\n');
}

/** Prints the built-in templates of `--strategy`'s roles (or of `--role` alone). */
export function runPromptsCommand(options: { strategy: string; role?: string }, io: { stdout(line: string): void }): void {
  const strategy = strategyNamed(options.strategy);
  const roles = templatedRoles(strategy);
  if (options.role !== undefined && !roles.includes(options.role)) {
    throw new UserError('TMAS_USAGE', `--role ${options.role}: the ${strategy.name} strategy has no ${options.role} role with a template. Its roles with a template: ${roles.join(', ')}.`);
  }
  const chosen = options.role === undefined ? roles : [options.role];
  const sections = chosen.map((role) => promptSection(strategy, role, strategy.definitions?.[role]?.template as unknown as RoleTemplate<never, never>));
  io.stdout(sections.join('\n\n'));
}
