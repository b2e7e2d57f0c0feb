/**
 * The module of agent overrides a run uses (`--agents FILE`), as its manifest
 * names it: the file's absolute path (what a resume loads) and a digest of
 * what the file holds.
 *
 * The digest, not the path, says whether a resume runs the same agents. So a
 * run directory copied to another machine, with its module copied elsewhere,
 * resumes with `--agents` at the new place as no change of setting, and a
 * module edited in place since the run started is noticed before it shapes a
 * call. Only the module's own file is hashed: what it imports is the user's to
 * keep the same.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { RunConfig } from './config.ts';
import { UserError } from '../kernel/errors.ts';

/** The agents fields of a run's configuration. */
export type RunAgents = Pick<RunConfig, 'agents' | 'agentsDigest'>;

/** The module named by `--agents` (resolved from the working directory), with its digest. */
export function runAgentsAt(given: string): Required<RunAgents> {
  const file = path.resolve(given);
  let text: Buffer;
  try {
    text = readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new UserError('TMAS_AGENTS', `The agents module ${file} (--agents) cannot be read: ${code}. Give the path of a .ts or .js module.`, { cause: error });
  }
  return { agents: file, agentsDigest: agentsDigest(text) };
}

/** `sha256:` + the hex digest of the module's text. */
function agentsDigest(text: Buffer): string {
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/**
 * Checks, before a resume or a replay starts, that the agents module of
 * `config` (a stored run's) is where the manifest says and holds what it held.
 * A user error says what to give when it is not. With `force` (a resume's
 * `--force`), a changed module is accepted and its digest recorded: calls its
 * agents make differently are then issued anew.
 */
export function checkRunAgents<C extends RunAgents>(config: C, runDir: string, options: { force: boolean; command: string }): C {
  if (config.agents === undefined) return config;
  const file = config.agents;
  const recorded = config.agentsDigest;
  const hint = `give ${options.command} --agents with the module the run started with`;
  if (!existsSync(file)) {
    throw new UserError(
      'TMAS_AGENTS',
      `The run in ${runDir} uses the agents module ${file}${recorded === undefined ? '' : ` (${shortDigest(recorded)})`}, which is not there: the run or the module was moved. To go on, ${hint}.`,
    );
  }
  // A run started before modules had digests is taken at its word: its path is all it named.
  if (recorded === undefined) return config;
  const now = runAgentsAt(file).agentsDigest;
  if (now === recorded) return config;
  if (options.force) return { ...config, agentsDigest: now };
  throw new UserError(
    'TMAS_AGENTS',
    `The agents module ${file} has changed since the run in ${runDir} started: it holds ${shortDigest(now)}, the run used ${shortDigest(recorded)}. To go on, ${hint}; or add --force to continue with it as it is now (calls its agents make differently are issued anew).`,
  );
}

/** The digest as a message shows it: enough hex to tell two modules apart. */
function shortDigest(digest: string): string {
  return digest.slice(0, 'sha256:'.length + 12);
}
