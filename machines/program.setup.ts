/**
 * The named pieces of the problem machine (program.machine.ts): its two
 * runtime actors, and its actions and guards by concept: the program's steps,
 * the judge stage, saving and announcing, and a problem that stops.
 */
import { enqueueActions, fromPromise, setup } from 'xstate';
import { TmasError } from '../src/kernel/errors.ts';
import type { Message } from '../src/kernel/protocol.ts';
import type { DedupBanksInput, DedupBanksOutput, SaveIterationInput, SaveIterationOutput } from './contract.ts';
import { gradeCandidates, idleJudgeStage, judgeResponses, settleDeferred, stageOf } from './judge-stage.ts';
import { judgePassesOf } from './judging.ts';
import { postNotProvided, type PostParams } from './post.ts';
import { announcementOf, applyStep, completionOf, startOf, takeVerdict, unexpected, type ProgramContext } from './program-context.ts';
import type { Effect, ProblemProgram, SaveEffect } from './program.ts';

type Post = { type: 'post'; params: PostParams };

/** The machine's own view of a program: its state is opaque (each program types its own). */
type Context = ProgramContext<unknown>;

function saveEffectOf(context: Context): SaveEffect {
  if (context.effect.kind !== 'save') throw new TmasError('TMAS_INTERNAL', `the ${context.effect.kind} effect where a save was expected`);
  return context.effect;
}

/** The runtime's two actors, provided by the host: placeholders that fail loudly when it did not. */
const runtimeActors = {
  dedupBanks: fromPromise<DedupBanksOutput, DedupBanksInput>(async () => {
    throw new TmasError('TMAS_NOT_PROVIDED', 'the `dedupBanks` actor was not provided');
  }),
  saveIteration: fromPromise<SaveIterationOutput, SaveIterationInput>(async () => {
    throw new TmasError('TMAS_NOT_PROVIDED', 'the `saveIteration` actor was not provided');
  }),
};

type Guard = (args: { context: Context }) => boolean;
const isEffect = (kind: Effect['kind']): Guard => ({ context }) => context.effect.kind === kind;

/** Where the machine goes next: by the program's effect, and by what the judge stage still waits for. */
const programGuards = {
  /** The iteration still being graded is saved before anything else is. */
  flushFirst: ({ context }) => context.previous !== null && (context.effect.kind === 'save' || context.effect.kind === 'done'),
  judgeFirst: ({ context }) => context.effect.kind === 'save' && context.effect.responses !== undefined && judgePassesOf(context.input) > 0,
  saveNow: isEffect('save'),
  dedupNow: isEffect('dedup'),
  finished: isEffect('done'),
  allJudged: ({ context }) => context.judging.pending === 0,
  previousJudged: ({ context }) => context.previous !== null && context.previous.judging.pending === 0,
  /** The next iteration may start before this one's passes are in: not the last, not one that lost a loop call, not under a barrier. */
  mayRunAhead: ({ context }) => {
    const { effect, input } = context;
    return effect.kind === 'save' && effect.iteration + 1 < input.settings.maxIterations && !context.loopFailed && input.settings.schedule !== 'barrier';
  },
} satisfies Record<string, Guard>;

/** The setup of a program's problem machine: actors, actions and guards, each by name. */
export function programSetup(program: ProblemProgram<unknown>) {
  /** The program's next step after a save: posted after the save's announcement. */
  const afterSave = (context: Context) => applyStep(context, program.saved(context.state, context.input));

  return setup({
    types: { context: {} as Context, input: {} as Context['input'], events: {} as Message },
    actors: runtimeActors,
    actions: {
      post: postNotProvided as (_: unknown, params: PostParams) => void,
      // The program's steps.
      /** Programs start at iteration 0 unless they say otherwise: on resume the journal answers every call that completed. */
      announceStart: enqueueActions(({ context, enqueue }) => {
        for (const action of posts([startOf(program, context.input), ...context.pending])) enqueue(action);
        enqueue.assign({ pending: [] });
      }),
      receive: enqueueActions(({ context, event, enqueue }) => {
        const graded = takeVerdict(context, event);
        if (graded !== null) return void enqueue.assign(graded);
        if (event.type === 'llm.failed' && event.role !== 'judge') enqueue.assign({ loopFailed: true });
        const { changes, post } = applyStep(context, program.receive(context.state, event, context.input));
        enqueue.assign(changes);
        for (const action of posts(post)) enqueue(action);
      }),
      // The judge stage.
      takeJudgeReply: enqueueActions(({ context, event, enqueue }) => {
        const graded = takeVerdict(context, event);
        if (graded === null) unexpected(program.id, event);
        enqueue.assign(graded);
      }),
      startJudgeStage: enqueueActions(({ context, enqueue }) => {
        const effect = saveEffectOf(context);
        const responses = effect.responses ?? [];
        const start = { stage: stageOf(context.judging, effect.iteration), asked: context.asked, post: [] };
        const settled = settleDeferred(judgeResponses(start, context.input, responses, false), context.input, responses);
        enqueue.assign({ judging: settled.stage, asked: settled.asked });
        for (const action of posts(settled.post)) enqueue(action);
      }),
      gradeCurrent: enqueueActions(({ context, enqueue }) => {
        const effect = saveEffectOf(context);
        enqueue.assign({ effect: { ...effect, candidates: gradeCandidates(effect.candidates, context.judging, context.input) } });
      }),
      /** Passes are out: the program goes on to its next iteration, and this one is saved before the next save. */
      runAhead: enqueueActions(({ context, enqueue }) => {
        const ahead: Context = { ...context, previous: { effect: saveEffectOf(context), judging: context.judging }, judging: idleJudgeStage(), loopFailed: false };
        const { changes, post } = afterSave(ahead);
        enqueue.assign({ previous: ahead.previous, judging: ahead.judging, loopFailed: false, ...changes });
        for (const action of posts(post)) enqueue(action);
      }),
      gradePrevious: enqueueActions(({ context, enqueue }) => {
        const { previous } = context;
        if (previous === null) return;
        enqueue.assign({ previous: { ...previous, effect: { ...previous.effect, candidates: gradeCandidates(previous.effect.candidates, previous.judging, context.input) } } });
      }),
      // Saving and announcing.
      announcePrevious: enqueueActions(({ context, enqueue }) => {
        if (context.previous === null) return;
        for (const action of posts(announcementOf(context.input, context.previous.effect))) enqueue(action);
        enqueue.assign({ previous: null });
      }),
      announceAndContinue: enqueueActions(({ context, enqueue }) => {
        for (const action of posts(announcementOf(context.input, saveEffectOf(context)))) enqueue(action);
        const next = { ...context, judging: idleJudgeStage(), loopFailed: false };
        const { changes, post } = afterSave(next);
        enqueue.assign({ judging: next.judging, loopFailed: false, ...changes });
        for (const action of posts(post)) enqueue(action);
      }),
      // A problem that stops: a call of an iteration failed for good, so nothing from it on is a result.
      stopAtPrevious: enqueueActions(({ context, enqueue }) => enqueue.assign({ stoppedAt: context.previous?.effect.iteration ?? 0, previous: null })),
      stopAtCurrent: enqueueActions(({ context, enqueue }) => enqueue.assign({ stoppedAt: saveEffectOf(context).iteration })),
      announceCompletion: enqueueActions(({ context, enqueue }) => enqueue({ type: 'post', params: { message: completionOf(context) } })),
    },
    guards: programGuards,
  });
}

/** The setup of a program's problem machine. */
export type ProgramSetup = ReturnType<typeof programSetup>;

/** The messages of a step as `post` actions, in order. */
export function posts(messages: Message[]): Post[] {
  return messages.map((message) => ({ type: 'post', params: { message } }));
}
