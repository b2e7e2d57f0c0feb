/**
 * The simulated Guideline agent: one record per distinct strategy among the
 * rollouts (their "Strategy:" line, else the problem's default strategy), with
 * an outcome built from the answers and scores, skipping strategies the bank
 * already holds. Valid JSON in a ```json block.
 */
import type { Responder } from './responder.ts';
import { readGuidelines, readRollouts, type RolloutView } from '../model/wire.ts';

function outcomeOf(rollouts: RolloutView[]): string {
  const results = rollouts.map(
    (r) => `candidate ${r.candidate} answered ${r.answer ?? 'nothing'} (score ${r.score === null ? 'none' : r.score.toFixed(2)})`,
  );
  const scores = rollouts.flatMap((r) => (r.score === null ? [] : [r.score]));
  const best = scores.length > 0 ? `best score ${Math.max(...scores).toFixed(2)}` : 'no scores';
  return `${results.join('; ')}; ${best}`;
}

/** Answers a Guideline-agent request. */
export const respondGuideline: Responder = ({ problem, rest }) => {
  const held = new Set(readGuidelines(rest));
  const byStrategy = new Map<string, RolloutView[]>();
  for (const rollout of readRollouts(rest)) {
    const strategy = rollout.strategy ?? problem.defaultStrategy;
    byStrategy.set(strategy, [...(byStrategy.get(strategy) ?? []), rollout]);
  }
  const guidelines = [...byStrategy]
    .filter(([strategy]) => !held.has(strategy))
    .map(([strategy, rollouts]) => ({ strategy, outcome: outcomeOf(rollouts), candidates: rollouts.map((r) => r.candidate) }));
  const json = JSON.stringify({ guidelines }, null, 2);
  return `Strategies used in this round:\n\n\`\`\`json\n${json}\n\`\`\``;
};
