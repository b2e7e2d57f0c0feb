/**
 * The contract of a problem program: a strategy's per-problem loop written as
 * pure functions (a reducer over the replies), which `createProgramMachine`
 * (program.machine.ts) turns into the problem actor. Every strategy, TMAS
 * included, is one.
 */
import type { BankUpdated, CandidateResult, ExperienceRecord, GuidelineRecord, Message, Rollout } from '../src/kernel/protocol.ts';
import type { DedupBanksInput, DedupBanksOutput, ProblemInput } from './contract.ts';
import type { JudgedResponse } from './judge-stage.ts';

/** An iteration ready to be judged, saved and announced. */
export interface SaveEffect {
  kind: 'save';
  iteration: number;
  candidates: CandidateResult[];
  rollouts?: Rollout[];
  /** The banks as they stand after this iteration (stored with it; a resume of TMAS starts from them). */
  experience?: ExperienceRecord[];
  guidelines?: GuidelineRecord[];
  /** Posted as `bank.updated` before `iteration.completed`. */
  bank?: Omit<BankUpdated, 'type' | 'run' | 'problem' | 'iteration' | 'correlation'>;
  /** What the judge stage reads of each candidate (`saveOf` in kit.ts fills it); without it the iteration is not judged. */
  responses?: JudgedResponse[];
}

/** What the program wants done after a step. */
export type Effect = { kind: 'wait' } | SaveEffect | { kind: 'dedup'; input: DedupBanksInput } | { kind: 'done'; iterations: number };

/** One step of a program: its new state, the messages to post (in order) and what comes next. */
export interface Step<S> {
  state: S;
  post: Message[];
  effect: Effect;
  /**
   * Responses of the running iteration to judge now, before the iteration is
   * saved (TMAS: each solution as it arrives, so the judge's passes overlap
   * the rest of the loop). Their requests are posted after `post`. Without
   * it, the candidates are judged when the save effect comes.
   */
  judge?: { iteration: number; responses: JudgedResponse[] };
}

/** A strategy's per-problem loop as pure functions. */
export interface ProblemProgram<S> {
  id: string;
  /**
   * The iteration a problem starts at. Absent: 0, and on resume the journal
   * answers every call that completed. TMAS starts where the stored run
   * stopped, from the banks saved with that iteration (`input.start`).
   */
  firstIteration?(input: ProblemInput): number;
  /** The first requests. */
  start(input: ProblemInput): Step<S>;
  /** A reply (`<role>.completed` or `llm.failed`) arrived. */
  receive(state: S, message: Message, input: ProblemInput): Step<S>;
  /** The `dedupBanks` actor answered a `dedup` effect. */
  deduped?(state: S, output: DedupBanksOutput, input: ProblemInput): Step<S>;
  /** The iteration of the last `save` effect is durable and announced. */
  saved(state: S, input: ProblemInput): Step<S>;
}

/** A step that only waits for replies. */
export function waiting<S>(state: S, post: Message[] = []): Step<S> {
  return { state, post, effect: { kind: 'wait' } };
}

/** The step that ends the problem after `iterations` iterations (rounds); null while `--max-iterations` is not reached. */
export function finishedAfter<S>(state: S, iterations: number, input: ProblemInput): Step<S> | null {
  return iterations >= input.settings.maxIterations ? { state, post: [], effect: { kind: 'done', iterations } } : null;
}

/**
 * The `saved` step of a program whose iterations (rounds) count from 0: once
 * iteration `saved` is durable, the problem ends when it was the last
 * (`--max-iterations`), else `next` starts the one after it.
 */
export function nextIteration<S>(state: S, saved: number, input: ProblemInput, next: (iteration: number) => Step<S>): Step<S> {
  const iteration = saved + 1;
  return finishedAfter(state, iteration, input) ?? next(iteration);
}
