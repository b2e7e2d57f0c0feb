/**
 * The problem machine of every strategy, built from its pure program
 * (program.ts): the program says, as a reducer, what to post when a reply
 * arrives and when an iteration is finished; this machine does the rest the
 * same way for all of them: `problem.started`, deduplication through the
 * `dedupBanks` actor, the judge stage, one `saveIteration` per iteration
 * followed by `iteration.completed` (so metrics, results.jsonl and the table
 * work unchanged), and `problem.completed`.
 *
 * An iteration's loop ends before it is saved (no request of the loop is in
 * flight while an iteration is saved), so the loop's replies are only consumed
 * in `running`. The judge's passes are not: with the judge on, the program goes
 * on to its next iteration while an iteration's passes are out (the judge's
 * calls go after the loop's, so a loop that waited on them would be held back
 * by its own grading). That iteration stays behind as `previous`, and is saved
 * and announced before the next save: at most one iteration is ahead of its
 * grading, saves stay in order, and a resume starts from the last saved one.
 */
import { enqueueActions } from 'xstate';
import { TmasError } from '../src/kernel/errors.ts';
import { applyStep, initialContext, saveInput } from './program-context.ts';
import type { ProblemProgram } from './program.ts';
import { posts, programSetup, type ProgramSetup } from './program.setup.ts';

/** Where the program runs: its replies are taken, and its effects decide what comes next. */
function runningState(machine: ProgramSetup) {
  return machine.createStateConfig({
    always: [
      { guard: 'flushFirst', target: 'flushing' },
      { guard: 'judgeFirst', target: 'judging' },
      { guard: 'saveNow', target: 'saving' },
      { guard: 'dedupNow', target: 'deduplicating' },
      { guard: 'finished', target: 'done' },
    ],
    on: { '*': { actions: 'receive' } },
  });
}

function deduplicatingState(machine: ProgramSetup, program: ProblemProgram<unknown>) {
  return machine.createStateConfig({
    on: { '*': { actions: 'takeJudgeReply' } },
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
          const { changes, post } = applyStep(context, program.deduped(context.state, event.output, context.input));
          enqueue.assign(changes);
          for (const action of posts(post)) enqueue(action);
        }),
      },
    },
  });
}

/** The grading stage every strategy's candidates pass through: the LLM judge's passes on each candidate. */
function judgingState(machine: ProgramSetup) {
  return machine.createStateConfig({
    entry: 'startJudgeStage',
    always: [
      { guard: 'allJudged', target: 'saving', actions: 'gradeCurrent' },
      { guard: 'mayRunAhead', target: 'running', actions: 'runAhead' },
    ],
    on: { '*': { actions: 'takeJudgeReply' } },
  });
}

/** The iteration before is saved once its judge passes are in; then the current effect is taken up again. */
function flushingState(machine: ProgramSetup, id: string) {
  return machine.createStateConfig({
    initial: 'grading',
    on: { '*': { actions: 'takeJudgeReply' } },
    states: {
      grading: { always: { guard: 'previousJudged', target: 'saving', actions: 'gradePrevious' } },
      saving: {
        invoke: {
          src: 'saveIteration',
          input: ({ context }) => {
            if (context.previous === null) throw new TmasError('TMAS_INTERNAL', 'flushing without an iteration to save');
            return saveInput(context.input, context.previous.effect, context.previous.judging, context.asked);
          },
          onDone: [
            { guard: ({ event }) => event.output.saved, target: `#${id}.running`, actions: 'announcePrevious' },
            // A call of that iteration failed for good: the problem stops there, once this iteration's passes are in.
            { target: `#${id}.draining`, actions: 'stopAtPrevious' },
          ],
        },
      },
    },
  });
}

function savingState(machine: ProgramSetup) {
  return machine.createStateConfig({
    on: { '*': { actions: 'takeJudgeReply' } },
    invoke: {
      src: 'saveIteration',
      input: ({ context }) => {
        if (context.effect.kind !== 'save') throw new TmasError('TMAS_INTERNAL', 'saving without a save effect');
        return saveInput(context.input, context.effect, context.judging, context.asked);
      },
      onDone: [
        { guard: ({ event }) => event.output.saved, target: 'running', actions: 'announceAndContinue' },
        // A call of this iteration failed for good: nothing of it is a result; the problem stops here, unmarked.
        { target: 'done', actions: 'stopAtCurrent' },
      ],
    },
  });
}

/** Builds the problem actor definition of a strategy from its program. */
export function createProgramMachine<S>(typed: ProblemProgram<S>) {
  // The machine never looks into the program's state: past this point it is opaque.
  const program = typed as ProblemProgram<unknown>;
  const machine = programSetup(program);
  return machine.createMachine({
    id: program.id,
    context: ({ input }) => initialContext(program, input),
    initial: 'running',
    entry: 'announceStart',
    states: {
      running: runningState(machine),
      deduplicating: deduplicatingState(machine, program),
      judging: judgingState(machine),
      flushing: flushingState(machine, program.id),
      saving: savingState(machine),
      // The previous iteration was not saved: this one's passes are let in (a resume finds them journaled), then the problem stops.
      draining: { on: { '*': { actions: 'takeJudgeReply' } }, always: { guard: 'allJudged', target: 'done' } },
      done: { type: 'final', entry: 'announceCompletion' },
    },
  });
}
