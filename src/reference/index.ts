/**
 * The reference pages in docs/reference/, generated from the code: the
 * command line, the error codes, the messages and the RL export's labels. `npm run docs` writes
 * them; a test fails when a page on disk is not what the code gives.
 */
import { createProgram, declareAllLateOptions } from '../cli/program.ts';
import { renderCliReference } from './cli.ts';
import { renderErrorReference } from './errors.ts';
import { renderMessageReference } from './messages.ts';
import { renderRlLabelReference } from './rl-labels.ts';

/** Each page's path under the package root, and its text. */
export async function renderReference(): Promise<Record<string, string>> {
  const program = createProgram();
  await declareAllLateOptions(program);
  return {
    'docs/reference/cli.md': renderCliReference(program),
    'docs/reference/errors.md': renderErrorReference(),
    'docs/reference/messages.md': renderMessageReference(),
    'docs/reference/rl-labels.md': renderRlLabelReference(),
  };
}
