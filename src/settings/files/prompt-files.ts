/**
 * The template files of `--prompt ROLE=FILE`, read when a run is configured:
 * each file's text and digest are kept in the manifest, so a resume or a
 * replay renders the same template wherever the file is now (the host checks
 * each against its role before any call: host/strategy/prompt-templates.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { UserError } from '../../kernel/errors.ts';
import type { PromptTemplateFile } from '../config.ts';
import { sha256Of } from './digest.ts';

/** `ROLE=FILE` as given: the role and the file. Throws TMAS_PROMPT when it is not of that form. */
export function splitPromptSpec(spec: string): { role: string; file: string } {
  const at = spec.indexOf('=');
  const role = spec.slice(0, Math.max(0, at)).trim();
  const file = spec.slice(at + 1).trim();
  if (at < 0 || !/^[a-z][\w-]*$/.test(role) || file === '') {
    throw new UserError('TMAS_PROMPT', `--prompt ${spec}: give ROLE=FILE, a role of the strategy and the template's file (e.g. --prompt synthesis=./synthesis.jinja).`);
  }
  return { role, file };
}

/** Reads each `ROLE=FILE` of `--prompt`: the configuration's `prompts`. */
export function readPromptTemplates(specs: readonly string[]): Record<string, PromptTemplateFile> {
  const prompts: Record<string, PromptTemplateFile> = {};
  for (const spec of specs) {
    const { role, file: given } = splitPromptSpec(spec);
    const file = path.resolve(given);
    if (prompts[role]) throw new UserError('TMAS_PROMPT', `--prompt names the ${role} role twice (${prompts[role].file} and ${file}): give one template per role.`);
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      throw new UserError('TMAS_PROMPT', `The template ${file} (--prompt ${role}=${given}) cannot be read: ${code}. Give the path of a Jinja template file.`, { cause: error });
    }
    // Line ends as jinja2 reads them: a file saved with CRLF renders as one saved with LF.
    prompts[role] = { file, sha256: sha256Of(bytes), template: bytes.toString('utf8').replace(/\r\n?/g, '\n') };
  }
  return prompts;
}
