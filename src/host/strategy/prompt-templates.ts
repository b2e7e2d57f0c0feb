/**
 * Users' templates of roles' user messages (`tmas run --prompt ROLE=FILE`).
 * A file is read and hashed when the run is configured, and its text kept in
 * the manifest, so a resume or a replay renders the same template wherever the
 * file is now. Before any call it is checked against the strategy's role (it
 * parses, it reads only the role's variables, it renders on sample values) and
 * put in place of the role's built-in template: both are rendered by the same
 * path (the user's with jinja2's defaults, the built-in with trim_blocks and
 * lstrip_blocks, as it is written), and a call's journal key hashes the
 * template, so a changed template is a changed call.
 */
import { createRoleMachine, type RoleDefinition } from '../../../machines/role.machine.ts';
import { templatePrompt } from '../../../machines/role-template.ts';
import type { Strategy } from '../../../machines/contract.ts';
import { UserError } from '../../kernel/errors.ts';
import type { LoopConfig } from '../../settings/config.ts';
import { readPromptTemplates, splitPromptSpec } from '../../settings/files/prompt-files.ts';
import { checkTemplate } from './template-check.ts';

/** The role the judge's calls run as: its prompt is the shared grading's, not a method's. */
const JUDGE_ROLE = 'judge';

/** The roles of a strategy whose user message is a template (what `--prompt` may name). */
export function templatedRoles(strategy: Strategy): string[] {
  return Object.keys(strategy.roles).filter((role) => strategy.definitions?.[role]?.template !== undefined);
}

function roleProblem(strategy: Strategy, role: string, file: string): UserError | null {
  const roles = `The ${strategy.name} strategy's roles with a template: ${templatedRoles(strategy).join(', ')}.`;
  if (role === JUDGE_ROLE) {
    return new UserError(
      'TMAS_PROMPT',
      `--prompt ${role}=${file}: the judge's prompt is part of the shared grading, the same for every strategy, so --prompt cannot replace it. ${roles}`,
    );
  }
  if (!(role in strategy.roles)) return new UserError('TMAS_PROMPT', `--prompt ${role}=${file}: the ${strategy.name} strategy has no ${role} role. ${roles}`);
  if (strategy.definitions?.[role]?.template === undefined) {
    return new UserError('TMAS_PROMPT', `--prompt ${role}=${file}: the ${role} role's prompt is code of its own (an --agents module replaced it), not a template. ${roles}`);
  }
  return null;
}

/**
 * The strategy with the templates of `prompts` in place of its roles' built-in
 * ones. Throws TMAS_PROMPT, before anything runs, for a role the strategy
 * lacks and for a template that does not check, naming its file and line.
 */
export function applyPromptTemplates(strategy: Strategy, prompts: LoopConfig['prompts']): Strategy {
  if (Object.keys(prompts).length === 0) return strategy;
  const roles = { ...strategy.roles };
  const definitions: Record<string, RoleDefinition> = { ...strategy.definitions };
  for (const [role, given] of Object.entries(prompts)) {
    const refused = roleProblem(strategy, role, given.file);
    if (refused) throw refused;
    const definition = definitions[role] as RoleDefinition & Required<Pick<RoleDefinition, 'template'>>;
    const problem = checkTemplate(given.template, definition.template.variables);
    if (problem) {
      throw new UserError(
        'TMAS_PROMPT',
        `${given.file}:${problem.line}: the template of the ${role} role: ${problem.what}. The ${role} role's variables: ${Object.keys(definition.template.variables).join(', ')} ` +
          `(tmas prompts --strategy ${strategy.name} --role ${role} prints them with its built-in template). Fix the file, or leave --prompt ${role}=… out.`,
      );
    }
    // A user's template renders as Python's jinja2 renders it by default, as the paper's code that wrote it did.
    const template = { ...definition.template, source: given.template, whitespace: 'jinja2' as const };
    const replaced: RoleDefinition = { ...definition, template, prompt: templatePrompt(template) };
    roles[role] = createRoleMachine(replaced);
    definitions[role] = replaced;
  }
  return { ...strategy, roles, definitions };
}

/** The `--prompt` specs that name a role of `strategy`: what `tmas table1` gives each method's run. */
export function promptSpecsFor(strategy: Strategy, specs: readonly string[]): string[] {
  return specs.filter((spec) => splitPromptSpec(spec).role in strategy.roles);
}

/**
 * Checks `--prompt` for several strategies at once (`tmas table1`), before
 * any of them runs: each spec names a role that one of them has, and its
 * template checks against every one that has it.
 */
export function checkPromptsOf(strategies: readonly Strategy[], specs: readonly string[]): void {
  for (const spec of specs) {
    const { role, file } = splitPromptSpec(spec);
    const having = strategies.filter((strategy) => role in strategy.roles);
    const first = strategies[0];
    if (role === JUDGE_ROLE && first) throw roleProblem(first, role, file) as UserError;
    if (having.length === 0) {
      const roles = strategies.map((strategy) => `${strategy.name}: ${templatedRoles(strategy).join(', ')}`).join('; ');
      throw new UserError('TMAS_PROMPT', `--prompt ${spec}: none of the strategies has a ${role} role. Their roles with a template: ${roles}.`);
    }
  }
  for (const strategy of strategies) {
    const specsOf = promptSpecsFor(strategy, specs);
    if (specsOf.length > 0) applyPromptTemplates(strategy, readPromptTemplates(specsOf));
  }
}
