/**
 * The evaluation a run made, as metrics.json (its `evaluation` block) and the
 * report state it: what a reader needs to know whether two runs' figures
 * compare (strategy and its options, N, M, T, ε, sampling, seed, models, how
 * candidates were graded). Runs written before the block had this name wrote
 * it as `protocol`; the readers take either (src/report/metrics-file.ts).
 */
import path from 'node:path';
import type { JudgeWhen, LoopSettings } from '../../../machines/contract.ts';
import { JUDGE_VIEW_TOKENS } from '../../../machines/roles/judge.role.ts';
import { VERDICT_REUSE, type VerdictReuse } from '../../../machines/judge-stage.ts';
import { STRATEGIES } from '../../../machines/strategies/index.ts';
import { ENDPOINT_SLOTS, type EndpointSlot } from '../../kernel/slots.ts';
import { VERSION } from '../../kernel/version.ts';
import type { RunConfig } from '../../settings/config.ts';
import { loopSettingsOf } from '../problem-inputs.ts';
import { tokenizerIdentity } from '../../settings/files/tokenizer-file.ts';

/** The evaluation block of metrics.json: the loop settings every problem ran with, and what else shapes the figures. */
export interface EvaluationRecord extends LoopSettings {
  tmasVersion: string;
  strategy: string;
  /** Words per shingle of the bank deduplication, and each bank's cap (0: none). */
  jaccardShingle: number;
  bankMaxRecords: number;
  contextWindow: number;
  /** A tiktoken encoding, or a model's tokenizer by its content (`hf:sha256:…`), the same on every machine. */
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
  /** The SHA-256 of each user template given with `--prompt ROLE=FILE`, by role; empty when every role used its built-in prompt. */
  prompts: Record<string, string>;
  /** The `--agents` module that replaced roles of the strategy: its file's name and the SHA-256 of its text; null without one. */
  agents: { file: string; sha256: string | null } | null;
  /** `judge`: Pass@1 is the LLM judge's; `rule`: the rule-based grader's. */
  grading: 'judge' | 'rule';
  judge: JudgeGrading | null;
}

/** How the LLM judge graded (docs/concepts/shared-grading.md): the same for every strategy. */
export interface JudgeGrading {
  model: string;
  passes: number;
  maxTokens: number | null;
  /** The judge's own sampling, never the method's: `--judge-temperature` (its run's temperature in runs made before it), `--judge-top-p`. */
  temperature: number;
  topP: number | null;
  /**
   * What the judge reads of a response, in both modes and for every strategy: its final text after the
   * reasoning, at most `maxTokens` tokens (head and tail kept), never the extracted answer alone (runs of
   * journal version 5 and before read the extracted answer with --no-proof: `answer-else-final-text`);
   * `cut`: a response cut off before its end (at its length limit, or by the provider's content filter) is not sent to
   * the judge: it has no final answer, graded 0 (`no-answer`; runs of journal version 7 and before had `statesCut`:
   * the judge read it, told it was cut).
   */
  view: { reads: 'final-text'; maxTokens: number; cut: 'no-answer' };
  /** `always`: every candidate is judged; `unsure`: only those the rule-based grader is unsure of (or finds no answer in), the rule's verdict standing for the rest. */
  when: JudgeWhen;
  independent: boolean;
  /** When a verdict is reused rather than asked again (machines/judge-stage.ts), the same for every strategy. */
  verdictReuse: VerdictReuse;
}

/** The sampling of one endpoint slot. */
export type SlotSampling = { temperature: number; topP?: number; topK?: number; minP?: number };

/** The evaluation record of a run from its configuration. */
export function evaluationRecord(config: RunConfig): EvaluationRecord {
  const { endpoints } = config.roles;
  const modelOf = (slot: EndpointSlot) => (endpoints[slot].baseUrl === null ? 'simulated' : endpoints[slot].model);
  const { passes } = config.judge;
  const { judge, solution } = endpoints;
  const judgeSampling = samplingOf(config, 'judge');
  return {
    tmasVersion: VERSION,
    strategy: config.loop.strategy,
    ...loopSettingsOf(config),
    jaccardShingle: config.loop.jaccardShingle,
    // The cap the banks kept: a strategy's own (rse keeps every record) or the flag's.
    bankMaxRecords: STRATEGIES[config.loop.strategy]?.bankMaxRecords ?? config.loop.bankMaxRecords,
    contextWindow: config.context.window,
    tokenizer: tokenizerIdentity(config.context),
    models: Object.fromEntries(ENDPOINT_SLOTS.map((slot) => [slot, modelOf(slot)])) as Record<EndpointSlot, string>,
    sampling: Object.fromEntries(ENDPOINT_SLOTS.map((slot) => [slot, samplingOf(config, slot)])) as Record<EndpointSlot, SlotSampling>,
    completionMaxTokens: config.context.completionMaxTokens,
    prompts: Object.fromEntries(Object.entries(config.loop.prompts).map(([role, file]) => [role, file.sha256])),
    // The agents module that replaced roles, by its digest: the two sides of an ablation read apart here too.
    agents: config.loop.agents === null ? null : { file: path.basename(config.loop.agents), sha256: config.loop.agentsDigest },
    grading: passes > 0 ? 'judge' : 'rule',
    judge:
      passes > 0
        ? {
            model: modelOf('judge'),
            passes,
            maxTokens: config.judge.maxTokens,
            temperature: judgeSampling.temperature,
            topP: judgeSampling.topP ?? null,
            view: { reads: 'final-text', maxTokens: JUDGE_VIEW_TOKENS, cut: 'no-answer' },
            when: config.judge.when,
            independent: JSON.stringify(judge.baseUrl) !== JSON.stringify(solution.baseUrl) || judge.model !== solution.model,
            verdictReuse: VERDICT_REUSE,
          }
        : null,
  };
}

/** What a slot's calls were sampled with: the run's temperature unless the slot has its own, and the fields its requests carried. */
function samplingOf(config: RunConfig, slot: EndpointSlot): SlotSampling {
  const { temperature, topP, topK, minP } = config.roles.endpoints[slot].sampling;
  return {
    temperature: temperature ?? config.roles.temperature,
    ...(topP === null ? {} : { topP }),
    ...(topK === null ? {} : { topK }),
    ...(minP === null ? {} : { minP }),
  };
}
