/** Settings of the grading stage's LLM judge (its endpoint and sampling are its slot's, in roles.settings.ts). */
import { UserError } from '../../kernel/errors.ts';
import { decimal, integer } from '../parsers.ts';
import { DEMO } from './run.settings.ts';
import { judgeNamed } from './roles.settings.ts';
import { field } from '../field.ts';
import { setting } from '../setting.ts';
import type { JudgeWhen } from '../../../machines/contract.ts';

/** The completion limit of a judge call without --judge-max-tokens (and of runs whose manifest predates it). */
export const JUDGE_MAX_TOKENS = 4096;

/** The share of the rule's sure candidates the judge audits under --judge-when unsure, when --judge-audit is not given. */
const JUDGE_AUDIT = 0.05;

/** Judge passes when a judge endpoint is named and no --judge-passes is given: the paper's setup. */
const NAMED_JUDGE_PASSES = 4;

/** `--judge-passes`, `--judge-max-tokens`, `--judge-when`. */
export const JUDGE_SETTINGS = [
  setting<number>({
    flags: '--judge-passes <n>',
    section: 'judge',
    help: 'LLM judge passes per candidate when the problem has a reference; N > 0 without a judge endpoint makes the solver its own judge',
    defaultText: `${NAMED_JUDGE_PASSES} when a judge endpoint is given, else 0: rule-based grading`,
    parse: integer(0, 99),
    demo: DEMO.judgePasses,
    shapesCalls: true,
    field: field('judge', 'passes'),
    // Runs made before the judge existed graded by rule alone.
    before: 0,
    // The paper's setup grades by an LLM judge; the judge is on when one is named (the demo's is the simulator).
    resolve: (passes, { flags }) => passes ?? (judgeNamed(flags) ? NAMED_JUDGE_PASSES : 0),
  }),
  setting<number, number | null>({
    flags: '--judge-max-tokens <n>',
    section: 'judge',
    help: 'completion limit of a judge call (hosted judges cap their output; a verdict needs little)',
    parse: integer(16),
    default: JUDGE_MAX_TOKENS,
    shapesCalls: true,
    field: field('judge', 'maxTokens'),
    // Runs made before the flag existed had no limit but the window.
    before: null,
  }),
  setting<JudgeWhen>({
    flags: '--judge-when <when>',
    section: 'judge',
    help:
      'which candidates the LLM judge grades: always (every one), or unsure (hybrid grading: only those the rule-based grader is unsure of or finds no answer in; ' +
      "the rule's verdict stands for the rest, and the share judged is reported). Proof mode has no rule-based grade: every candidate is judged",
    choices: ['always', 'unsure'],
    default: 'always',
    shapesCalls: true,
    field: field('judge', 'when'),
    before: 'always',
  }),
  setting<number>({
    flags: '--judge-audit <share>',
    section: 'judge',
    help:
      'with --judge-when unsure, the share (0 to 1) of the candidates the rule-based grader is sure of that the judge grades too, picked by --seed: ' +
      "how often the rule and the judge agree where the rule is sure is reported (metrics.json, table1.md, the report); those candidates' grade is the judge's",
    parse: decimal(0, 1),
    defaultText: String(JUDGE_AUDIT),
    shapesCalls: true,
    field: field('judge', 'audit'),
    // Given without hybrid grading it would audit nothing: the judge grades every candidate already.
    resolve: (share, { flags }) => {
      if (share !== undefined && flags.judgeWhen !== 'unsure') throw new UserError('TMAS_USAGE', `--judge-audit ${share} applies with --judge-when unsure only (the judge grades every candidate otherwise): add --judge-when unsure, or leave --judge-audit out.`);
      return share ?? JUDGE_AUDIT;
    },
    // Runs made before the audit judged none of the rule's sure candidates.
    before: 0,
  }),
];
