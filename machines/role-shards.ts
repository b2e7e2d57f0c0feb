/**
 * The ROLE_SHARDS actors of one role, as children of an actor of their own
 * rather than of the run actor. XState copies an actor's whole child map on
 * every spawn and every stop of a child, so the run actor holding every
 * role's shards (8 roles × 32) paid a quadratic copy when it spawned them and
 * again when it ended: some 50 ms of each run, however small (a run of 5
 * calls among them). Grouped by role, each copy is of 32 children at most.
 * The shards keep their system ids, so the bus finds them as before; an error
 * of one fails its group, and with it the run, as it failed the run before.
 */
import { enqueueActions, setup, type AnyActorLogic } from 'xstate';
import { ROLE_SHARDS, roleShardId } from '../src/kernel/routes.ts';
import type { RoleOptions } from './role.machine.ts';

/** The actor logic that spawns the shards of `role`, each running `logic` with the options it is given. */
export function roleShards(role: string, logic: AnyActorLogic) {
  return setup({
    types: { input: {} as RoleOptions, context: {} as { options: RoleOptions } },
    actors: { shard: logic },
  }).createMachine({
    id: `shards:${role}`,
    context: ({ input }) => ({ options: input }),
    entry: enqueueActions(({ context, enqueue }) => {
      for (let shard = 0; shard < ROLE_SHARDS; shard++) {
        const id = roleShardId(`role:${role}`, shard);
        enqueue.spawnChild('shard', { id, systemId: id, input: context.options as never });
      }
    }),
  });
}
