/** Settings of the roles' prompts: a user's template in place of a role's built-in one. */
import { InvalidArgumentError } from 'commander';
import type { RunConfig } from '../config.ts';
import { readPromptTemplates } from '../files/prompt-files.ts';
import { setting } from '../setting.ts';

/** `ROLE=FILE`, checked for its form; a repeated flag adds to the list. */
function roleFiles(value: string, previous: string[] | undefined): string[] {
  if (!/^[a-z][\w-]*=.+$/.test(value.trim())) throw new InvalidArgumentError('expected ROLE=FILE (e.g. synthesis=./synthesis.jinja)');
  return [...(previous ?? []), value];
}

/** What identifies the templates of a run: the SHA-256 of each, by role (where the files lie changes no call). */
function digests(config: RunConfig): Record<string, string> {
  return Object.fromEntries(Object.entries(config.loop.prompts).map(([role, template]) => [role, template.sha256]));
}

/** `--prompt ROLE=FILE`. */
export const PROMPT_SETTINGS = [
  setting<string[]>({
    flags: '--prompt <role=file>',
    section: 'loop',
    help:
      "replaces a role's user-message template by a Jinja template file (repeatable, one per role; tmas prompts --strategy S prints each role's built-in template " +
      'and its variables; docs/extending/prompts.md)',
    parse: roleFiles,
    shapesCalls: true,
    // The text is kept in the manifest: a resume renders it wherever the file is now.
    write: (config, specs) => void (config.loop.prompts = readPromptTemplates(specs ?? [])),
    resume: [{ read: digests, write: (target, source) => void (target.loop.prompts = structuredClone(source.loop.prompts)) }],
  }),
];
