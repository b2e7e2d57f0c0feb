/**
 * Sampling flags given to a run under `--openai-reasoning`: refused rather than recorded. That dialect
 * sends no temperature, top_p, top_k or min_p (OpenAI's reasoning models refuse any but their
 * defaults), so a `--temperature 0.6` beside it was never sent, without a word, while the run's
 * manifest and metrics.json recorded it as the run's sampling.
 */
import type { RunConfig } from '../config.ts';
import { UserError } from '../../kernel/errors.ts';
import { ENDPOINT_SLOTS, slotFlag, slotOption, type SamplingSetting } from '../../kernel/slots.ts';

/** The sampling flags the reasoning dialect does not send (`--extra-body` is sent in every dialect). */
const UNSENT: readonly SamplingSetting[] = ['temperature', 'top-p', 'top-k', 'min-p'];

/** Throws TMAS_USAGE naming the sampling flags given on this command line (`given`) that the run's dialect does not send. */
export function refuseSamplingUnsent(config: Pick<RunConfig, 'gateway'>, given: ReadonlySet<string>): void {
  if (config.gateway.dialect !== 'openai-reasoning') return;
  const flags = ENDPOINT_SLOTS.flatMap((slot) => UNSENT.filter((setting) => given.has(slotOption(slot, setting))).map((setting) => slotFlag(slot, setting)));
  if (flags.length === 0) return;
  const named = flags.join(', ');
  throw new UserError(
    'TMAS_USAGE',
    `--openai-reasoning sends no temperature, top_p, top_k or min_p (OpenAI's reasoning models refuse any but their defaults), so ${named} would not be sent, while the run recorded ${flags.length === 1 ? 'it' : 'them'} as its sampling. ` +
      `Leave ${named} out, or leave out --openai-reasoning for a server that takes ${flags.length === 1 ? 'it' : 'them'} (an endpoint that refuses them is switched to that dialect after its first refusal anyway, saying so).`,
  );
}
