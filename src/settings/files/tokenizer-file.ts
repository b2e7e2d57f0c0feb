/**
 * The model's tokenizer a run counts with (`--tokenizer-path`), as its
 * manifest names it: the file (`hf:` + its absolute path, which tells the
 * pool's threads what to load) and a digest of what the file holds.
 *
 * The digest, not the path, is what shapes the run's calls. So a run
 * directory copied to another machine resumes and replays with the same
 * tokenizer found at another path (`--tokenizer-path` there), and a
 * different tokenizer left at the old path is noticed before it fits a
 * single prompt differently.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ContextConfig } from '../config.ts';
import { checkRecordedFile, sha256Of, shortDigest } from './digest.ts';
import { UserError } from '../../kernel/errors.ts';
import { hfTokenizerName } from '../../pool/pool.ts';
import { HF_PREFIX, isHfTokenizerName } from '../../../workers/hf-tokenizer.ts';
import { GIVE_INSTEAD, tokenizerFileProblem } from '../../../workers/hf-tokenizer-file.ts';

/** The tokenizer fields of a run's configuration. */
export type RunTokenizer = Pick<ContextConfig, 'tokenizer' | 'tokenizerDigest'>;

/**
 * What identifies the tokenizer in the keys of the run's calls and in its
 * evaluation record (metrics.json): a tiktoken encoding's name, or the digest of a model's tokenizer
 * (its path in runs made before tokenizers had digests, whose journals are
 * keyed so).
 */
export function tokenizerIdentity(config: RunTokenizer): string {
  return config.tokenizerDigest === null ? config.tokenizer : `${HF_PREFIX}${config.tokenizerDigest}`;
}

/** The tokenizer named by `--tokenizer-path` (a directory holding tokenizer.json, or the file), with its digest. */
export function runTokenizerAt(given: string): { tokenizer: string; tokenizerDigest: string } {
  const tokenizer = hfTokenizerName(given);
  return { tokenizer, tokenizerDigest: tokenizerDigest(tokenizer.slice(HF_PREFIX.length)) };
}

/**
 * `sha256:` + the hex digest of tokenizer.json and of the tokenizer_config.json
 * beside it (its added tokens count too): the content, not the path, so the
 * same tokenizer is named alike on every machine.
 */
export function tokenizerDigest(file: string): string {
  const configFile = path.join(path.dirname(file), 'tokenizer_config.json');
  const hasConfig = existsSync(configFile);
  // A file replaced since the run started by a pipe or a model's weights would be read forever, or whole.
  for (const read of hasConfig ? [file, configFile] : [file]) {
    const problem = tokenizerFileProblem(read, { json: false });
    if (problem !== null) throw new UserError('TMAS_TOKENIZER', `Cannot read the tokenizer ${file} (--tokenizer-path): ${problem}. To go on, ${GIVE_INSTEAD}.`);
  }
  return sha256Of(readFileSync(file), ...(hasConfig ? ['\0tokenizer_config.json\0', readFileSync(configFile)] : []));
}

/**
 * Checks, before a resume or a replay starts, that the tokenizer of `config`
 * (a stored run's) is where the manifest says and holds what it held. A user
 * error says what to give when it is not: the run was moved, or its tokenizer.
 * With `force` (a resume's `--force`), a changed file is accepted and its
 * digest recorded: calls whose prompts it fits differently are then issued anew.
 */
export function checkRunTokenizer<C extends RunTokenizer>(config: C, runDir: string, options: { force: boolean; command: string }): C {
  if (!isHfTokenizerName(config.tokenizer)) return config;
  const file = config.tokenizer.slice(HF_PREFIX.length);
  const recorded = config.tokenizerDigest;
  const hint = `give ${options.command} --tokenizer-path with the tokenizer the run started with (a directory holding that tokenizer.json, or the file)`;
  const digest = checkRecordedFile(file, recorded, () => tokenizerDigest(file), {
    force: options.force,
    missing: () =>
      new UserError(
        'TMAS_TOKENIZER',
        `The run in ${runDir} counts tokens with the tokenizer ${file}${recorded === null ? '' : ` (${shortDigest(recorded)})`}, which is not there: the run or the tokenizer was moved. To go on, ${hint}.`,
      ),
    changed: (now) =>
      new UserError(
        'TMAS_TOKENIZER',
        `The tokenizer ${file} is not the one the run in ${runDir} started with: it holds ${shortDigest(now)}, the run counted with ${shortDigest(recorded ?? '')}. To go on, ${hint}; or add --force to continue with this one (calls whose prompts it fits differently are issued anew).`,
      ),
  });
  return digest === recorded ? config : { ...config, tokenizerDigest: digest };
}

/**
 * A stored run's configuration with its tokenizer found at `given` instead
 * (a replay's `--tokenizer-path`): refused unless it is the same tokenizer.
 */
export function relocateRunTokenizer<C extends RunTokenizer>(config: C, given: string, runDir: string): C {
  if (!isHfTokenizerName(config.tokenizer)) {
    throw new UserError('TMAS_USAGE', `--tokenizer-path: the run in ${runDir} counts tokens with ${config.tokenizer}, not with a model's tokenizer; leave the flag out.`);
  }
  const located = runTokenizerAt(given);
  if (config.tokenizerDigest !== null && located.tokenizerDigest !== config.tokenizerDigest) {
    throw new UserError(
      'TMAS_TOKENIZER',
      `--tokenizer-path ${given} holds another tokenizer than the run in ${runDir} started with: ${shortDigest(located.tokenizerDigest)}, the run counted with ${shortDigest(config.tokenizerDigest)}.`,
    );
  }
  return { ...config, ...located };
}
