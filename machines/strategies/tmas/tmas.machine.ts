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
 * With the LLM judge on, each solution's passes start as soon as it exists,
 * and only the iteration's results wait for them: the bank updates do not,
 * and neither does the next iteration. The judge's calls go after the loop's
 * (docs/guide/keeping-servers-busy.md), so a loop that waited on them would be
 * held back by its own grading. An iteration whose passes are still out
 * stays behind as `previous` while the next one runs; it is saved and
 * announced at the next one's handoff, which waits for its passes if need be.
 * So the loop runs at most one iteration ahead of its grading: the held judge
 * calls stay bounded, iterations are still saved in order, and a resume starts
 * from the last saved one (the journal answers the calls made after it).
 */
import { and, assign, enqueueActions, fromPromise, not, setup } from 'xstate';
import { TmasError } from '../../../src/kernel/errors.ts';
import type { BankUpdated, CandidateResult, ExperienceRecord, GuidelineRecord, Message, MessageOf, Rollout } from '../../../src/kernel/protocol.ts';
import {
  addVerification,
  createCandidates,
  toCandidateResult,
  toRollouts,
  updateCandidate,
  withoutSummary,
  type CandidateState,
} from '../../candidates.ts';
import { addVerdict, awaitJudge, fromJudgeIndex, judgePassesOf, judgeRequests } from '../../judging.ts';
import type { DedupBanksInput, DedupBanksOutput, ProblemInput, SaveIterationInput, SaveIterationOutput } from '../../contract.ts';
import { iterationAnnouncement } from '../../kit.ts';
import { postNotProvided, type PostParams } from '../../post.ts';

interface ProblemContext extends ProblemInput {
  iteration: number;
  candidates: CandidateState[];
  experience: ExperienceRecord[];
  guidelines: GuidelineRecord[];
  /** R(t-1) while iteration t runs; R(t) once its summaries are in. */
  rollouts: Rollout[];
  newExperience: ExperienceRecord[] | null;
  newGuidelines: GuidelineRecord[] | null;
  bankUpdate: { experience: BankUpdated['experience']; guideline: BankUpdated['guideline'] } | null;
  /** The iteration's graded results, computed once when the iteration ends: they are both saved and announced. */
  graded: CandidateResult[];
  /** The iteration before this one, while its judge passes are still out. */
  previous: GradedIteration | null;
  /** A loop call of this iteration failed for good: the iteration will not be saved, so none follows it. */
  loopFailed: boolean;
}

/** An iteration whose loop is done, waiting for its judge passes to be saved and announced. */
interface GradedIteration {
  iteration: number;
  candidates: CandidateState[];
  rollouts: Rollout[];
  experience: ExperienceRecord[];
  guidelines: GuidelineRecord[];
  bankUpdate: ProblemContext['bankUpdate'];
  graded: CandidateResult[];
}

type ProblemEvent =
  | MessageOf<'solution.completed'>
  | MessageOf<'verification.completed'>
  | MessageOf<'summary.completed'>
  | MessageOf<'experience.completed'>
  | MessageOf<'guideline.completed'>
  | MessageOf<'judge.completed'>
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

/**
 * Records a judge pass (its verdict, or null with the failure when the call
 * failed for good: that pass is not covered, never a guess) on the candidates
 * of the iteration it belongs to: this one or the one still being graded.
 */
function recordPass(context: ProblemContext, iteration: number, index: { candidate: number; pass: number }, verdict: boolean | null, failed?: string): Partial<ProblemContext> {
  const record = (candidates: CandidateState[]) =>
    updateCandidate(candidates, index.candidate, (state) => {
      const judged = addVerdict(state, index.pass, verdict);
      return failed === undefined ? judged : { ...judged, failures: [...judged.failures, failed] };
    });
  if (iteration === context.iteration) return { candidates: record(context.candidates) };
  if (context.previous !== null && iteration === context.previous.iteration) return { previous: { ...context.previous, candidates: record(context.previous.candidates) } };
  return {};
}

function judgeFailed(context: ProblemContext, event: MessageOf<'llm.failed'>): Partial<ProblemContext> {
  return recordPass(context, event.iteration, fromJudgeIndex(event.index), null, failure(event));
}

function results(context: ProblemContext, candidates: CandidateState[]) {
  // A proof is not graded by its boxed answer: in proof mode only the judge grades.
  const reference = context.settings.proof ? undefined : context.problem.answer;
  return candidates.map((candidate) => toCandidateResult(candidate, reference, judgePassesOf(context)));
}

function allJudged(candidates: CandidateState[]): boolean {
  return candidates.every((candidate) => (candidate.judgePending ?? 0) === 0);
}

/** This iteration as it waits for its judge passes. */
function toGraded(context: ProblemContext): GradedIteration {
  const { iteration, candidates, rollouts, experience, guidelines, bankUpdate } = context;
  return { iteration, candidates, rollouts, experience, guidelines, bankUpdate, graded: [] };
}

/** What `saveIteration` stores of an iteration. */
function saveInput(context: ProblemContext, saved: GradedIteration): SaveIterationInput {
  const { iteration, graded: candidates, rollouts, experience, guidelines } = saved;
  return { problem: context.problem.id, ordinal: context.ordinal, iteration, candidates, rollouts, experience, guidelines };
}

/** The messages that announce a saved iteration. */
function announcement(context: ProblemContext, saved: GradedIteration): Message[] {
  return iterationAnnouncement(context, saved.iteration, saved.graded, saved.bankUpdate);
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
    saveIteration: fromPromise<SaveIterationOutput, SaveIterationInput>(async () => {
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
      graded: [],
      loopFailed: false,
    })),
    announceIteration: enqueueActions(({ context, enqueue }) => {
      for (const message of iterationAnnouncement(context, context.iteration, context.graded, context.bankUpdate)) enqueue({ type: 'post', params: { message } });
    }),
    announcePrevious: enqueueActions(({ context, enqueue }) => {
      if (context.previous === null) return;
      for (const message of announcement(context, context.previous)) enqueue({ type: 'post', params: { message } });
      enqueue.assign({ previous: null });
    }),
    recordVerdict: assign(({ context, event }) => (event.type === 'judge.completed' ? recordPass(context, event.iteration, event, event.verdict) : {})),
    /** Where no state handles llm.failed itself: only judge calls can still be out there. */
    recordJudgeFailure: assign(({ context, event }) => (event.type === 'llm.failed' && event.role === 'judge' ? judgeFailed(context, event) : {})),
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
    allJudged: ({ context }) => allJudged(context.candidates),
    previousJudged: ({ context }) => context.previous === null || allJudged(context.previous.candidates),
    /** The next iteration may start before this one's judge passes are in: not the last, not one that lost a loop call, not under a barrier. */
    mayRunAhead: ({ context }) => context.iteration + 1 < context.settings.maxIterations && !context.loopFailed && !isBarrier(context),
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
    graded: [],
    previous: null,
    loopFailed: false,
  }),
  initial: 'starting',
  // Judge passes run from a candidate's solution until the iteration is saved, across the states
  // between: their replies are taken wherever they arrive (solving and evolving handle llm.failed
  // themselves, judge failures included).
  on: {
    'judge.completed': { actions: 'recordVerdict' },
    'llm.failed': { actions: 'recordJudgeFailure' },
  },
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
            const candidates = updateCandidate(context.candidates, event.candidate, (candidate) =>
              awaitJudge({ ...candidate, text: event.text, answer: event.answer }, context),
            );
            enqueue.assign({ candidates });
            // Verification starts as soon as the candidate exists, not when the iteration's last one does (unless a barrier is asked for).
            const ready = isBarrier(context) ? (allSolved(candidates) ? candidates : []) : candidates.filter((candidate) => candidate.candidate === event.candidate);
            for (const message of verificationRequests(context, ready)) enqueue({ type: 'post', params: { message } });
            // The judge needs only the solution: its passes start at once, whatever the schedule.
            for (const message of judgeRequests({ ...context, base: base(context) }, event)) enqueue({ type: 'post', params: { message } });
          }),
        },
        'verification.completed': {
          actions: enqueueActions(({ context, event, enqueue }) => {
            const verification = { index: event.index, score: event.score, analysis: event.analysis };
            const { candidates, summaryRequests } = settleVerification(context, event.candidate, verification, null);
            enqueue.assign({ candidates });
            for (const message of summaryRequests) enqueue({ type: 'post', params: { message } });
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
            if (event.role === 'judge') {
              enqueue.assign(judgeFailed(context, event));
              return;
            }
            enqueue.assign({ loopFailed: true });
            const candidate = event.role === 'verification' ? Math.floor(event.index / 10_000) : event.index;
            if (event.role === 'solution') {
              // No solution: nothing to verify or summarise; the candidate counts as unanswered.
              const candidates = updateCandidate(context.candidates, candidate, (state) => ({
                ...state,
                text: null,
                summarized: true,
                failures: [...state.failures, failure(event)],
              }));
              enqueue.assign({ candidates });
              if (isBarrier(context) && allSolved(candidates)) {
                for (const message of verificationRequests(context, candidates)) enqueue({ type: 'post', params: { message } });
              }
            } else if (event.role === 'verification') {
              const verification = { index: event.index % 10_000, score: null, analysis: '' };
              const { candidates, summaryRequests } = settleVerification(context, candidate, verification, failure(event));
              enqueue.assign({ candidates });
              for (const message of summaryRequests) enqueue({ type: 'post', params: { message } });
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
          actions: assign(({ context, event }) =>
            event.role === 'experience'
              ? { newExperience: [], loopFailed: true }
              : event.role === 'guideline'
                ? { newGuidelines: [], loopFailed: true }
                : event.role === 'judge'
                  ? judgeFailed(context, event)
                  : {},
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
          target: 'handoff',
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
    // The loop of this iteration is done: the one before it is saved once its judge passes are in, then the next starts.
    handoff: {
      initial: 'previous',
      states: {
        previous: {
          always: [
            { guard: ({ context }) => context.previous === null, target: 'next' },
            {
              guard: 'previousJudged',
              target: 'savingPrevious',
              actions: assign(({ context }) => ({ previous: context.previous && { ...context.previous, graded: results(context, context.previous.candidates) } })),
            },
          ],
        },
        savingPrevious: {
          invoke: {
            src: 'saveIteration',
            input: ({ context }) => {
              if (context.previous === null) throw new TmasError('TMAS_INTERNAL', 'saving the previous iteration without one');
              return saveInput(context, context.previous);
            },
            onDone: [
              // The previous iteration could not be saved (a call of it failed for good): nothing after it is saved either.
              { guard: ({ event }) => !event.output.saved, target: '#problem.draining' },
              { target: 'next', actions: 'announcePrevious' },
            ],
          },
        },
        next: {
          always: [
            {
              guard: and(['mayRunAhead', not('allJudged')]),
              target: '#problem.solving',
              actions: assign(({ context }) => ({ previous: toGraded(context), iteration: context.iteration + 1 })),
            },
            { target: '#problem.judging' },
          ],
        },
      },
    },
    // The iteration's results need every judge pass; whatever is still out is waited for here.
    judging: {
      always: { guard: 'allJudged', target: 'saving', actions: assign({ graded: ({ context }) => results(context, context.candidates) }) },
    },
    // The previous iteration was not saved: this one's judge passes are let in (a resume finds them
    // journaled), then the problem stops where the previous one did.
    draining: {
      always: { guard: 'allJudged', target: 'stopped', actions: assign(({ context }) => ({ iteration: context.previous?.iteration ?? context.iteration, previous: null })) },
    },
    saving: {
      invoke: {
        src: 'saveIteration',
        input: ({ context }) => saveInput(context, { ...toGraded(context), graded: context.graded }),
        onDone: [
          // A call of this iteration failed for good: nothing of it is a result; the problem stops here, unmarked.
          { guard: ({ event }) => !event.output.saved, target: 'stopped' },
          { guard: 'lastIteration', target: 'done', actions: 'announceIteration' },
          { target: 'solving', reenter: true, actions: ['announceIteration', assign({ iteration: ({ context }) => context.iteration + 1 })] },
        ],
      },
    },
    done: {
      type: 'final',
      entry: {
        type: 'post',
        params: ({ context }) => {
          // Entered from `starting` on a resume of a finished problem, context.iteration is already past the last one.
          const iterations = Math.min(context.iteration + 1, context.settings.maxIterations);
          return { message: { type: 'problem.completed', ...base(context), iteration: Math.max(0, iterations - 1), correlation: `${context.problem.id}/done`, iterations } };
        },
      },
    },
    stopped: {
      type: 'final',
      entry: {
        type: 'post',
        params: ({ context }) => ({
          message: { type: 'problem.completed', ...base(context), correlation: `${context.problem.id}/done`, iterations: context.iteration },
        }),
      },
    },
  },
});

function isBarrier(context: ProblemContext): boolean {
  return context.settings.schedule === 'barrier';
}

/** True once every candidate's solution is in or has failed for good. */
function allSolved(candidates: CandidateState[]): boolean {
  return candidates.every((candidate) => candidate.text !== null || candidate.summarized);
}

/** The M verification requests of each of `candidates` that has a solution. */
function verificationRequests(context: ProblemContext, candidates: CandidateState[]): Message[] {
  const messages: Message[] = [];
  for (const candidate of candidates) {
    if (candidate.text === null) continue;
    for (let index = 0; index < context.settings.nVerifications; index++) {
      messages.push({
        type: 'verification.requested',
        ...base(context),
        correlation: correlation(context, 'verification', `${candidate.candidate}.${index}`),
        candidate: candidate.candidate,
        index,
        question: context.problem.question,
        solution: candidate.text,
      });
    }
  }
  return messages;
}

function summaryRequest(context: ProblemContext, candidate: CandidateState): Message {
  return {
    type: 'summary.requested',
    ...base(context),
    correlation: correlation(context, 'summary', candidate.candidate),
    candidate: candidate.candidate,
    question: context.problem.question,
    solution: candidate.text ?? '',
    verifications: candidate.verifications,
  };
}

/**
 * Records a verification; once the candidate has all M, returns its summary
 * request too (under a barrier: once every candidate with a solution has all M,
 * every summary request).
 */
function settleVerification(
  context: ProblemContext,
  index: number,
  verification: { index: number; score: number | null; analysis: string },
  failed: string | null,
): { candidates: CandidateState[]; summaryRequests: Message[] } {
  const before = context.candidates.find((candidate) => candidate.candidate === index);
  if (!before) return { candidates: context.candidates, summaryRequests: [] };
  let after = addVerification(before, verification);
  if (failed) after = { ...after, failures: [...after.failures, failed] };
  const candidates = updateCandidate(context.candidates, index, () => after);
  const verified = (candidate: CandidateState) => candidate.verifications.length >= context.settings.nVerifications;
  if (!verified(after)) return { candidates, summaryRequests: [] };
  if (!isBarrier(context)) return { candidates, summaryRequests: [summaryRequest(context, after)] };
  const waiting = candidates.filter((candidate) => candidate.text !== null && !candidate.summarized);
  return { candidates, summaryRequests: waiting.every(verified) ? waiting.map((candidate) => summaryRequest(context, candidate)) : [] };
}
