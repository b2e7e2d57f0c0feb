/**
 * The template files of `--prompt ROLE=FILE`, read when a run is configured:
 * each file's text and digest are kept in the manifest, so a resume or a
 * replay renders the same template wherever the file is now (the host checks
 * each against its role before any call: host/strategy/prompt-templates.ts).
 */
import { readFileSync, statSync } from 'node:fs';
import { kindOf } from '../../kernel/file-kind.ts';
import path from 'node:path';
import { UserError } from '../../kernel/errors.ts';
import type { PromptTemplateFile } from '../config.ts';
import { sha256Of } from './digest.ts';

/** The largest template file read: far more than any prompt's text. */
const MAX_TEMPLATE_BYTES = 4 * 2 ** 20;

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
    const refuse = (why: string, cause?: unknown) =>
      new UserError('TMAS_PROMPT', `The template ${file} (--prompt ${role}=${given}) cannot be read: ${why}. Give the path of a Jinja template file.`, cause === undefined ? undefined : { cause });
    let bytes: Buffer;
    try {
      // A FIFO or a device would be read forever; a template is a page of text.
      const stats = statSync(file);
      if (!stats.isFile()) throw refuse(`it is ${kindOf(stats)}`);
      if (stats.size > MAX_TEMPLATE_BYTES) throw refuse(`it holds ${stats.size} bytes, more than the ${MAX_TEMPLATE_BYTES} a template may`);
      bytes = readFileSync(file);
    } catch (error) {
      if (error instanceof UserError) throw error;
      throw refuse((error as NodeJS.ErrnoException).code ?? String(error), error);
    }
    let text: string;
    try {
      // A byte order mark is kept, as Python's open() keeps it.
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch (error) {
      // As Python's jinja2 refuses it: a byte that is not UTF-8 would be sent as a replacement character.
      throw refuse('it is not UTF-8 text (save it as UTF-8)', error);
    }
    // Line ends as jinja2 reads them: a file saved with CRLF renders as one saved with LF.
    prompts[role] = { file, sha256: sha256Of(bytes), template: text.replace(/\r\n?/g, '\n') };
  }
  return prompts;
}
