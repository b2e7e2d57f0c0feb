/**
 * The protocol a run followed, as metrics.json and the report state it: what
 * a reader needs to know whether two runs' figures compare (strategy and its
 * options, N, M, T, ε, sampling, seed, models, how candidates were graded).
 */
import type { LoopSettings, StrategySampling } from '../../machines/contract.ts';
import { STRATEGIES } from '../../machines/strategies/index.ts';
import { ENDPOINT_SLOTS, type EndpointSlot } from '../kernel/slots.ts';
import { VERSION } from '../kernel/version.ts';
import type { RunConfig } from './config.ts';
import { loopSettingsOf } from './problem-inputs.ts';

/** The protocol block of metrics.json: the loop settings every problem ran with, and what else shapes the figures. */
export interface RunProtocol extends LoopSettings {
  tmasVersion: string;
  strategy: string;
  /** Words per shingle of the bank deduplication, and each bank's cap (0: none). */
  jaccardShingle: number;
  bankMaxRecords: number;
  contextWindow: number;
  tokenizer: string;
  /** Model per endpoint slot ('simulated' for the embedded simulator). */
  models: Record<EndpointSlot, string>;
  /**
   * Sampling per endpoint slot: the temperature the calls used, and the
   * top_p/top_k the strategy declares as its upstream defaults (absent when it declares none).
   */
  sampling: Record<EndpointSlot, SlotSampling>;
  /** Completion limit of the non-judge calls; null: what the window leaves. */
  completionMaxTokens: number | null;
  /** `judge`: Pass@1 is the LLM judge's; `rule`: the rule-based grader's. */
  grading: 'judge' | 'rule';
  judge: { model: string; passes: number; maxTokens: number | null; independent: boolean } | null;
}

/** The sampling of one endpoint slot. */
export type SlotSampling = { temperature: number } & Pick<StrategySampling, 'topP' | 'topK'>;

/** The protocol of a run from its configuration. */
export function runProtocol(config: RunConfig): RunProtocol {
  const modelOf = (slot: EndpointSlot) => (config.endpoints[slot]?.baseUrl === null ? 'simulated' : (config.endpoints[slot]?.model ?? ''));
  const passes = config.judgePasses ?? 0;
  const { judge, solution } = config.endpoints;
  return {
    tmasVersion: VERSION,
    strategy: config.strategy ?? 'tmas',
    ...loopSettingsOf(config),
    jaccardShingle: config.jaccardShingle ?? 3,
    bankMaxRecords: config.bankMaxRecords ?? 0,
    contextWindow: config.maxTokens,
    tokenizer: config.tokenizer,
    models: Object.fromEntries(ENDPOINT_SLOTS.map((slot) => [slot, modelOf(slot)])) as Record<EndpointSlot, string>,
    sampling: Object.fromEntries(ENDPOINT_SLOTS.map((slot) => [slot, samplingOf(config)])) as Record<EndpointSlot, SlotSampling>,
    completionMaxTokens: config.completionMaxTokens ?? null,
    grading: passes > 0 ? 'judge' : 'rule',
    judge:
      passes > 0
        ? { model: modelOf('judge'), passes, maxTokens: config.judgeMaxTokens ?? null, independent: judge.baseUrl !== solution.baseUrl || judge.model !== solution.model }
        : null,
  };
}

function samplingOf(config: RunConfig): SlotSampling {
  const declared = STRATEGIES[config.strategy ?? 'tmas']?.sampling ?? {};
  return {
    temperature: config.temperature,
    ...(declared.topP === undefined ? {} : { topP: declared.topP }),
    ...(declared.topK === undefined ? {} : { topK: declared.topK }),
  };
}
