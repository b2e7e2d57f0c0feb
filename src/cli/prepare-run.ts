/**
 * What `tmas run` does before the runtime starts: a new run validates its
 * input file; a resumed run (`--resume DIR`) reads its manifest and problems
 * from the store and merges the flags given on this command line.
 */
import type { Command } from 'commander';
import type { RunConfig, Secrets } from '../host/config.ts';
import { UserError } from '../kernel/errors.ts';
import { loadProblems, type Problem } from '../input/problems.ts';
import { checkProtocol, resumeConfig } from '../host/resume.ts';
import { Store } from '../store/store.ts';
import { toRunConfig, type RunFlags } from './run.command.ts';

/** A run ready to start. */
export interface PreparedRun {
  config: RunConfig;
  secrets: Secrets;
  problems: Problem[];
  resume: boolean;
}

/** The option names given on the command line (not defaults). */
function givenOptions(command: Command): Set<string> {
  return new Set(Object.keys(command.opts()).filter((name) => command.getOptionValueSource(name) === 'cli'));
}

/** Builds the configuration, the keys and the problems of a new or resumed run. Creates nothing on disk. */
export async function prepareRun(flags: RunFlags, command: Command, env: NodeJS.ProcessEnv): Promise<PreparedRun> {
  if (flags.resume === undefined) {
    const { config, secrets } = toRunConfig(flags, env);
    // Validate the input before anything is created on disk.
    const problems = await loadProblems(config.inputFile, { idColumn: config.columns.id, questionColumn: config.columns.question, answerColumn: config.columns.answer });
    return { config, secrets, problems, resume: false };
  }
  const runDir = flags.resume;
  const store = await Store.open(runDir).catch((error: unknown) => {
    if (error instanceof UserError) throw error;
    throw new UserError('TMAS_RESUME', `Cannot open ${runDir} to resume it: ${(error as Error).message}. Give the output directory of an earlier tmas run.`, { cause: error });
  });
  try {
    const manifest = await store.getManifest();
    if (!manifest) throw new UserError('TMAS_RESUME', `${runDir} holds no tmas run (no manifest in its store). Give the output directory of an earlier tmas run.`);
    checkProtocol(manifest, runDir);
    const problems = await store.loadProblems();
    const given = givenOptions(command);
    // The run's own strategy, unless this command changes it: its flags are read against that one.
    const strategy = given.has('strategy') ? flags.strategy : (manifest.config.strategy ?? 'tmas');
    const { config: requested, secrets } = toRunConfig({ ...flags, strategy, inputFile: manifest.config.inputFile, outputFile: runDir }, env);
    const config = resumeConfig(manifest.config, requested, given, { force: flags.force === true, runDir });
    return { config, secrets, problems, resume: true };
  } finally {
    await store.close();
  }
}
