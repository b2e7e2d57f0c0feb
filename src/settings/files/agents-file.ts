/**
 * The module of agent overrides a run uses (`--agents FILE`), as its manifest
 * names it: the file's absolute path (what a resume loads) and a digest of
 * what the file holds.
 *
 * The digest, not the path, says whether a resume runs the same agents. So a
 * run directory copied to another machine, with its module copied elsewhere,
 * resumes with `--agents` at the new place as no change of setting, and a
 * module edited in place since the run started is noticed before it shapes a
 * call. The digest covers the module's file and every local file it imports
 * (module-graph.ts): a helper edited between two forks made them read alike.
 * A run recorded before imports were hashed holds its file's digest alone, and
 * is checked by it as it was.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { LoopConfig } from '../config.ts';
import { checkRecordedFile, sha256Of, shortDigest } from './digest.ts';
import { moduleGraphDigest } from './module-graph.ts';
import { UserError } from '../../kernel/errors.ts';

/** The agents fields of a run's configuration. */
export type RunAgents = Pick<LoopConfig, 'agents' | 'agentsDigest'>;

/** The module named by `--agents` (resolved from the working directory), with its digest. */
export function runAgentsAt(given: string): { agents: string; agentsDigest: string } {
  const file = path.resolve(given);
  let text: Buffer;
  try {
    text = readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new UserError('TMAS_AGENTS', `The agents module ${file} (--agents) cannot be read: ${code}. Give the path of a .ts or .js module.`, { cause: error });
  }
  return { agents: file, agentsDigest: moduleGraphDigest(file, text) };
}

/** The module's digest now, or the recorded one where the run recorded its file's alone (before imports were hashed) and the file still holds it. */
function digestNow(file: string, recorded: string | null): string {
  const now = runAgentsAt(file).agentsDigest;
  return recorded !== null && recorded !== now && recorded === sha256Of(readFileSync(file)) ? recorded : now;
}

/**
 * Checks, before a resume or a replay starts, that the agents module of
 * `config` (a stored run's) is where the manifest says and holds what it held.
 * A user error says what to give when it is not. With `force` (a resume's
 * `--force`), a changed module is accepted and its digest recorded: calls its
 * agents make differently are then issued anew.
 */
export function checkRunAgents<C extends RunAgents>(config: C, runDir: string, options: { force: boolean; command: string }): C {
  if (config.agents === null) return config;
  const file = config.agents;
  const recorded = config.agentsDigest;
  const hint = `give ${options.command} --agents with the module the run started with`;
  const digest = checkRecordedFile(file, recorded, () => digestNow(file, recorded), {
    force: options.force,
    missing: () =>
      new UserError(
        'TMAS_AGENTS',
        `The run in ${runDir} uses the agents module ${file}${recorded === null ? '' : ` (${shortDigest(recorded)})`}, which is not there: the run or the module was moved. To go on, ${hint}.`,
      ),
    changed: (now) =>
      new UserError(
        'TMAS_AGENTS',
        `The agents module ${file} (or a local file it imports) has changed since the run in ${runDir} started: it holds ${shortDigest(now)}, the run used ${shortDigest(recorded ?? '')}. To go on, ${hint}; or add --force to continue with it as it is now (calls its agents make differently are issued anew).`,
      ),
  });
  return digest === recorded ? config : { ...config, agentsDigest: digest };
}
