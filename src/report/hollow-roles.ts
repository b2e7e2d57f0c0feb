/**
 * The roles of a run that received outputs and could use none, in any
 * iteration (the judge aside: it grades, it is no part of the method). Such a
 * run never ran as its method is designed: a TMAS whose every verification
 * lost its `SCORE:` line, a mas-ceo whose every plan was prose. Its Pass@1
 * can still look plausible (50.0 at --sim-break-formats 1 under the rule),
 * so table1.md's headline and the report's runs tables say it is no result
 * of the method named, not only a ⚠ per role.
 */
import { noneUsable, roleOutputTotals, type RoleOutputs } from '../observers/role-outputs.ts';
import { isAnswerlessReason } from '../kernel/answerless-reason.ts';

/** The judge's role name: its unusable replies leave candidates ungraded, which table1-ungraded.ts says apart. */
const JUDGE = 'judge';

/** What this check reads of a run: its iterations' outputs per role, and how it was graded (metrics.json's evaluation). */
export interface RunRoleOutputs {
  iterations: ReadonlyArray<{ iteration: number; outputsByRole?: Record<string, RoleOutputs> }>;
  evaluation?: Record<string, unknown> | null;
}

/**
 * The run's roles, the judge aside, with outputs and none usable over every iteration, by name. Under a judge, a
 * role whose outputs only lacked a final answer is no such role: those replies are the candidates the judge graded
 * from their text (a self-refine whose every rewrite lost its box is graded on its rewrites, not run without them).
 */
export function deadRoles(run: RunRoleOutputs): Array<[string, RoleOutputs]> {
  const judged = run.evaluation?.grading === 'judge';
  return Object.entries(roleOutputTotals([...run.iterations]))
    .filter(([role, counts]) => role !== JUDGE && noneUsable(counts))
    .filter(([, counts]) => !(judged && isAnswerlessReason(counts.reason)))
    .sort(([a], [b]) => (a < b ? -1 : 1));
}

/**
 * `not one output of its experience and verification roles could be used, in any iteration (experience 24 of 24,
 * verification 66 of 66; e.g. "…"): its figures are of what ran without them, not of tmas`; null when every role used some.
 */
export function hollowSentence(method: string, run: RunRoleOutputs): string | null {
  const dead = deadRoles(run);
  if (dead.length === 0) return null;
  const names = dead.map(([role]) => role);
  const roles = names.length === 1 ? `its ${names[0]} role` : `its ${names.slice(0, -1).join(', ')} and ${names.at(-1)} roles`;
  const counts = dead.map(([role, c]) => `${role} ${c.unusable} of ${c.outputs}`).join(', ');
  const reason = dead.find(([, c]) => c.reason !== null)?.[1].reason;
  const example = reason == null ? '' : `; e.g. ${JSON.stringify(reason)}`;
  return `not one output of ${roles} could be used, in any iteration (${counts}${example}): its figures are of what ran without ${names.length === 1 ? 'it' : 'them'}, not of ${method}`;
}
