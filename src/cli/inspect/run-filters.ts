/**
 * The filters `tmas log`, `tmas calls` and `tmas show` take (`--problem`,
 * `--role`, `--type`), checked against the run before anything is read: a
 * problem or a role the run does not have matched nothing, and `tmas log
 * DIR --role verifier` printed nothing and exited 0, as if the run had no such
 * calls. Each is refused with what the run has.
 */
import { UserError } from '../../kernel/errors.ts';
import { STRATEGIES } from '../../../machines/strategies/index.ts';
import { strategyOutline } from '../../host/strategy/strategy-outline.ts';
import type { RunManifest } from '../../host/run/run-manifest.ts';
import type { Store } from '../../store/store.ts';

/** How many of a run's problem ids a refusal lists. */
const SHOWN_IDS = 5;

/** Refuses `--problem id` when the run has no such problem, listing the first of its own. */
export function refuseUnknownProblem(ids: readonly string[], id: string, runDir: string): void {
  if (ids.includes(id)) return;
  const known = ids.slice(0, SHOWN_IDS).join(', ');
  throw new UserError('TMAS_USAGE', `--problem ${id}: no such problem in ${runDir} (its problems include ${known}${ids.length > SHOWN_IDS ? ', …' : ''}).`);
}

/** The roles of a run that make calls: its strategy's, and the judge when it was judged; empty when the strategy is not one tmas knows. */
function rolesOf(manifest: RunManifest): string[] {
  if (STRATEGIES[manifest.strategy] === undefined) return [];
  return strategyOutline(manifest.strategy, manifest.config.judge.passes).roles.map(({ role }) => role);
}

/** Refuses `--role r` when the run's strategy has no such role (a multi-call role's `r#k` counts as `r`). */
function refuseUnknownRole(manifest: RunManifest, role: string, runDir: string): void {
  const roles = rolesOf(manifest);
  if (roles.length === 0 || roles.includes(role.replace(/#\d+$/, ''))) return;
  throw new UserError('TMAS_USAGE', `--role ${role}: the ${manifest.strategy} run in ${runDir} has no such role (its roles: ${roles.join(', ')}).`);
}

/** Refuses a `--type` that is neither a message type (they all hold a dot: bank.updated) nor a prefix ending in one. */
function refuseTypeWithoutDot(type: string): void {
  if (type.includes('.')) return;
  throw new UserError('TMAS_USAGE', `--type ${type}: no message type is a single word (they read like bank.updated or judge.completed). Give a whole type, or --type ${type}. for every type that starts with "${type}.".`);
}

/** Checks the filters given against the run in `store` before a command reads it. */
export async function checkRunFilters(store: Store, manifest: RunManifest, runDir: string, filters: { problem?: string | undefined; role?: string | undefined; type?: string | undefined }): Promise<void> {
  if (filters.type !== undefined) refuseTypeWithoutDot(filters.type);
  if (filters.role !== undefined) refuseUnknownRole(manifest, filters.role, runDir);
  if (filters.problem !== undefined) refuseUnknownProblem((await store.loadProblems()).map((problem) => problem.id), filters.problem, runDir);
}
