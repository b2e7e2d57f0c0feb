/**
 * The run actor of one run: the run machine with the strategy's problem
 * machine and roles (the judge's too), each given its side effects: the LLM
 * call, posting to the bus, deduplicating banks in the pool, and saving an
 * iteration in the store.
 */
import { createActor, fromPromise, type Actor, type AnyActorLogic } from 'xstate';
import type { DedupBanksInput, DedupBanksOutput, ProblemInput, SaveIterationInput, SaveIterationOutput } from '../../../machines/contract.ts';
import { judgeMachine } from '../../../machines/roles/judge.role.ts';
import { runMachine } from '../../../machines/run.machine.ts';
import { roleShards } from '../../../machines/role-shards.ts';
import { callLlmWith } from '../../../machines/start-call.ts';
import type { Strategy } from '../../../machines/strategies/index.ts';
import type { Pool } from '../../pool/pool.ts';
import type { Store } from '../../store/store.ts';
import { dedupBanks } from '../banks.ts';
import type { CallFailures } from '../calls/call-failures.ts';
import type { RunConfig } from '../../settings/config.ts';
import type { postTo } from '../delivery.ts';

/** What the run's machines are given to act on the world. */
export interface RunEffects {
  llm: AnyActorLogic;
  post: ReturnType<typeof postTo>;
  pool: Pool;
  store: Store;
  failures: CallFailures;
}

/** The problem machine's own actors: deduplicating banks in the pool, saving an iteration unless one of its calls failed for good. */
function problemActors(config: RunConfig, { pool, store, failures }: RunEffects) {
  return {
    dedupBanks: fromPromise<DedupBanksOutput, DedupBanksInput>(({ input, signal }) => dedupBanks(pool, input, { shingle: config.loop.jaccardShingle, maxRecords: config.loop.bankMaxRecords }, signal)),
    saveIteration: fromPromise<SaveIterationOutput, SaveIterationInput>(async ({ input }) => {
      // The journal holds successes only, and so do the iteration marks: a resume does this iteration again.
      if (failures.isStopped(input.problem, input.iteration)) return { saved: false };
      await store.saveIteration(
        { problem: input.problem, ordinal: input.ordinal, iteration: input.iteration, candidates: input.candidates, rollouts: input.rollouts, judged: input.judged, ...(input.bank === undefined ? {} : { bank: input.bank }) },
        { experience: input.experience, guidelines: input.guidelines },
      );
      return { saved: true };
    }),
  };
}

/** The run actor, not started: every role provided with the LLM call, the problem machine with its actors. */
export function createRunActor(
  config: RunConfig,
  strategy: Strategy,
  effects: RunEffects,
  input: { run: string; simulated: boolean; problems: ProblemInput[] },
): Actor<typeof runMachine> {
  const { llm, post } = effects;
  const roleImplementations = { actors: { llm }, actions: { post, callLlm: callLlmWith(llm) } };
  // Grading is a stage every strategy's candidates pass through: the judge is a role of every run.
  const strategyRoles = { judge: judgeMachine, ...strategy.roles };
  const roles = Object.fromEntries(Object.entries(strategyRoles).map(([name, role]) => [name, roleShards(name, role.provide(roleImplementations as never))]));
  const machine = runMachine.provide({
    actions: { post },
    actors: {
      ...roles,
      // A strategy's problem machine is typed loosely (AnyStateMachine); the run machine checks nothing more of it.
      problem: strategy.problem.provide({ actions: { post }, actors: problemActors(config, effects) }) as never,
    },
  });
  return createActor(machine, {
    input: {
      run: input.run,
      roles: Object.keys(strategyRoles),
      simulated: input.simulated,
      maxActive: config.loop.activeProblems,
      roleOptions: { proof: config.loop.proof, temperature: config.roles.temperature, parseRetries: config.roles.parseRetries },
      problems: input.problems,
    },
  });
}
