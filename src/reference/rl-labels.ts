/** The RL export's labels, from the kind every role of every built-in strategy declares. */
import { dataSourceOf } from '../cli/inspect/rl-records.ts';
import { roleKinds, STRATEGIES } from '../../machines/strategies/index.ts';
import { generatedBanner, table } from './markdown.ts';

/** The page: what each kind means, then every strategy's roles with their kind, `data_source` and `_source`. */
export function renderRlLabelReference(): string {
  const rows = Object.values(STRATEGIES).flatMap((strategy) =>
    Object.entries(roleKinds(strategy)).map(([role, kind]) => [
      `\`${strategy.name}\``,
      `\`${role}\``,
      kind ?? '(none declared)',
      `\`${dataSourceOf(kind, role)}\``,
      role === 'solution' ? '`solution:<origin>`' : `\`${role}\``,
    ]),
  );
  return [
    generatedBanner('the `kind` of each role definition in machines/'),
    '',
    '# RL record labels',
    '',
    'What `tmas export --format rl` writes in `data_source` and `_source`, by strategy and role ([RL export](../guide/rl-export.md)). ' +
      'A label says what a generation is, the same for every strategy: each role declares its kind once, in its definition (`kind` in machines/role.machine.ts).',
    '',
    table(
      ['kind', 'what the generation is', '`data_source`'],
      [
        ['solution', 'a solution of the problem (a first attempt, a refinement, a synthesis of earlier ones)', '`math`'],
        ['grade', 'a verification, rating, critique or judgement of a solution: the generative-reward records', '`math_grm`'],
        ['memory', 'what later prompts read about earlier attempts: summaries, bank updates, distillations', '`tmas_<role>`'],
        ['plan', 'a decision about what the next calls do: a plan, a team', '`tmas_<role>`'],
      ],
    ),
    '',
    '`extra_info.role` keeps the strategy\'s own role name (a multi-call role\'s call k ≥ 1 is `<role>#k`, a budget-forced continuation `<role>#forced`, each labelled as its role). ' +
      '`_source` is the role that wrote the generation; a `solution` call adds where its prompt came from, `solution:<origin>`: `solution:normal` (the question alone), ' +
      '`solution:experience` (TMAS exploit: R(t-1) and the experience bank E(t-1)), `solution:guideline` (TMAS explore: the guideline bank G(t-1)). ' +
      '`experience` alone is only ever the experience agent\'s bank update. The judge grades the candidates of every strategy.',
    '',
    table(['strategy', 'role', 'kind', '`data_source`', '`_source`'], rows),
    '',
  ].join('\n');
}
