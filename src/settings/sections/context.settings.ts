/** Settings of the context budget: the window, the tokenizer that counts it, and the completion limit. */
import { UserError } from '../../kernel/errors.ts';
import { checkEncoding } from '../../pool/pool.ts';
import { runTokenizerAt } from '../files/tokenizer-file.ts';
import { integer } from '../parsers.ts';
import { field } from '../field.ts';
import { setting } from '../setting.ts';
import { fileIdentity, filePlace, TOKENIZER_FILE } from '../files/file-identity.ts';

/** `--max-tokens`, `--tokenizer`, `--tokenizer-path`, `--completion-max-tokens`. */
export const CONTEXT_SETTINGS = [
  setting<string>({
    flags: '--tokenizer <name>',
    section: 'context',
    help: 'tokenizer for the context budget: o200k_base, cl100k_base or p50k_base',
    default: 'o200k_base',
    shapesCalls: true,
    // --tokenizer-path, when given, is the tokenizer (its entry below sets it).
    write: (config, name, { flags }) => {
      if (flags.tokenizerPath === undefined) Object.assign(config.context, { tokenizer: checkEncoding(name as string), tokenizerDigest: null });
    },
    givenAlsoBy: ['tokenizerPath'],
    // A tokenizer file is the same one wherever it lies (its digest); a tiktoken encoding, its name.
    resume: [fileIdentity(TOKENIZER_FILE)],
  }),
  setting<string>({
    flags: '--tokenizer-path <dir|file>',
    section: 'context',
    help: "the model's own Hugging Face tokenizer for the context budget: a directory with tokenizer.json (and tokenizer_config.json), or the file; read from disk, never downloaded",
    shapesCalls: false,
    write: (config, given) => {
      if (given !== undefined) Object.assign(config.context, runTokenizerAt(given));
    },
    resume: [filePlace(TOKENIZER_FILE)],
  }),
  setting<number>({
    flags: '--max-tokens <n>',
    section: 'context',
    help: "the model's context window in tokens",
    parse: integer(512),
    default: 131_072,
    shapesCalls: true,
    field: field('context', 'window'),
  }),
  setting<number | 'window', number | null>({
    flags: '--completion-max-tokens <n>',
    section: 'context',
    help: "completion limit of every call but the judge's; 'window': what the window leaves, whatever the strategy's upstream budget",
    defaultText: "the strategy's upstream budget, e.g. rse 38912; else what the window leaves",
    parse: (value) => (value === 'window' ? 'window' : integer(16)(value)),
    shapesCalls: true,
    field: field('context', 'completionMaxTokens'),
    resolve: (limit, { strategy, flags }) => {
      // A limit given that the window cannot hold leaves no room for a prompt: a mistake, where a strategy's upstream budget is cut to fit.
      const window = Number(flags['maxTokens'] ?? 131_072);
      if (typeof limit === 'number' && limit >= window) throw new UserError('TMAS_USAGE', `--completion-max-tokens ${limit} is not below the context window (--max-tokens ${window}): no prompt would fit beside it. Give a smaller limit, or 'window' for what the window leaves.`);
      return limit === 'window' ? null : (limit ?? strategy.completionMaxTokens ?? null);
    },
    before: null,
  }),
];
