/**
 * The warning a run deserves when it counts tokens with a built-in encoding
 * (no --tokenizer-path) for a model whose tokenizer counts some texts longer:
 * a prompt fitted with the encoding can then pass the server's window, and
 * the margin of 256 tokens covers a few hundred tokens, not a fraction of the
 * prompt. The figures are counts of the same text with o200k_base and with the
 * model's tokenizer.json (Qwen3's, Llama 3's, DeepSeek-V3's), measured once.
 */
import { isHfTokenizerName } from '../../workers/hf-tokenizer.ts';
import type { RunConfig } from './config.ts';

/** A model family by the words its names hold, and what its own tokenizer counts longer than o200k_base. */
const FAMILIES: ReadonlyArray<{ name: RegExp; family: string; longer: string }> = [
  { name: /qwen|qwq/i, family: 'Qwen', longer: 'it writes each digit as a token, so a run of digits counts up to 2.9 times as many tokens (3,080 against 1,080), Cyrillic 1.18 times' },
  { name: /llama/i, family: 'Llama 3', longer: 'Cyrillic counts 1.18 times as many tokens, Chinese and mixed Chinese with LaTeX 1.05-1.06 times' },
  { name: /deepseek/i, family: 'DeepSeek', longer: 'mixed Chinese with LaTeX counts 1.05 times as many tokens' },
];

/** The warning for the first role whose model's tokenizer counts longer than the run's built-in encoding; null with --tokenizer-path, or for other models. */
export function defaultTokenizerWarning(config: Pick<RunConfig, 'context' | 'roles'>): string | null {
  if (isHfTokenizerName(config.context.tokenizer)) return null;
  for (const endpoint of Object.values(config.roles.endpoints)) {
    if (endpoint.baseUrl === null) continue;
    const known = FAMILIES.find(({ name }) => name.test(endpoint.model));
    if (known === undefined) continue;
    return (
      `tmas: warning: prompts are counted with ${config.context.tokenizer}, but "${endpoint.model}" is a ${known.family} model, whose own tokenizer counts some texts longer: ${known.longer}. ` +
      `A prompt fitted to --max-tokens ${config.context.window} may then exceed the server's window (its calls are refused and fitted again, with fewer references). ` +
      `Give --tokenizer-path with the model's directory (its tokenizer.json) to count as the server does.`
    );
  }
  return null;
}
