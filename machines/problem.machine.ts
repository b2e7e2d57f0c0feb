/**
 * The problem actor: the TMAS iteration loop of DESIGN.md section 1 for one
 * problem. It talks to the role actors only through messages, and to the
 * runtime only through two named actors: `dedupBanks` (the worker pool) and
 * `saveIteration` (the store).
 *
 * Per iteration: N solution requests; each candidate's M verifications as soon
 * as that candidate exists; its summary once its M verifications are in; the
 * experience and guideline updates in parallel once all N summaries are in;
 * then the banks are deduplicated and persisted with the iteration mark.
 */
import { assign, enqueueActions, fromPromise, setup } from 'xstate';
import { TmasError } from '../src/errors.ts';
import type { BankUpdated, ExperienceRecord, GuidelineRecord, Message, MessageOf, Rollout } from '../src/protocol.ts';
import {
  addVerification,
  createCandidates,
  toCandidateResult,
  toRollouts,
  updateCandidate,
  withoutSummary,
  type CandidateState,
} from './candidates.ts';
import { postNotProvided, type PostParams } from './post.ts';

/** The problem as the actor sees it. */
export interface ProblemSpec {
  id: string;
  question: string;
  answer?: string;
}

/** The method's settings that shape the loop. */
export interface LoopSettings {
  nCandidates: number;
  nVerifications: number;
  /** Total iterations: the loop stops after iteration maxIterations - 1. */
  maxIterations: number;
  epsilon: number;
  seed: number;
  jaccardThreshold: number;
}

/** Where a problem starts: iteration 0 with empty banks, or where an earlier run stopped. */
export interface LoopStart {
  iteration: number;
  experience: ExperienceRecord[];
  guidelines: GuidelineRecord[];
  rollouts: Rollout[];
}

export interface ProblemInput {
  run: string;
  problem: ProblemSpec;
  ordinal: number;
  settings: LoopSettings;
  start: LoopStart;
}

/** Input and output of the `dedupBanks` actor. */
export interface DedupBanksInput {
  experience: ExperienceRecord[];
  newExperience: ExperienceRecord[];
  guidelines: GuidelineRecord[];
  newGuidelines: GuidelineRecord[];
  threshold: number;
}
export interface DedupBanksOutput {
  experience: ExperienceRecord[];
  guidelines: GuidelineRecord[];
}

/** Input of the `saveIteration` actor: one atomic write of banks and iteration mark. */
export interface SaveIterationInput {
  problem: string;
  ordinal: number;
  iteration: number;
  candidates: ReturnType<typeof toCandidateResult>[];
  rollouts: Rollout[];
  experience: ExperienceRecord[];
  guidelines: GuidelineRecord[];
}

interface ProblemContext extends ProblemInput {
  iteration: number;
  candidates: CandidateState[];
  experience: ExperienceRecord[];
  guidelines: GuidelineRecord[];
  /** R(t-1) while iteration t runs; R(t) once its summaries are in. */
  rollouts: Rollout[];
  newExperience: ExperienceRecord[] | null;
  newGuidelines: GuidelineRecord[] | null;
  bankUpdate: BankUpdated['experience'] extends infer S ? { experience: S; guideline: S } | null : never;
}

type ProblemEvent =
  | MessageOf<'solution.completed'>
  | MessageOf<'verification.completed'>
  | MessageOf<'summary.completed'>
  | MessageOf<'experience.completed'>
  | MessageOf<'guideline.completed'>
  | MessageOf<'llm.failed'>;

function base(context: ProblemContext) {
  return { run: context.run, problem: context.problem.id, iteration: context.iteration };
}

function correlation(context: ProblemContext, role: string, index: number | string): string {
  return `${context.problem.id}/${context.iteration}/${role}/${index}`;
}

function failure(event: MessageOf<'llm.failed'>): string {
  return `${event.role}: ${event.code}: ${event.error}`;
}

function results(context: ProblemContext) {
  return context.candidates.map((candidate) => toCandidateResult(candidate, context.problem.answer));
}

/** The problem actor's definition. */
export const problemMachine = setup({
  types: {
    context: {} as ProblemContext,
    input: {} as ProblemInput,
    events: {} as ProblemEvent,
  },
  actors: {
    dedupBanks: fromPromise<DedupBanksOutput, DedupBanksInput>(async () => {
      throw new TmasError('TMAS_NOT_PROVIDED', 'the `dedupBanks` actor was not provided');
    }),
    saveIteration: fromPromise<void, SaveIterationInput>(async () => {
      throw new TmasError('TMAS_NOT_PROVIDED', 'the `saveIteration` actor was not provided');
    }),
  },
  actions: {
    post: postNotProvided as (_: unknown, params: PostParams) => void,
    startIteration: assign(({ context }) => ({
      candidates: createCandidates({
        seed: context.settings.seed,
        problem: context.problem.id,
        iteration: context.iteration,
        n: context.settings.nCandidates,
        epsilon: context.settings.epsilon,
      }),
      newExperience: null,
      newGuidelines: null,
      bankUpdate: null,
    })),
    announceIteration: enqueueActions(({ context, enqueue }) => {
      if (context.bankUpdate) {
        const message: Message = { type: 'bank.updated', ...base(context), correlation: correlation(context, 'bank', 0), ...context.bankUpdate };
        enqueue({ type: 'post', params: { message } });
      }
      const message: Message = { type: 'iteration.completed', ...base(context), correlation: correlation(context, 'iteration', 0), candidates: results(context) };
      enqueue({ type: 'post', params: { message } });
    }),
    requestSolutions: enqueueActions(({ context, enqueue }) => {
      for (const candidate of context.candidates) {
        const exploit = candidate.source === 'experience';
        const message: Message = {
          type: 'solution.requested',
          ...base(context),
          correlation: correlation(context, 'solution', candidate.candidate),
          candidate: candidate.candidate,
          source: candidate.source,
          question: context.problem.question,
          rollouts: exploit ? context.rollouts : [],
          experience: exploit ? context.experience : [],
          guidelines: candidate.source === 'guideline' ? context.guidelines : [],
        };
        enqueue({ type: 'post', params: { message } });
      }
    }),
  },
  guards: {
    allSummarized: ({ context }) => context.candidates.every((candidate) => candidate.summarized),
    banksEvolved: ({ context }) => context.newExperience !== null && context.newGuidelines !== null,
    lastIteration: ({ context }) => context.iteration + 1 >= context.settings.maxIterations,
  },
}).createMachine({
  id: 'problem',
  context: ({ input }) => ({
    ...input,
    iteration: input.start.iteration,
    candidates: [],
    experience: input.start.experience,
    guidelines: input.start.guidelines,
    rollouts: input.start.rollouts,
    newExperience: null,
    newGuidelines: null,
    bankUpdate: null,
  }),
  initial: 'starting',
  states: {
    starting: {
      entry: {
        type: 'post',
        params: ({ context }) => ({
          message: { type: 'problem.started', ...base(context), correlation: `${context.problem.id}/start`, fromIteration: context.iteration },
        }),
      },
      always: [{ guard: ({ context }) => context.iteration >= context.settings.maxIterations, target: 'done' }, { target: 'solving' }],
    },
    solving: {
      entry: ['startIteration', 'requestSolutions'],
      always: { guard: 'allSummarized', target: 'evolving' },
      on: {
        'solution.completed': {
          actions: enqueueActions(({ context, event, enqueue }) => {
            enqueue.assign({
              candidates: updateCandidate(context.candidates, event.candidate, (candidate) => ({
                ...candidate,
                text: event.text,
                answer: event.answer,
              })),
            });
            // Verification starts as soon as the candidate exists, not when the iteration's last one does.
            for (let index = 0; index < context.settings.nVerifications; index++) {
              enqueue({
                type: 'post',
                params: {
                  message: {
                    type: 'verification.requested',
                    ...base(context),
                    correlation: correlation(context, 'verification', `${event.candidate}.${index}`),
                    candidate: event.candidate,
                    index,
                    question: context.problem.question,
                    solution: event.text,
                  },
                },
              });
            }
          }),
        },
        'verification.completed': {
          actions: enqueueActions(({ context, event, enqueue }) => {
            const verification = { index: event.index, score: event.score, analysis: event.analysis };
            const { candidates, summaryRequest } = settleVerification(context, event.candidate, verification, null);
            enqueue.assign({ candidates });
            if (summaryRequest) enqueue({ type: 'post', params: { message: summaryRequest } });
          }),
        },
        'summary.completed': {
          actions: assign(({ context, event }) => ({
            candidates: updateCandidate(context.candidates, event.candidate, (candidate) => ({
              ...candidate,
              summarized: true,
              summary: event.summary,
              summaryScore: event.score,
            })),
          })),
        },
        'llm.failed': {
          actions: enqueueActions(({ context, event, enqueue }) => {
            const candidate = event.role === 'verification' ? Math.floor(event.index / 10_000) : event.index;
            if (event.role === 'solution') {
              // No solution: nothing to verify or summarise; the candidate counts as unanswered.
              enqueue.assign({
                candidates: updateCandidate(context.candidates, candidate, (state) => ({
                  ...state,
                  text: null,
                  summarized: true,
                  failures: [...state.failures, failure(event)],
                })),
              });
            } else if (event.role === 'verification') {
              const verification = { index: event.index % 10_000, score: null, analysis: '' };
              const { candidates, summaryRequest } = settleVerification(context, candidate, verification, failure(event));
              enqueue.assign({ candidates });
              if (summaryRequest) enqueue({ type: 'post', params: { message: summaryRequest } });
            } else if (event.role === 'summary') {
              enqueue.assign({ candidates: updateCandidate(context.candidates, candidate, (state) => withoutSummary(state, failure(event))) });
            }
          }),
        },
      },
    },
    evolving: {
      entry: [
        assign(({ context }) => ({ rollouts: toRollouts(context.candidates) })),
        enqueueActions(({ context, enqueue }) => {
          const shared = { ...base(context), question: context.problem.question, rollouts: context.rollouts };
          enqueue({
            type: 'post',
            params: { message: { type: 'experience.requested', ...shared, correlation: correlation(context, 'experience', 0), bank: context.experience } },
          });
          enqueue({
            type: 'post',
            params: { message: { type: 'guideline.requested', ...shared, correlation: correlation(context, 'guideline', 0), bank: context.guidelines } },
          });
        }),
      ],
      always: { guard: 'banksEvolved', target: 'deduplicating' },
      on: {
        'experience.completed': { actions: assign({ newExperience: ({ event }) => event.records }) },
        'guideline.completed': { actions: assign({ newGuidelines: ({ event }) => event.records }) },
        'llm.failed': {
          actions: assign(({ event }) =>
            event.role === 'experience' ? { newExperience: [] } : event.role === 'guideline' ? { newGuidelines: [] } : {},
          ),
        },
      },
    },
    deduplicating: {
      invoke: {
        src: 'dedupBanks',
        input: ({ context }) => ({
          experience: context.experience,
          newExperience: context.newExperience ?? [],
          guidelines: context.guidelines,
          newGuidelines: context.newGuidelines ?? [],
          threshold: context.settings.jaccardThreshold,
        }),
        onDone: {
          target: 'saving',
          actions: assign(({ context, event }) => {
            const stats = (before: number, added: number, after: number) => ({ added: after - before, dropped: before + added - after, size: after });
            return {
              bankUpdate: {
                experience: stats(context.experience.length, context.newExperience?.length ?? 0, event.output.experience.length),
                guideline: stats(context.guidelines.length, context.newGuidelines?.length ?? 0, event.output.guidelines.length),
              },
              experience: event.output.experience,
              guidelines: event.output.guidelines,
            };
          }),
        },
      },
    },
    saving: {
      invoke: {
        src: 'saveIteration',
        input: ({ context }) => ({
          problem: context.problem.id,
          ordinal: context.ordinal,
          iteration: context.iteration,
          candidates: results(context),
          rollouts: context.rollouts,
          experience: context.experience,
          guidelines: context.guidelines,
        }),
        onDone: [
          { guard: 'lastIteration', target: 'done', actions: 'announceIteration' },
          { target: 'solving', reenter: true, actions: ['announceIteration', assign({ iteration: ({ context }) => context.iteration + 1 })] },
        ],
      },
    },
    done: {
      type: 'final',
      entry: {
        type: 'post',
        params: ({ context }) => ({
          message: { type: 'problem.completed', ...base(context), correlation: `${context.problem.id}/done`, iterations: context.iteration + 1 },
        }),
      },
    },
  },
});

/**
 * Records a verification; once the candidate has all M, returns its summary
 * request too.
 */
function settleVerification(
  context: ProblemContext,
  index: number,
  verification: { index: number; score: number | null; analysis: string },
  failed: string | null,
): { candidates: CandidateState[]; summaryRequest: Message | null } {
  const before = context.candidates.find((candidate) => candidate.candidate === index);
  if (!before) return { candidates: context.candidates, summaryRequest: null };
  let after = addVerification(before, verification);
  if (failed) after = { ...after, failures: [...after.failures, failed] };
  const candidates = updateCandidate(context.candidates, index, () => after);
  if (after.verifications.length < context.settings.nVerifications) return { candidates, summaryRequest: null };
  return {
    candidates,
    summaryRequest: {
      type: 'summary.requested',
      ...base(context),
      correlation: correlation(context, 'summary', index),
      candidate: index,
      question: context.problem.question,
      solution: after.text ?? '',
      verifications: after.verifications,
    },
  };
}
