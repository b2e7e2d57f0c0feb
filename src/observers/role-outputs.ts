/**
 * What each role made of its completions, counted from the message stream:
 * how many it received and how many it could not use. Two paths report an
 * unusable output, and both count:
 *
 * - the role machine's `validate` rejects it: an `output.invalid` message,
 *   asked again (`retrying`) or, after the last parse retry, followed by the
 *   role's reply (counted once, as that reply);
 * - the reply itself carries a `parseError` (RSE's distiller, the CEO, a
 *   critic, the bank agents' final reply): a strategy that asks again by
 *   itself shows each attempt as a reply of its own.
 *
 * A role more than a share of whose outputs of an iteration were unusable
 * (DEFAULT_UNUSABLE_SHARE, 10%) fed the rest of its strategy less than it was
 * designed to (an emptier bank, a default plan, a missing vote): the end of
 * the run warns of it, the report marks it, and table1.md notes it beside the
 * method with the share.
 */
import type { Message } from '../kernel/protocol.ts';

/** One role's completions in one iteration. */
export interface RoleOutputs {
  /** Completions the role received (every attempt, the ones asked again included). */
  outputs: number;
  /** Of those, the ones it could not use (unparseable, not of the format or schema, empty). */
  unusable: number;
  /** Of the unusable ones, those the role machine asked again (`--parse-retries`). */
  retried: number;
  /** One reason given, the first in sort order (so that it does not depend on arrival order); null when none. */
  reason: string | null;
  /**
   * Of the outputs, those cut at their length limit (or stopped by a content filter): what a
   * reasoning model that fills its window costs, shown in each column's budget; absent when none
   * (and in metrics written before it was counted).
   */
  cut?: number;
}

/** Whether a reply of this finish reason was cut before its end. */
function wasCut(finishReason: string | undefined): boolean {
  return finishReason === 'length' || finishReason === 'content_filter';
}

/**
 * Above this share of a role's outputs in an iteration, its unusable outputs
 * are a warning, a mark in the report and in table1.md (`--unusable-warn-share`).
 */
export const DEFAULT_UNUSABLE_SHARE = 0.1;

/** A role more than the warned share of whose outputs were unusable in some iterations. */
export interface UnusableRole {
  role: string;
  /** The iterations where more than the share of the role's outputs were unusable. */
  iterations: number[];
  /** The role's outputs in those iterations. */
  outputs: number;
  /** Of those, the unusable ones. */
  unusable: number;
  reason: string | null;
}

/** The per-iteration figures this fold reads (`outputsByRole` is absent from metrics written before it was). */
interface WithRoleOutputs {
  iteration: number;
  outputsByRole?: Record<string, RoleOutputs>;
}

function add(byRole: Record<string, RoleOutputs>, role: string, unusable: boolean, retried: boolean, reason: string | null, cut: boolean): void {
  const counts = (byRole[role] ??= { outputs: 0, unusable: 0, retried: 0, reason: null });
  counts.outputs++;
  if (cut) counts.cut = (counts.cut ?? 0) + 1;
  if (unusable) counts.unusable++;
  if (retried) counts.retried++;
  if (reason !== null && (counts.reason === null || reason < counts.reason)) counts.reason = reason;
}

/** The correlation of the request an `output.invalid` is about: its own ends in `#attempt`. */
function requestCorrelation(correlation: string): string {
  const hash = correlation.lastIndexOf('#');
  return hash < 0 ? correlation : correlation.slice(0, hash);
}

/** A fold of messages into per-role output counts; one per metrics collector. */
export function createRoleOutputCounter() {
  // Final invalid outputs whose reply is still to come (it follows at once): that reply is the one counted.
  const pending = new Map<string, string>();
  return {
    /**
     * Counts one message into `byRole` (the figures of the message's iteration). Returns true for a
     * reply that carries a parse error no `output.invalid` reported (the faults count it as an invalid output).
     */
    observe(byRole: Record<string, RoleOutputs>, message: Message): boolean {
      if (message.type === 'output.invalid') {
        if (message.retrying) add(byRole, message.role, true, true, message.reason, wasCut(message.finishReason));
        else pending.set(`${message.role}\u0000${requestCorrelation(message.correlation)}`, message.reason);
        return false;
      }
      if (!('call' in message) || !message.type.endsWith('.completed')) return false;
      const role = message.type.slice(0, -'.completed'.length);
      const key = `${role}\u0000${message.correlation}`;
      const reported = pending.get(key);
      if (reported !== undefined) {
        pending.delete(key);
        add(byRole, role, true, false, reported, wasCut(message.call.finishReason));
        return false;
      }
      const parseError = ('parseError' in message ? message.parseError : null) ?? null;
      add(byRole, role, parseError !== null, false, parseError, wasCut(message.call.finishReason));
      return parseError !== null;
    },
  };
}

/**
 * The roles more than `share` of whose outputs were unusable in at least one
 * iteration (every one of them, at share 1 or more: none), with those
 * iterations, by role name.
 */
export function unusableRoles(iterations: WithRoleOutputs[], share = DEFAULT_UNUSABLE_SHARE): UnusableRole[] {
  const byRole = new Map<string, UnusableRole>();
  for (const it of iterations) {
    for (const [role, counts] of Object.entries(it.outputsByRole ?? {})) {
      if (counts.unusable === 0 || counts.unusable <= share * counts.outputs) continue;
      const entry = byRole.get(role) ?? { role, iterations: [], outputs: 0, unusable: 0, reason: null };
      entry.iterations.push(it.iteration);
      entry.outputs += counts.outputs;
      entry.unusable += counts.unusable;
      if (counts.reason !== null && (entry.reason === null || counts.reason < entry.reason)) entry.reason = counts.reason;
      byRole.set(role, entry);
    }
  }
  return [...byRole.values()].sort((a, b) => (a.role < b.role ? -1 : a.role > b.role ? 1 : 0));
}

/** Whether a role received outputs and could use none of them (`counts`: its totals, or none when it received nothing). */
export function noneUsable(counts: Pick<RoleOutputs, 'outputs' | 'unusable'> | undefined): boolean {
  return counts !== undefined && counts.outputs > 0 && counts.unusable === counts.outputs;
}

/** Each role's outputs and unusable outputs over the whole run. */
export function roleOutputTotals(iterations: WithRoleOutputs[]): Record<string, RoleOutputs> {
  const totals: Record<string, RoleOutputs> = {};
  for (const it of iterations) {
    for (const [role, counts] of Object.entries(it.outputsByRole ?? {})) {
      const sum = (totals[role] ??= { outputs: 0, unusable: 0, retried: 0, reason: null });
      sum.outputs += counts.outputs;
      sum.unusable += counts.unusable;
      sum.retried += counts.retried;
      if (counts.cut !== undefined) sum.cut = (sum.cut ?? 0) + counts.cut;
      if (counts.reason !== null && (sum.reason === null || counts.reason < sum.reason)) sum.reason = counts.reason;
    }
  }
  return totals;
}

/** `0-3, 5, 7-8`: iteration numbers as ranges. */
export function iterationRanges(iterations: number[]): string {
  const sorted = [...iterations].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const start = sorted[i] ?? 0;
    let end = start;
    while (sorted[i + 1] === end + 1) end = sorted[++i] ?? end;
    parts.push(end === start ? String(start) : `${start}-${end}`);
  }
  return parts.join(', ');
}

/** A share as a percentage, to one decimal at most: `30%`, `12.5%`. */
function percent(share: number): string {
  return `${Number((100 * share).toFixed(1))}%`;
}

/**
 * One sentence on a role with too many unusable outputs, e.g. `every output of the distill role was
 * unusable in iterations 0-5 (288 outputs; e.g. "…")` or `9 of 24 outputs (37.5%) of the prover role
 * were unusable in iteration 1 (e.g. "…")`.
 */
export function describeUnusableRole(entry: UnusableRole): string {
  const where = entry.iterations.length === 1 ? `iteration ${entry.iterations[0]}` : `iterations ${iterationRanges(entry.iterations)}`;
  const example = entry.reason === null ? '' : `e.g. ${JSON.stringify(entry.reason.length > 120 ? `${entry.reason.slice(0, 117)}...` : entry.reason)}`;
  const { unusable } = entry;
  if (unusable >= entry.outputs) {
    return `every output of the ${entry.role} role was unusable in ${where} (${entry.outputs} output${entry.outputs === 1 ? '' : 's'}${example === '' ? '' : `; ${example}`})`;
  }
  return `${unusable} of ${entry.outputs} outputs (${percent(unusable / entry.outputs)}) of the ${entry.role} role were unusable in ${where}${example === '' ? '' : ` (${example})`}`;
}

/** The role that grades every method's candidates alike: its replies are not the method's own. */
const JUDGE_ROLE = 'judge';

/**
 * What a role's unusable outputs did to the run, for the note beside a method. The judge grades
 * the candidates after the method made them: its unusable replies left passes without a verdict,
 * so the figures are over the candidates it graded ('judged'), while the method ran as designed.
 */
export function unusableEffect(role: string): string {
  return role === JUDGE_ROLE
    ? 'the judge gave no verdict there, so Pass@1 is over the candidates it graded (the method itself ran as designed)'
    : 'the method did not run as designed there';
}

/**
 * The warnings printed on stderr at the end of a run in `dir`: one per role more than `share` of
 * whose outputs were unusable in some iteration (`--unusable-warn-share`).
 */
export function unusableOutputWarnings(iterations: WithRoleOutputs[], dir = 'DIR', share = DEFAULT_UNUSABLE_SHARE): string[] {
  return unusableRoles(iterations, share).map((entry) => {
    const all = entry.unusable >= entry.outputs;
    const effect = entry.role === JUDGE_ROLE
      ? `${all ? '' : `more than the ${percent(share)} warned of: `}${unusableEffect(entry.role)}`
      : all
      ? 'what it feeds the strategy (a bank, a plan, a review) was missing there, so the method did not run as designed'
      : `more than the ${percent(share)} warned of: the strategy asked again for them or went on without what they feed it (a bank, a plan, a review, a vote), so the method did not fully run as designed there`;
    return `tmas: warning: ${describeUnusableRole(entry)}: ${effect}. Check that this role's endpoint answers in the role's output format: tmas calls ${dir} (or tmas view ${dir}) shows its replies.`;
  });
}
