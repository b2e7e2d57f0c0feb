/**
 * The problem machine's context and the pure bookkeeping over it: applying a
 * program's step, taking a judge reply of either iteration still being
 * graded, and what is saved and announced of an iteration.
 *
 * At most two iterations are being graded at once: the one the program is
 * running (`judging`), and the one before it (`previous`), whose judge passes
 * were still out when the program went on.
 */
import { TmasError } from '../src/kernel/errors.ts';
import type { Message } from '../src/kernel/protocol.ts';
import type { LoopStart, ProblemInput, SaveIterationInput } from './contract.ts';
import { idleJudgeStage, judgeResponses, NO_VERDICT, recordVerdict, stageOf, stageVerdicts, type AskedRequests, type JudgeStage } from './judge-stage.ts';
import { fromJudgeIndex } from './judging.ts';
import { failureOf, iterationAnnouncement } from './kit.ts';
import type { Effect, ProblemProgram, SaveEffect, Step } from './program.ts';

/** What the problem machine keeps. */
export interface ProgramContext<S> {
  input: ProblemInput;
  state: S;
  effect: Effect;
  /** The first step's requests, posted after `problem.started`. */
  pending: Message[];
  /** The judge stage of the iteration the program is running or saving. */
  judging: JudgeStage;
  /** The iteration before, while its judge passes are out: its save effect and its judge stage. */
  previous: { effect: SaveEffect; judging: JudgeStage } | null;
  /** Every judge request of the problem, with its verdict once in: what the reuse rule reads. */
  asked: AskedRequests;
  /** A call of the loop failed for good in this iteration: it will not be saved, so the next does not start ahead of it. */
  loopFailed: boolean;
  /** The iteration that could not be saved, when the problem stopped there. */
  stoppedAt: number | null;
}

/**
 * The stored verdicts a problem starting at iteration `from` holds, as the run without a stop held
 * them there: those of the iterations before `from`. A baseline starts again at 0 and holds none: it
 * learns each stored verdict where it first shows its candidate (judge-stage.ts, storedVerdict), so
 * that one counts there and not as reused. Held from the start, iteration 0's verdicts were reused
 * wherever a baseline whose iterations are cut otherwise (majority under a larger --max-iterations)
 * first showed them, and its rule = judge figures left those samples out (60 of 74 at 5 problems).
 */
function verdictsAt(judged: LoopStart['judged'], from: number): AskedRequests {
  const held: Record<string, AskedRequests[string]> = {};
  for (const [iteration, verdicts] of Object.entries(judged ?? {})) {
    if (Number(iteration) >= from) continue;
    // Stored null: the reply gave no verdict, which its repeats keep.
    for (const [key, verdict] of Object.entries(verdicts)) held[key] = verdict ?? NO_VERDICT;
  }
  return held;
}

/** The context of a problem about to start: the program's first step, not yet posted. */
export function initialContext<S>(program: ProblemProgram<S>, input: ProblemInput): ProgramContext<S> {
  const first = program.start(input);
  const context: ProgramContext<S> = {
    input,
    state: first.state,
    effect: first.effect,
    pending: [],
    judging: idleJudgeStage(),
    previous: null,
    asked: verdictsAt(input.start.judged, program.firstIteration?.(input) ?? 0),
    loopFailed: false,
    stoppedAt: null,
  };
  const applied = applyStep(context, first);
  return { ...context, ...applied.changes, pending: applied.post };
}

/** What a step changes in the context, and the messages it posts: the program's, then any early judge requests. */
export function applyStep<S>(context: ProgramContext<S>, step: Step<S>): { changes: Partial<ProgramContext<S>>; post: Message[] } {
  const changes: Partial<ProgramContext<S>> = { state: step.state, effect: step.effect };
  if (step.judge === undefined) return { changes, post: step.post };
  const stage = stageOf(context.judging, step.judge.iteration);
  const asked = judgeResponses({ stage, asked: context.asked, post: [] }, context.input, step.judge.responses, true);
  return { changes: { ...changes, judging: asked.stage, asked: asked.asked }, post: [...step.post, ...asked.post] };
}

/** A judge reply: its verdict, or null with the failure when the call failed for good (that pass is not covered, never a guess). */
function judgeReply(event: Message): { candidate: number; pass: number; verdict: boolean | null; failure?: string } | null {
  if (event.type === 'judge.completed') return { candidate: event.candidate, pass: event.pass, verdict: event.verdict };
  if (event.type === 'llm.failed' && event.role === 'judge') return { ...fromJudgeIndex(event.index), verdict: null, failure: failureOf(event) };
  return null;
}

/** A judge reply of the iteration being saved or the one before it, recorded on its stage; null when `event` is no such reply. */
export function takeVerdict<S>(context: ProgramContext<S>, event: Message): Partial<ProgramContext<S>> | null {
  const reply = judgeReply(event);
  if (reply === null) return null;
  const { previous } = context;
  if (previous !== null && event.iteration === previous.effect.iteration) {
    const recorded = recordVerdict({ stage: previous.judging, asked: context.asked }, reply);
    return { previous: { ...previous, judging: recorded.stage }, asked: recorded.asked };
  }
  if (event.iteration === context.judging.iteration) {
    const recorded = recordVerdict({ stage: context.judging, asked: context.asked }, reply);
    return { judging: recorded.stage, asked: recorded.asked };
  }
  return null;
}

/** Where only judge replies can arrive, anything else is a bug in the strategy's program. */
export function unexpected(id: string, event: { type: string }): never {
  throw new TmasError('TMAS_MISROUTED', `the ${id} problem actor received ${event.type} where only judge replies can arrive`);
}

/** What `saveIteration` stores of an iteration, graded by `judging`, its judge stage. */
export function saveInput(input: ProblemInput, effect: SaveEffect, judging: JudgeStage, asked: AskedRequests): SaveIterationInput {
  return {
    judged: stageVerdicts(judging, asked),
    problem: input.problem.id,
    ordinal: input.ordinal,
    iteration: effect.iteration,
    candidates: effect.candidates,
    rollouts: effect.rollouts ?? [],
    experience: effect.experience ?? [],
    guidelines: effect.guidelines ?? [],
    ...(effect.bank === undefined ? {} : { bank: effect.bank }),
  };
}

/** The messages that announce a saved iteration: its banks' update (when it has banks) and its results. */
export function announcementOf(input: ProblemInput, effect: SaveEffect): Message[] {
  return iterationAnnouncement(input, effect.iteration, effect.candidates, effect.bank);
}

/** The `problem.completed` message: after the last iteration, or at the iteration that could not be saved. */
export function completionOf<S>(context: ProgramContext<S>): Message {
  const { input, effect, stoppedAt } = context;
  const iterations = stoppedAt ?? (effect.kind === 'done' ? effect.iterations : 0);
  const iteration = stoppedAt ?? Math.max(0, iterations - 1);
  return { type: 'problem.completed', run: input.run, problem: input.problem.id, iteration, correlation: `${input.problem.id}/done`, iterations };
}

/** The `problem.started` message, at the program's first iteration. */
export function startOf<S>(program: ProblemProgram<S>, input: ProblemInput): Message {
  const from = program.firstIteration?.(input) ?? 0;
  return { type: 'problem.started', run: input.run, problem: input.problem.id, iteration: from, correlation: `${input.problem.id}/start`, fromIteration: from };
}
