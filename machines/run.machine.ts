/**
 * The run actor: spawns the role actors and one problem actor per problem,
 * keeps at most `maxActive` problems running (0: all), and finishes when every
 * problem is done. Problems are independent: there is no barrier between them.
 */
import { assign, enqueueActions, fromPromise, setup } from 'xstate';
import { TmasError } from '../src/kernel/errors.ts';
import type { MessageOf } from '../src/kernel/protocol.ts';
import { postNotProvided, type PostParams } from './post.ts';
import type { ProblemInput } from './contract.ts';
import type { RoleOptions } from './role.machine.ts';

export interface RunInput {
  run: string;
  /** The role actors to spawn, by the name under which the strategy provides them. */
  roles: string[];
  problems: ProblemInput[];
  roleOptions: RoleOptions;
  /** Problems running at once; 0 runs all at once. */
  maxActive: number;
  simulated: boolean;
}

interface RunContext extends RunInput {
  next: number;
  completed: number;
}

/** The systemId of a problem actor: the bus delivers `problem:<id>` messages to it. */
export function problemAddress(id: string): `problem:${string}` {
  return `problem:${id}`;
}

/** The run actor's definition. */
/** Placeholder for the strategy's problem machine; fails loudly if the host did not provide one. */
const problemNotProvided = fromPromise<never, ProblemInput>(async () => {
  throw new TmasError('TMAS_NOT_PROVIDED', 'the run machine was not provided with a strategy\'s problem machine');
});

export const runMachine = setup({
  types: {
    context: {} as RunContext,
    input: {} as RunInput,
    events: {} as MessageOf<'problem.completed'>,
    output: {} as { completed: number },
  },
  actors: {
    // The host provides the strategy's problem machine and its role machines (by name) with `provide()`.
    problem: problemNotProvided,
  },
  actions: {
    post: postNotProvided as (_: unknown, params: PostParams) => void,
    startProblems: enqueueActions(({ context, enqueue }) => {
      const limit = context.maxActive > 0 ? context.maxActive : context.problems.length;
      let next = context.next;
      for (; next < context.problems.length && next - context.completed < limit; next++) {
        const input = context.problems[next];
        if (!input) break;
        const address = problemAddress(input.problem.id);
        enqueue.spawnChild('problem', { id: address, systemId: address, input });
      }
      if (next !== context.next) enqueue.assign({ next });
    }),
  },
  guards: {
    allDone: ({ context }) => context.completed >= context.problems.length,
  },
}).createMachine({
  id: 'run',
  context: ({ input }) => ({ ...input, next: 0, completed: 0 }),
  initial: 'running',
  states: {
    running: {
      entry: [
        enqueueActions(({ context, enqueue }) => {
          // Role machines are provided by name, so their names are not known to the types here. Each is provided
          // as the group of its shards (role-shards.ts): the bus delivers each request to one of them.
          for (const role of context.roles) enqueue.spawnChild(role as 'problem', { id: `shards:${role}`, input: context.roleOptions as never });
          enqueue({
            type: 'post',
            params: {
              message: { type: 'run.started', run: context.run, problem: '', iteration: -1, correlation: 'run/start', problems: context.problems.length, simulated: context.simulated },
            },
          });
        }),
        'startProblems',
      ],
      always: { guard: 'allDone', target: 'done' },
      on: {
        'problem.completed': {
          actions: [
            enqueueActions(({ event, enqueue }) => enqueue.stopChild(problemAddress(event.problem))),
            assign({ completed: ({ context }) => context.completed + 1 }),
            'startProblems',
          ],
        },
      },
    },
    done: {
      type: 'final',
      entry: {
        type: 'post',
        params: ({ context }) => ({
          message: { type: 'run.completed', run: context.run, problem: '', iteration: -1, correlation: 'run/done', problems: context.problems.length },
        }),
      },
    },
  },
  output: ({ context }) => ({ completed: context.completed }),
});
