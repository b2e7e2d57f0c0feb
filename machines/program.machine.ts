/**
 * The problem machine of the baseline strategies, built from a pure program:
 * each strategy says, as a reducer, what to post when a reply arrives and when
 * an iteration is finished; this machine does the rest the same way for all of
 * them: `problem.started`, deduplication through the `dedupBanks` actor, one
 * `saveIteration` per iteration followed by `iteration.completed` (so metrics,
 * results.jsonl and the table work unchanged), and `problem.completed`.
 *
 * Every baseline iteration is a barrier (no request of the loop is in flight
 * while an iteration is saved), so the loop's replies are only consumed in the
 * `running` state. The judge's passes are not: with the judge on, the program
 * goes on to its next iteration while an iteration's passes are out (the
 * judge's calls go after the loop's, so a loop that waited on them would be
 * held back by its own grading). That iteration stays behind as `previous`,
 * and is saved and announced before the next save: at most one iteration is
 * ahead of its grading, saves stay in order, and the next iteration's judge
 * stage starts with every verdict of the one before known (a response judged
 * before is not judged again).
 */
import { assign, enqueueActions, fromPromise, setup } from 'xstate';
import { TmasError } from '../src/kernel/errors.ts';
import type { BankUpdated, CandidateResult, ExperienceRecord, Message, Rollout } from '../src/kernel/protocol.ts';
import { fromJudgeIndex, judgePassesOf } from './judging.ts';
import { idleJudgeStage, judged, recordVerdict, startJudging, type JudgedResponse, type JudgeStage } from './judge-stage.ts';
import { iterationAnnouncement } from './kit.ts';
import { postNotProvided, type PostParams } from './post.ts';
import type { DedupBanksInput, DedupBanksOutput, ProblemInput, SaveIterationInput, SaveIterationOutput } from './contract.ts';

/** What the program wants done after a step. */
export type Effect =
  | { kind: 'wait' }
  | {
      kind: 'save';
      iteration: number;
      candidates: CandidateResult[];
      rollouts?: Rollout[];
      experience?: ExperienceRecord[];
      /** Posted as `bank.updated` before `iteration.completed`. */
      bank?: Omit<BankUpdated, 'type' | 'run' | 'problem' | 'iteration' | 'correlation'>;
      /** What the judge stage reads of each candidate (`saveOf` in kit.ts fills it); without it the iteration is not judged. */
      responses?: JudgedResponse[];
    }
  | { kind: 'dedup'; input: DedupBanksInput }
  | { kind: 'done'; iterations: number };

/** One step of a program: its new state, the messages to post (in order) and what comes next. */
export interface Step<S> {
  state: S;
  post: Message[];
  effect: Effect;
}

/** A strategy's per-problem loop as pure functions. */
export interface ProblemProgram<S> {
  id: string;
  /** The first requests. */
  start(input: ProblemInput): Step<S>;
  /** A reply (`<role>.completed` or `llm.failed`) arrived. */
  receive(state: S, message: Message, input: ProblemInput): Step<S>;
  /** The `dedupBanks` actor answered a `dedup` effect. */
  deduped?(state: S, output: DedupBanksOutput, input: ProblemInput): Step<S>;
  /** The iteration of the last `save` effect is durable and announced. */
  saved(state: S, input: ProblemInput): Step<S>;
}

interface ProgramContext<S> {
  input: ProblemInput;
  state: S;
  effect: Effect;
  /** The first step's requests, posted after `problem.started`. */
  pending: Message[];
  /** The judge stage of the iteration being saved. */
  judging: JudgeStage;
  /** The iteration before, while its judge passes are out: its save effect and its judge stage. */
  previous: { effect: SaveEffect; judging: JudgeStage } | null;
  /** A call of the loop failed for good in this iteration: it will not be saved, so the next does not start ahead of it. */
  loopFailed: boolean;
}

type SaveEffect = Extract<Effect, { kind: 'save' }>;

/** A step that only waits for replies. */
export function waiting<S>(state: S, post: Message[] = []): Step<S> {
  return { state, post, effect: { kind: 'wait' } };
}

/** The step that ends the problem after `iterations` iterations (rounds); null while `--max-iterations` is not reached. */
export function finishedAfter<S>(state: S, iterations: number, input: ProblemInput): Step<S> | null {
  return iterations >= input.settings.maxIterations ? { state, post: [], effect: { kind: 'done', iterations } } : null;
}

function announcementOf(input: ProblemInput, effect: SaveEffect): Message[] {
  return iterationAnnouncement(input, effect.iteration, effect.candidates, effect.bank);
}

/** What `saveIteration` stores of an iteration. */
function saveInput(input: ProblemInput, effect: SaveEffect): SaveIterationInput {
  return {
    problem: input.problem.id,
    ordinal: input.ordinal,
    iteration: effect.iteration,
    candidates: effect.candidates,
    rollouts: effect.rollouts ?? [],
    experience: effect.experience ?? [],
    guidelines: [],
  };
}

/** A judge reply (a verdict, or a judge call that failed for good) of the iteration still being graded. */
function previousVerdict<S>(context: ProgramContext<S>, event: Message): Partial<ProgramContext<S>> | null {
  const { previous } = context;
  if (previous === null || event.iteration !== previous.effect.iteration) return null;
  if (event.type === 'judge.completed') return { previous: { ...previous, judging: recordVerdict(previous.judging, event.candidate, event.pass, event.verdict) } };
  if (event.type === 'llm.failed' && event.role === 'judge') {
    // A judge call that failed for good, after its retries: that pass is not covered (null), never a guess.
    const { candidate, pass } = fromJudgeIndex(event.index);
    return { previous: { ...previous, judging: recordVerdict(previous.judging, candidate, pass, null) } };
  }
  return null;
}

/** Every baseline iteration is a barrier: a reply while an iteration is being saved is a bug in its program. */
function unexpected(id: string, event: { type: string }): never {
  throw new TmasError('TMAS_MISROUTED', `the ${id} problem actor received ${event.type} between iterations`);
}

/** Builds the problem actor definition of a strategy from its program. */
export function createProgramMachine<S>(program: ProblemProgram<S>) {
  const isEffect = (kind: Effect['kind']) => ({ context }: { context: ProgramContext<S> }) => context.effect.kind === kind;

  return setup({
    types: {
      context: {} as ProgramContext<S>,
      input: {} as ProblemInput,
      events: {} as Message,
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
      /** Between the loop's replies only the judge passes of the iteration still being graded can arrive. */
      takePreviousVerdict: enqueueActions(({ context, event, enqueue }) => {
        const graded = previousVerdict(context, event);
        if (graded === null) unexpected(program.id, event);
        enqueue.assign(graded);
      }),
    },
  }).createMachine({
    id: program.id,
    context: ({ input }) => {
      const first = program.start(input);
      return { input, state: first.state, effect: first.effect, pending: first.post, judging: idleJudgeStage(), previous: null, loopFailed: false };
    },
    initial: 'running',
    entry: enqueueActions(({ context, enqueue }) => {
      const { input } = context;
      enqueue({
        type: 'post',
        // Programs always start at iteration 0: on resume the journal answers every call that completed.
        params: { message: { type: 'problem.started', run: input.run, problem: input.problem.id, iteration: 0, correlation: `${input.problem.id}/start`, fromIteration: 0 } },
      });
      for (const message of context.pending) enqueue({ type: 'post', params: { message } });
      enqueue.assign({ pending: [] });
    }),
    states: {
      running: {
        always: [
          // The iteration still being graded is saved before anything else is.
          { guard: ({ context }) => context.previous !== null && (context.effect.kind === 'save' || context.effect.kind === 'done'), target: 'flushing' },
          { guard: ({ context }) => context.effect.kind === 'save' && context.effect.responses !== undefined && judgePassesOf(context.input) > 0, target: 'judging' },
          { guard: isEffect('save'), target: 'saving' },
          { guard: isEffect('dedup'), target: 'deduplicating' },
          { guard: isEffect('done'), target: 'done' },
        ],
        on: {
          '*': {
            actions: enqueueActions(({ context, event, enqueue }) => {
              const graded = previousVerdict(context, event);
              if (graded !== null) {
                enqueue.assign(graded);
                return;
              }
              if (event.type === 'llm.failed' && event.role !== 'judge') enqueue.assign({ loopFailed: true });
              const next = program.receive(context.state, event, context.input);
              enqueue.assign({ state: next.state, effect: next.effect });
              for (const message of next.post) enqueue({ type: 'post', params: { message } });
            }),
          },
        },
      },
      deduplicating: {
        on: { '*': { actions: 'takePreviousVerdict' } },
        invoke: {
          src: 'dedupBanks',
          input: ({ context }) => {
            if (context.effect.kind !== 'dedup') throw new TmasError('TMAS_INTERNAL', 'deduplicating without a dedup effect');
            return context.effect.input;
          },
          onDone: {
            target: 'running',
            actions: enqueueActions(({ context, event, enqueue }) => {
              if (!program.deduped) throw new TmasError('TMAS_INTERNAL', `the ${program.id} program asked for deduplication but has no deduped()`);
              const next = program.deduped(context.state, event.output, context.input);
              enqueue.assign({ state: next.state, effect: next.effect });
              for (const message of next.post) enqueue({ type: 'post', params: { message } });
            }),
          },
        },
      },
      // The grading stage every strategy's candidates pass through: the LLM judge's passes on each candidate.
      judging: {
        entry: enqueueActions(({ context, enqueue }) => {
          const { effect, input } = context;
          if (effect.kind !== 'save' || effect.responses === undefined) throw new TmasError('TMAS_INTERNAL', 'judging without a save effect');
          const { stage, post } = startJudging(context.judging, input, effect.iteration, effect.responses);
          enqueue.assign({ judging: stage });
          for (const message of post) enqueue({ type: 'post', params: { message } });
        }),
        always: [
          { guard: ({ context }) => context.judging.pending === 0, target: 'saving', actions: assign(({ context }) => judged(context)) },
          {
            // Passes are out: the program goes on to its next iteration, and this one is saved before the next save.
            guard: ({ context }) => {
              const { effect, input } = context;
              return effect.kind === 'save' && effect.iteration + 1 < input.settings.maxIterations && !context.loopFailed && input.settings.schedule !== 'barrier';
            },
            target: 'running',
            actions: enqueueActions(({ context, enqueue }) => {
              if (context.effect.kind !== 'save') return;
              enqueue.assign({ previous: { effect: context.effect, judging: context.judging }, loopFailed: false });
              const next = program.saved(context.state, context.input);
              enqueue.assign({ state: next.state, effect: next.effect });
              for (const message of next.post) enqueue({ type: 'post', params: { message } });
            }),
          },
        ],
        on: {
          'judge.completed': { actions: assign(({ context, event }) => ({ judging: recordVerdict(context.judging, event.candidate, event.pass, event.verdict) })) },
          'llm.failed': {
            actions: assign(({ context, event }) => {
              if (event.role !== 'judge') unexpected(program.id, event);
              // A judge call that failed for good, after its retries: that pass is not covered (null), never a guess.
              const { candidate, pass } = fromJudgeIndex(event.index);
              return { judging: recordVerdict(context.judging, candidate, pass, null) };
            }),
          },
          '*': { actions: ({ event }) => unexpected(program.id, event) },
        },
      },
      // The iteration before is saved once its judge passes are in; then the current effect is taken up again.
      flushing: {
        initial: 'grading',
        on: { '*': { actions: 'takePreviousVerdict' } },
        states: {
          grading: {
            always: {
              guard: ({ context }) => context.previous !== null && context.previous.judging.pending === 0,
              target: 'saving',
              actions: assign(({ context }) => {
                const previous = context.previous as NonNullable<ProgramContext<S>['previous']>;
                // The verdicts join those known, so that the next judge stage does not ask again.
                const graded = judged({ effect: previous.effect, judging: previous.judging, input: context.input });
                return { previous: { effect: graded.effect as SaveEffect, judging: graded.judging as JudgeStage }, judging: { ...context.judging, known: (graded.judging as JudgeStage).known } };
              }),
            },
          },
          saving: {
            invoke: {
              src: 'saveIteration',
              input: ({ context }) => {
                if (context.previous === null) throw new TmasError('TMAS_INTERNAL', 'flushing without an iteration to save');
                return saveInput(context.input, context.previous.effect);
              },
              onDone: [
                {
                  // A call of that iteration failed for good: nothing from it on is a result; the problem stops there, unmarked.
                  guard: ({ event }) => !event.output.saved,
                  target: '#' + program.id + '.done',
                  actions: assign(({ context }) => ({ effect: { kind: 'done' as const, iterations: context.previous?.effect.iteration ?? 0 }, previous: null })),
                },
                {
                  target: '#' + program.id + '.running',
                  actions: enqueueActions(({ context, enqueue }) => {
                    if (context.previous === null) return;
                    for (const message of announcementOf(context.input, context.previous.effect)) enqueue({ type: 'post', params: { message } });
                    enqueue.assign({ previous: null });
                  }),
                },
              ],
            },
          },
        },
      },
      saving: {
        on: { '*': { actions: ({ event }) => unexpected(program.id, event) } },
        invoke: {
          src: 'saveIteration',
          input: ({ context }) => {
            const effect = context.effect;
            if (effect.kind !== 'save') throw new TmasError('TMAS_INTERNAL', 'saving without a save effect');
            return saveInput(context.input, effect);
          },
          onDone: [
            {
              // A call of this iteration failed for good: nothing of it is a result; the problem stops here, unmarked.
              guard: ({ event }) => !event.output.saved,
              target: 'done',
              actions: assign(({ context }) => ({ effect: { kind: 'done' as const, iterations: context.effect.kind === 'save' ? context.effect.iteration : 0 } })),
            },
            {
            target: 'running',
            actions: enqueueActions(({ context, enqueue }) => {
              const effect = context.effect;
              if (effect.kind !== 'save') return;
              const { input } = context;
              for (const message of announcementOf(input, effect)) enqueue({ type: 'post', params: { message } });
              const next = program.saved(context.state, input);
              enqueue.assign({ state: next.state, effect: next.effect, loopFailed: false });
              for (const message of next.post) enqueue({ type: 'post', params: { message } });
            }),
            },
          ],
        },
      },
      done: {
        type: 'final',
        entry: enqueueActions(({ context, enqueue }) => {
          const { input, effect } = context;
          const iterations = effect.kind === 'done' ? effect.iterations : 0;
          enqueue({
            type: 'post',
            params: { message: { type: 'problem.completed', run: input.run, problem: input.problem.id, iteration: Math.max(0, iterations - 1), correlation: `${input.problem.id}/done`, iterations } },
          });
        }),
      },
    },
  });
}
