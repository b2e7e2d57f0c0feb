/**
 * The calls of one run of the schedule benchmark (schedule.bench.ts) and what
 * each waits for: per problem and iteration, N solutions, M verifications of
 * each, a summary of each, then the two bank updates, and with the judge its
 * passes on each solution. Under a barrier each phase waits for the whole
 * previous one (the asyncio-like client); otherwise each call waits only for
 * its own inputs, as tmas's TMAS loop does.
 */
import type { IterationPlan, RunShape } from './schedule-plans.ts';
import type { Rule } from './schedule-rules.ts';
import { DEFAULT_PROMPT_TOKENS } from '../../src/plan/lengths.ts';
import type { ScheduledServer } from '../../src/plan/scheduled-server.ts';
import { TRUE_CHAIN, type KnownChain } from './partial-knowledge.ts';

/** Sends `count` calls and calls `then` once all are done. */
function all(count: number, each: (index: number, done: () => void) => void, then: () => void): void {
  let left = count;
  for (let index = 0; index < count; index++) each(index, () => --left === 0 && then());
}

/** The calls of one problem's iteration, each held with the chain from it to the problem's end that the rule knows (the true one, or partly). */
class IterationCalls {
  private readonly afterSummary: number;

  constructor(
    private readonly server: ScheduledServer,
    private readonly problem: number,
    private readonly iteration: number,
    private readonly plan: IterationPlan,
    /** The longest chain from the end of this iteration's banks to the problem's end. */
    private readonly rest: number,
    /** The chain a call is ranked by, from its true one (partial-knowledge.ts). */
    private readonly known: KnownChain,
    /** The problem's iterations after this one. */
    private readonly iterationsAfter: number,
  ) {
    this.afterSummary = Math.max(...plan.banks) + rest;
  }

  solution(k: number, done: () => void): void {
    const { solutions, checks, summaries } = this.plan;
    this.send('solution', solutions[k] as number, (solutions[k] as number) + Math.max(...(checks[k] as number[])) + (summaries[k] as number) + this.afterSummary, done);
  }

  check(k: number, v: number, done: () => void): void {
    const length = (this.plan.checks[k] as number[])[v] as number;
    this.send('verification', length, length + (this.plan.summaries[k] as number) + this.afterSummary, done);
  }

  summary(k: number, done: () => void): void {
    const length = this.plan.summaries[k] as number;
    this.send('summary', length, length + this.afterSummary, done);
  }

  judge(k: number, p: number, done: () => void): void {
    this.send('judge', (this.plan.judges[k] as number[])[p] as number, 0, done);
  }

  /** The experience and guideline calls; `then` once both are done. */
  banks(then: () => void): void {
    const { banks } = this.plan;
    all(2, (b, done) => this.send(b === 0 ? 'experience' : 'guideline', banks[b] as number, (banks[b] as number) + this.rest, done), then);
  }

  private send(role: string, outputTokens: number, chain: number, done: () => void): void {
    // A judge's call goes after every call of the loop whatever its chain (CallRank grading).
    const known = role === 'judge' ? chain : this.known(role, chain - this.rest, this.rest, this.iterationsAfter);
    const call = { problem: this.problem, iteration: this.iteration, role, promptTokens: DEFAULT_PROMPT_TOKENS[role] ?? 1_000, outputTokens, chain: known };
    this.server.send(call, done);
  }
}

/** One run: every problem's iterations, one after another, on `server`. */
export class ScheduleRun {
  /** after[problem][iteration]: the longest chain from the end of that iteration's banks to the problem's end. */
  private readonly after: number[][];
  /** judgesLeft[problem][iteration]: its judge passes still out. */
  private readonly judgesLeft: number[][] = [];
  /** gradedWaiters[problem]: the next iteration waiting on an iteration's judge passes. */
  private readonly gradedWaiters: Array<Map<number, () => void>> = [];

  constructor(
    private readonly rule: Rule,
    private readonly run: RunShape,
    private readonly plans: IterationPlan[][],
    private readonly judgePasses: number,
    private readonly server: ScheduledServer,
    private readonly known: KnownChain = TRUE_CHAIN,
  ) {
    this.after = plans.map((iterations) => iterations.map((_, iteration) => iterations.slice(iteration + 1).reduce((sum, plan) => sum + plan.longest, 0)));
  }

  /** Holds the first calls of every problem and sends what the server takes. */
  start(): void {
    for (let problem = 0; problem < this.run.problems; problem++) this.iterate(problem, 0);
    this.server.pump();
  }

  private iterate(problem: number, iteration: number): void {
    const plan = this.plans[problem]?.[iteration];
    if (plan === undefined) return;
    const calls = new IterationCalls(this.server, problem, iteration, plan, (this.after[problem] as number[])[iteration] as number, this.known, this.run.iterations - iteration - 1);
    if (this.rule.barrier) this.withBarriers(calls, problem, iteration);
    else this.pipelined(calls, problem, iteration);
    this.server.pump();
  }

  /** Each phase waits for the whole previous one; the judge passes go with the verifications, the phase after the solutions. */
  private withBarriers(calls: IterationCalls, problem: number, iteration: number): void {
    const { candidates: n, verifications: m } = this.run;
    const judgePasses = this.judgePasses;
    all(n, (k, done) => calls.solution(k, done), () =>
      all(
        n * (m + judgePasses),
        (j, done) => (j < n * m ? calls.check(Math.floor(j / m), j % m, done) : calls.judge(Math.floor((j - n * m) / judgePasses), (j - n * m) % judgePasses, done)),
        () => all(n, (k, done) => calls.summary(k, done), () => calls.banks(() => this.iterate(problem, iteration + 1))),
      ),
    );
  }

  /**
   * Once its solution is in, a candidate's judge passes start; the bank updates wait only for the
   * summaries, and the next iteration for the banks and the previous iteration's judge passes
   * (as the TMAS loop does: it runs at most one iteration ahead of its grading).
   */
  private pipelined(calls: IterationCalls, problem: number, iteration: number): void {
    const { candidates: n, verifications: m } = this.run;
    const judgePasses = this.judgePasses;
    const judging = (this.judgesLeft[problem] ??= []);
    judging[iteration] = n * judgePasses;
    let banksDone = false;
    let started = false;
    const next = (): void => {
      if (started || !banksDone) return;
      if ((judging[iteration - 1] ?? 0) > 0) {
        (this.gradedWaiters[problem] ??= new Map()).set(iteration - 1, next);
        return;
      }
      started = true;
      this.iterate(problem, iteration + 1);
    };
    const judged = (): void => {
      if (--(judging[iteration] as number) > 0) return;
      const waiter = this.gradedWaiters[problem]?.get(iteration);
      this.gradedWaiters[problem]?.delete(iteration);
      waiter?.();
    };
    const candidate = (k: number, done: () => void) =>
      calls.solution(k, () => {
        for (let p = 0; p < judgePasses; p++) calls.judge(k, p, judged);
        all(m, (v, checked) => calls.check(k, v, checked), () => calls.summary(k, done));
      });
    all(n, candidate, () =>
      calls.banks(() => {
        banksDone = true;
        next();
      }),
    );
  }
}
