/**
 * RSE (Recycling Search Experience, WangXinglin/RSE scripts/run.sh): per
 * iteration, N rollouts sampled with the problem's experience bank in the
 * system prompt (none at iteration 0: plain sampling); each rollout's
 * reasoning and text distilled into verified propositions and critical
 * pitfalls (one JSON object, asked up to MAX_DISTILL_ATTEMPTS times while the
 * reply is not valid JSON); the new records merged into the bank with the
 * earlier ones (upstream merges the previous bank with the new records and
 * deduplicates them by embedding similarity; here the Jaccard deduplication of
 * TMAS, `dedupBanks`), persisted with the iteration. Like upstream's
 * (code/experience_dedup.py), the bank keeps every deduplicated record: TMAS's
 * `--bank-max-records` cap does not apply to it.
 */
import type { ExperienceRecord, Message } from '../../../src/kernel/protocol.ts';
import type { ProblemInput } from '../../contract.ts';
import { nextIteration, waiting, type ProblemProgram, type Step } from '../../program.ts';
import { failureOf, messageBase, NO_RESPONSE, responseOf, saveOf, type CandidateView } from '../../kit.ts';
import { attemptText, distillRetried, MAX_DISTILL_ATTEMPTS, WITHOUT_LISTS } from './rse.roles.ts';

/** Upstream keeps every record that survives deduplication: the bank has no cap (0), whatever --bank-max-records says. */
export const RSE_BANK_MAX_RECORDS = 0;

interface Candidate extends CandidateView {
  /** What the distiller reads: the rollout's reasoning and text. */
  attempt?: string;
  distilled: boolean;
  failures: string[];
}

interface RseState {
  iteration: number;
  candidates: Candidate[];
  bank: ExperienceRecord[];
  fresh: ExperienceRecord[];
}

function rollouts(input: ProblemInput, iteration: number, bank: ExperienceRecord[]): { candidates: Candidate[]; post: Message[] } {
  const candidates = Array.from({ length: input.settings.nCandidates }, (_, candidate): Candidate => ({ candidate, ...NO_RESPONSE, distilled: false, failures: [] }));
  const post = candidates.map((c): Message => ({ type: 'rollout.requested', ...messageBase(input, iteration, 'rollout', c.candidate), candidate: c.candidate, question: input.problem.question, experience: bank }));
  return { candidates, post };
}

function distill(input: ProblemInput, iteration: number, candidate: number, attempt: number, solution: string): Message {
  return { type: 'distill.requested', ...messageBase(input, iteration, 'distill', `${candidate}.${attempt}`), candidate, attempt, question: input.problem.question, solution };
}

function change(state: RseState, index: number, update: (candidate: Candidate) => Candidate, input: ProblemInput, fresh: ExperienceRecord[] = []): Step<RseState> {
  const candidates = state.candidates.map((candidate) => (candidate.candidate === index ? update(candidate) : candidate));
  const next = { ...state, candidates, fresh: [...state.fresh, ...fresh] };
  if (!candidates.every((candidate) => candidate.distilled)) return waiting(next);
  // Candidate order, not arrival order, decides which of two near-duplicates is kept.
  const ordered = [...next.fresh].sort((a, b) => (a.provenance.candidate ?? 0) - (b.provenance.candidate ?? 0));
  const dedup = { experience: state.bank, newExperience: ordered, guidelines: [], newGuidelines: [], threshold: input.settings.jaccardThreshold, maxRecords: RSE_BANK_MAX_RECORDS };
  return { state: next, post: [], effect: { kind: 'dedup', input: dedup } };
}

/** The RSE program. */
export const rseProgram: ProblemProgram<RseState> = {
  id: 'rse',
  start(input) {
    const { candidates, post } = rollouts(input, 0, []);
    return waiting({ iteration: 0, candidates, bank: [], fresh: [] }, post);
  },
  receive(state, message, input) {
    switch (message.type) {
      case 'rollout.completed': {
        const attempt = attemptText(message.text, message.reasoning);
        // An empty rollout is not distilled, as upstream skips it.
        if (attempt.trim() === '') return change(state, message.candidate, (c) => ({ ...c, ...responseOf(message), distilled: true }), input);
        return waiting(
          { ...state, candidates: state.candidates.map((c) => (c.candidate === message.candidate ? { ...c, ...responseOf(message), attempt } : c)) },
          [distill(input, state.iteration, message.candidate, 0, attempt)],
        );
      }
      case 'distill.completed': {
        const current = state.candidates.find((c) => c.candidate === message.candidate);
        if (distillRetried(message.parseError) && message.attempt + 1 < MAX_DISTILL_ATTEMPTS && current?.attempt) {
          return waiting(state, [distill(input, state.iteration, message.candidate, message.attempt + 1, current.attempt)]);
        }
        const provenance = { iteration: state.iteration, candidate: message.candidate, callKey: message.call.key };
        const records: ExperienceRecord[] = [
          ...message.propositions.map((text): ExperienceRecord => ({ kind: 'conclusion', text, provenance })),
          ...message.pitfalls.map((text): ExperienceRecord => ({ kind: 'pitfall', text, provenance })),
        ];
        const failed = message.parseError === null ? [] : [message.parseError === WITHOUT_LISTS ? `distill: ${WITHOUT_LISTS}` : `distill: invalid JSON after ${message.attempt + 1} attempts: ${message.parseError}`];
        return change(state, message.candidate, (c) => ({ ...c, distilled: true, failures: [...c.failures, ...failed] }), input, records);
      }
      case 'llm.failed': {
        if (message.role !== 'rollout' && message.role !== 'distill') return waiting(state);
        const candidate = message.role === 'rollout' ? message.index : Math.floor(message.index / MAX_DISTILL_ATTEMPTS);
        // A rollout that failed has nothing to distill; a distillation that failed adds nothing.
        return change(state, candidate, (c) => ({ ...c, ...(message.role === 'rollout' ? NO_RESPONSE : {}), distilled: true, failures: [...c.failures, failureOf(message)] }), input);
      }
      default:
        return waiting(state);
    }
  },
  deduped(state, output, input) {
    const before = state.bank.length;
    const after = output.experience.length;
    const bank = output.experience;
    const stats = { added: after - before, dropped: before + state.fresh.length - after, size: after };
    return {
      state: { ...state, bank },
      post: [],
      effect: {
        ...saveOf(state.iteration, state.candidates, input),
        experience: bank,
        bank: { experience: stats, guideline: { added: 0, dropped: 0, size: 0 } },
      },
    };
  },
  saved(state, input) {
    return nextIteration(state, state.iteration, input, (iteration) => {
      const { candidates, post } = rollouts(input, iteration, state.bank);
      return waiting({ ...state, iteration, candidates, fresh: [] }, post);
    });
  },
};
