/**
 * Where a plan's call lengths come from: drawn as the simulator's capacity
 * model draws them (a log-normal shaped like a thinking model's outputs,
 * src/sim/capacity/output-length.ts), or resampled from an earlier run's
 * journal, role by role. Each draw is keyed by what it is about (draw,
 * problem, iteration, role, index), so a plan is the same every time.
 */
import { uniformFor } from '../kernel/prng.ts';
import { outputLengthOf } from '../sim/capacity/output-length.ts';
import type { CallLengths } from './call-graph.ts';

/** What a call is, for its lengths. */
export interface CallKey {
  draw: number;
  problem: number;
  iteration: number;
  role: string;
  index: number;
  /** The method, when several are planned together (a table): their calls draw apart. */
  run?: string;
}

/** Gives each call its prompt and output tokens. */
export interface LengthModel {
  /** In words, for the printed plan. */
  description: string;
  lengthsOf(key: CallKey): CallLengths;
}

/** Prompt sizes by role when no journal gives them, in tokens (a role not named: 1,000); they set the KV cache and prefill each call takes. */
export const DEFAULT_PROMPT_TOKENS: Readonly<Record<string, number>> = { solution: 500, verification: 2_500, summary: 4_000, experience: 4_000, guideline: 4_000 };

/** The log-normal the lengths are drawn from, and the completion limits that cap them. */
export interface DrawnShape {
  median: number;
  p99: number;
  /** How much lengths depend on the problem (the capacity model's `outputTokensProblemSpread`). */
  problemSpread: number;
  /** The completion limit of the loop's calls (null: none but the window). */
  completionLimit: number | null;
  /** The judge's completion limit. */
  judgeLimit: number;
}

/** Lengths drawn from the capacity model's output distribution; prompts from the role table. */
export function drawnLengths(shape: DrawnShape): LengthModel {
  return {
    description: `drawn: log-normal, median ${shape.median}, p99 ${shape.p99} output tokens${shape.problemSpread > 0 ? `, problem spread ${shape.problemSpread}` : ''}; prompts by role (${Object.entries(DEFAULT_PROMPT_TOKENS).map(([role, tokens]) => `${role} ${tokens}`).join(', ')}, else 1000)`,
    lengthsOf({ draw, problem, iteration, role, index, run }) {
      const at = run === undefined ? `${draw}` : `${draw}/${run}`;
      const key = `${at}/${problem}/${iteration}/${role}/${index}`;
      const limit = role === 'judge' ? shape.judgeLimit : shape.completionLimit;
      // A problem's spread is the problem's, whichever method runs it: a hard problem is hard for all.
      const outputTokens = outputLengthOf(key, { median: shape.median, p99: shape.p99, problemSpread: shape.problemSpread, problem: `${draw}/${problem}` }, limit);
      return { promptTokens: DEFAULT_PROMPT_TOKENS[role] ?? 1_000, outputTokens };
    },
  };
}

/** Lengths resampled from journaled calls of the same role (of any role where the journal has none of it). */
export function journalLengths(calls: ReadonlyArray<CallLengths & { role: string }>, source: string): LengthModel {
  const byRole = new Map<string, CallLengths[]>();
  for (const call of calls) {
    const own = byRole.get(call.role) ?? [];
    own.push({ promptTokens: call.promptTokens, outputTokens: call.outputTokens });
    byRole.set(call.role, own);
  }
  const all = calls.map(({ promptTokens, outputTokens }) => ({ promptTokens, outputTokens }));
  return {
    description: `resampled from the ${calls.length} calls journaled in ${source}, role by role`,
    lengthsOf({ draw, problem, iteration, role, index, run }) {
      const pool = byRole.get(role) ?? all;
      const u = run === undefined ? uniformFor('plan-lengths', draw, problem, iteration, role, index) : uniformFor('plan-lengths', draw, run, problem, iteration, role, index);
      return pool[Math.floor(u * pool.length)] as CallLengths;
    },
  };
}
