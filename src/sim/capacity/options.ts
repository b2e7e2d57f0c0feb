/**
 * Settings of the capacity model, their defaults and their checks. The
 * defaults describe one H200 serving a ~30B-class reasoning model with vLLM;
 * they are approximations (docs/guide/simulated-model.md says where each
 * comes from).
 */

/** Settings of the capacity model; every field has a default, in CAPACITY_DEFAULTS. */
export interface CapacityOptions {
  /** Aggregate decode throughput D, tokens/s, shared equally by the sequences decoding. */
  decodeTokensPerSecond?: number;
  /** Per-sequence decode ceiling c, tokens/s. */
  sequenceTokensPerSecond?: number;
  /** KV cache capacity K, tokens (prompt + generated) across admitted sequences. */
  kvTokens?: number;
  /** Prefill throughput P, tokens/s, one sequence at a time. */
  prefillTokensPerSecond?: number;
  /** Median of the log-normal output length, tokens. */
  outputTokensMedian?: number;
  /** 99th percentile of the output length, tokens. */
  outputTokensP99?: number;
  /**
   * How much output lengths depend on the problem: each problem's calls share
   * a factor exp(spread × z), z drawn once per problem (a hard problem makes
   * every call think longer), on top of the per-call draw. 0: calls
   * independent of their problem.
   */
  outputTokensProblemSpread?: number;
  /**
   * Characters of streamed text per drawn output token: each reply's
   * reasoning is padded with prose to that length, as a thinking model's
   * text grows with its tokens, so a client that counts text sees the
   * decoding (the gateway's knee on servers without a token count).
   * 0: the text is the answer alone, however many tokens are drawn.
   */
  textCharsPerToken?: number;
  /** Simulated seconds per real second. */
  timeScale?: number;
}

/** Every setting, resolved. */
export type CapacitySettings = Required<CapacityOptions>;

/** The defaults, stated once: `tmas sim-server`'s and `tmas plan`'s settings read them. */
export const CAPACITY_DEFAULTS = {
  decodeTokensPerSecond: 8000,
  sequenceTokensPerSecond: 100,
  kvTokens: 2_000_000,
  prefillTokensPerSecond: 50_000,
  outputTokensMedian: 12_000,
  outputTokensP99: 60_000,
  outputTokensProblemSpread: 0,
  textCharsPerToken: 0,
  timeScale: 1,
} as const satisfies CapacitySettings;

/** The settings with defaults filled in; throws a TypeError naming the first bad field. */
export function resolveCapacity(options: CapacityOptions): CapacitySettings {
  const settings: CapacitySettings = { ...CAPACITY_DEFAULTS, ...definedOf(options) };
  for (const [field, value] of Object.entries(settings)) {
    // These may be 0: lengths independent of the problem, text as the answer makes it.
    const zeroAllowed = field === 'outputTokensProblemSpread' || field === 'textCharsPerToken';
    const least = zeroAllowed ? value >= 0 : value > 0;
    if (!least || !Number.isFinite(value)) throw new TypeError(`capacity.${field} must be a finite number ${zeroAllowed ? '>= 0' : '> 0'}, got ${value}`);
  }
  if (settings.outputTokensP99 < settings.outputTokensMedian) {
    throw new TypeError(`capacity.outputTokensP99 (${settings.outputTokensP99}) must be >= outputTokensMedian (${settings.outputTokensMedian})`);
  }
  return settings;
}

/** The settings in words, for a benchmark's table. */
export function describeCapacity(settings: CapacitySettings): string {
  const s = settings;
  return `D ${s.decodeTokensPerSecond} tok/s, ${s.sequenceTokensPerSecond} tok/s per sequence, ${s.kvTokens} KV tokens, prefill ${s.prefillTokensPerSecond} tok/s, outputs log-normal median ${s.outputTokensMedian} p99 ${s.outputTokensP99}, problem spread ${s.outputTokensProblemSpread}${s.textCharsPerToken > 0 ? `, text ${s.textCharsPerToken} chars/token` : ''}`;
}

function definedOf(options: CapacityOptions): CapacityOptions {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
}
