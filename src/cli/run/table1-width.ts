/**
 * The width of a column of `table1.md`: what the method drew, not the flags it
 * was offered. A strategy declares which of N and M it reads (its
 * `loopSettings`): `tmas` and `verify-refine` read both, `self-refine` and
 * `rse` N alone; `majority` draws its vote pool up front, the votes taken over
 * draws of k of it; the others (`mas-ceo`'s one solution a round, `pacore`'s
 * round widths) are read from the candidates each round held.
 */
import { strategyOutline } from '../../host/strategy/strategy-outline.ts';
import type { Table1Method } from './table1-method.ts';

/** The candidates a problem's round held at most, per round in order (a round that failed holds fewer). */
function candidatesPerRound(method: Table1Method): number[] {
  const rounds = new Map<number, number>();
  for (const problem of method.run.problems) {
    for (const it of problem.iterations) rounds.set(it.iteration, Math.max(rounds.get(it.iteration) ?? 0, it.candidates));
  }
  return [...rounds].sort(([a], [b]) => a - b).map(([, count]) => count);
}

/** `4 per round`, `4, then 1 per round`: the widths of the rounds, each change named once. */
function describeRounds(widths: number[]): string {
  const changes = widths.filter((width, i) => i === 0 || width !== widths[i - 1]);
  return changes.length === 0 ? '?' : `${changes.join(', then ')} per round`;
}

/** `N=8 M=8`, `256 samples, votes of 64`, `1 per round`: what the method drew per problem and round. */
export function widthOf(method: Table1Method): string {
  const evaluation = method.run.evaluation;
  if (method.strategy === 'majority') {
    const k = Number(method.options.samples);
    const pool = method.draws?.pool ?? k;
    return pool > k ? `${pool} samples, votes of ${k}` : `${k} samples`;
  }
  const reads = strategyOutline(method.strategy, 0).loopSettings;
  const setting = (key: 'nCandidates' | 'nVerifications') => (typeof evaluation?.[key] === 'number' ? evaluation[key] : '?');
  const candidates = reads.includes('nCandidates') ? `N=${setting('nCandidates')}` : describeRounds(candidatesPerRound(method));
  return reads.includes('nVerifications') ? `${candidates} M=${setting('nVerifications')}` : candidates;
}
