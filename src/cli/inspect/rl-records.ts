/**
 * The RL training records of a run, one per generation: every journaled call
 * (a call that failed for good is never journaled, and each retry after an
 * unusable output is a generation of its own). Shaped as the TMAS release
 * shapes them: `prompt` the chat messages as sent, `response` the text with
 * the reasoning apart, `data_source` by what the generation is (its role's
 * declared kind, the same for every strategy: `math` for a solution,
 * `math_grm` for a verification, rating or judgement of one, `tmas_<role>`
 * for memory and planning), `reward_model` {ground_truth, style},
 * `extra_info` with the ids, the banks the prompt drew on and, for an output
 * its role could not use, why (analysis/unusable-outputs.ts), and `_source`.
 * Streamed in journal-key order, so an export never holds the run in memory.
 */
import type { CandidateResult } from '../../kernel/protocol.ts';
import type { Problem } from '../../input/problems.ts';
import { iterationKey, type BankRecord, type Store } from '../../store/store.ts';
import type { GenerationKind } from '../../../machines/role.machine.ts';
import { roleKinds, STRATEGIES } from '../../../machines/strategies/index.ts';
import { strategyOutline } from '../../host/strategy/strategy-outline.ts';
import { unusableCalls } from '../../analysis/unusable-outputs.ts';
import { gradedCandidateCorrect, gradeOf, writtenCandidate } from './rl-graded.ts';

/** One RL training record. */
export interface RlRecord {
  prompt: Array<{ role: string; content: string }>;
  response: string;
  /** The reasoning text of a reasoning model, kept apart from `response`; null when the model sent none. */
  reasoning: string | null;
  data_source: string;
  reward_model: { ground_truth: string | null; style: 'rule' | 'model' };
  extra_info: {
    problem_id: string;
    iteration: number;
    role: string;
    index: number;
    call_key: string;
    model: string;
    /** The candidate a solution, verification, summary or judge call is about; null for other calls. */
    candidate: number | null;
    /** For a solution (of any solution role: a rewrite, a proof, a synthesis, a rollout…): the answer, grade and score of the candidate it wrote; null for an output its role could not use (rl-graded.ts). */
    answer: string | null;
    correct: boolean | null;
    score: number | null;
    /** For a grading generation (verification, rating, critique, critic, evaluation, judge): the grade of the solution it read (what a GRM reward compares with); null when that solution was not graded (rl-graded.ts). */
    candidate_correct: boolean | null;
    finish_reason: string;
    /** Why the role could not use this output (then it asked again, or went on without it); null when the output was used. */
    unusable: string | null;
    prompt_tokens: number;
    completion_tokens: number;
    /** The banks E(t-1) and G(t-1) the prompt drew on (empty when it drew on none). */
    experience_bank: Array<{ kind: string; text: string }>;
    guideline_bank: Array<{ strategy: string; outcome: string }>;
  };
  /** The role that wrote it; for a `solution` call, with where its prompt came from: `solution:normal`, `solution:experience` (exploit), `solution:guideline` (explore). */
  _source: string;
}

/** The `data_source` of a generation of a role of a kind: the same for every strategy (docs/reference/rl-labels.md). */
export function dataSourceOf(kind: GenerationKind | undefined, role: string): string {
  if (kind === 'solution') return 'math';
  if (kind === 'grade') return 'math_grm';
  return `tmas_${role}`;
}

/** The role a journaled call belongs to: a multi-call role's call k ≥ 1 is journaled as `<role>#k`, a budget-forced continuation as `<role>#forced`. */
function baseRole(role: string): string {
  const hash = role.indexOf('#');
  return hash < 0 ? role : role.slice(0, hash);
}

/** The `_source` of a generation: its role, and for a solution where its prompt came from (so `experience` is only ever the experience agent). */
export function sourceOf(role: string, candidate: CandidateResult | undefined): string {
  return role === 'solution' && candidate ? `solution:${candidate.source}` : role;
}

/** What a (problem, iteration) adds to its calls' records: the candidates and the banks before it. */
interface IterationContext {
  key: string;
  candidates: CandidateResult[];
  before: BankRecord | undefined;
}

/** Streams the RL records of a run. */
export async function* rlRecords(store: Store, options: { proof: boolean; strategy?: string | undefined }): AsyncGenerator<RlRecord> {
  const strategy = STRATEGIES[options.strategy ?? 'tmas'];
  const kinds = strategy ? roleKinds(strategy) : {};
  // What each call is about, as its role declares it (the viewer reads the same): the judge's passes are declared whatever their number.
  const outline = strategyOutline(options.strategy ?? 'tmas', 1);
  const problems = await store.loadProblems();
  const unusable = await unusableCalls(store);
  const ordinals = new Map<string, { ordinal: number; problem: Problem }>(problems.map((problem, ordinal) => [problem.id, { ordinal, problem }]));
  let context = null as IterationContext | null;
  for await (const call of store.callRecords()) {
    const known = ordinals.get(call.problem);
    if (!known) continue;
    const contextKey = iterationKey(known.ordinal, call.iteration);
    if (context?.key !== contextKey) {
      const record = await store.getIteration(contextKey);
      const before = call.iteration > 0 ? await store.getBanks(known.ordinal, call.iteration - 1) : undefined;
      context = { key: contextKey, candidates: record?.candidates ?? [], before };
    }
    const candidateIndex = outline.subjectOf(call.role, call.index)?.candidate ?? null;
    const candidate = candidateIndex === null ? undefined : context.candidates.find((c) => c.candidate === candidateIndex);
    const role = baseRole(call.role);
    const kind = kinds[role];
    const origin = call.role === 'solution' ? candidate?.source : undefined;
    // TMAS's exploit prompt draws on E(t-1), its explore prompt on G(t-1); rse's rollouts on its experience.
    const banks = call.iteration > 0 ? context.before : undefined;
    const experience = origin === 'experience' || call.role === 'rollout' ? (banks?.experience ?? []) : [];
    const guidelines = origin === 'guideline' ? (banks?.guidelines ?? []) : [];
    const candidatesAt = async (iteration: number) => (iteration === call.iteration ? (context?.candidates ?? []) : ((await store.getIteration(iterationKey(known.ordinal, iteration)))?.candidates ?? []));
    const candidateCorrect = await gradedCandidateCorrect(store, call, role, candidateIndex, candidatesAt);
    const unusableReason = unusable.get(call.key)?.reason ?? null;
    const written = await writtenCandidate(store, call, { unusable: unusableReason !== null, upFront: outline.upFront }, candidateIndex, candidatesAt);
    const reference = options.proof ? (known.problem.solution ?? known.problem.answer ?? null) : (known.problem.answer ?? null);
    yield {
      prompt: call.request.messages.map((m) => ({ role: m.role, content: m.content })),
      response: call.response.content,
      reasoning: call.response.reasoning === '' ? null : call.response.reasoning,
      data_source: dataSourceOf(kind, role),
      reward_model: { ground_truth: reference, style: options.proof ? 'model' : 'rule' },
      extra_info: {
        problem_id: call.problem,
        iteration: call.iteration,
        role: call.role,
        index: call.index,
        call_key: call.key,
        model: call.request.model,
        candidate: candidateIndex,
        answer: written?.answer ?? null,
        correct: gradeOf(written),
        score: written?.summaryScore ?? null,
        candidate_correct: candidateCorrect,
        finish_reason: call.response.finishReason,
        unusable: unusableReason,
        prompt_tokens: call.usage.promptTokens,
        completion_tokens: call.usage.completionTokens,
        experience_bank: experience.map((r) => ({ kind: r.kind, text: r.text })),
        guideline_bank: guidelines.map((r) => ({ strategy: r.strategy, outcome: r.outcome })),
      },
      _source: sourceOf(call.role, candidate),
    };
  }
}
