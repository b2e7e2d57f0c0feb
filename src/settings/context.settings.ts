/** Settings of the context budget: the window, the tokenizer that counts it, and the completion limit. */
import { checkEncoding } from '../pool/pool.ts';
import { runTokenizerAt } from '../host/run-tokenizer.ts';
import { integer } from './parsers.ts';
import { setting } from './setting.ts';
import { fileIdentity, filePlace } from './file-identity.ts';

/** `--max-tokens`, `--tokenizer`, `--tokenizer-path`, `--completion-max-tokens`. */
export const CONTEXT_SETTINGS = [
  setting<string>({
    flags: '--tokenizer <name>',
    section: 'context',
    help: 'tokenizer for the context budget: o200k_base, cl100k_base or p50k_base',
    default: 'o200k_base',
    shapesCalls: true,
    // --tokenizer-path, when given, is the tokenizer (its entry below sets it).
    toConfig: (name, { flags }) => (flags.tokenizerPath === undefined ? { tokenizer: checkEncoding(name as string) } : {}),
    givenAlsoBy: ['tokenizerPath'],
    // A tokenizer file is the same one wherever it lies (its digest); a tiktoken encoding, its name.
    resume: [fileIdentity('tokenizer', 'tokenizerDigest')],
  }),
  setting<string>({
    flags: '--tokenizer-path <dir|file>',
    section: 'context',
    help: "the model's own Hugging Face tokenizer for the context budget: a directory with tokenizer.json (and tokenizer_config.json), or the file; read from disk, never downloaded",
    shapesCalls: false,
    toConfig: (given) => (given === undefined ? {} : runTokenizerAt(given)),
    resume: [filePlace('tokenizer')],
  }),
  setting<number>({ flags: '--max-tokens <n>', section: 'context', help: "the model's context window in tokens", parse: integer(512), default: 131_072, shapesCalls: true, config: 'maxTokens' }),
  setting<number>({
    flags: '--completion-max-tokens <n>',
    section: 'context',
    help: "completion limit of every call but the judge's",
    defaultText: "the strategy's upstream budget, e.g. rse 38912; else what the window leaves",
    parse: integer(16),
    shapesCalls: true,
    config: 'completionMaxTokens',
    // Absent when there is no limit, so older call keys stay as they were.
    resolve: (limit, { strategy }) => limit ?? strategy.completionMaxTokens,
  }),
];
