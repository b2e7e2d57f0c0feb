/**
 * Every setting of `tmas run`, each declared once in the file of the part it
 * configures. A new flag is its declaration here plus the code that reads
 * its field of the configuration; the CLI, resume and the reference follow.
 */
import { CONTEXT_SETTINGS } from '../sections/context.settings.ts';
import { GATEWAY_SETTINGS } from '../sections/gateway.settings.ts';
import { JUDGE_SETTINGS } from '../sections/judge.settings.ts';
import { LOOP_SETTINGS } from '../sections/loop.settings.ts';
import { OUTPUT_SETTINGS } from '../sections/outputs.settings.ts';
import { PROBLEM_SETTINGS } from '../sections/problems.settings.ts';
import { PROMPT_SETTINGS } from '../sections/prompts.settings.ts';
import { ROLE_SETTINGS } from '../sections/roles.settings.ts';
import { RUN_SETTINGS } from '../sections/run.settings.ts';
import { checkResumeClasses, type Setting } from '../setting.ts';
import { SIM_SETTINGS } from '../sections/sim.settings.ts';

/** Every setting of `tmas run` but the strategies' own (machines/strategies/*: `Strategy.flags`). */
export const SETTINGS: readonly Setting[] = [
  ...RUN_SETTINGS,
  ...PROBLEM_SETTINGS,
  ...OUTPUT_SETTINGS,
  ...LOOP_SETTINGS,
  ...PROMPT_SETTINGS,
  ...CONTEXT_SETTINGS,
  ...ROLE_SETTINGS,
  ...JUDGE_SETTINGS,
  ...GATEWAY_SETTINGS,
  ...SIM_SETTINGS,
];
// A setting that says nothing of resumes would be neither applied nor refused by one: refused here, as the program loads.
checkResumeClasses(SETTINGS);

/** The settings of `tmas run` that `tmas plan` takes too: what the run would be (its problems, method, sampling, judge, and calls in flight). */
export const PLANNED_RUN_SETTINGS: readonly Setting[] = SETTINGS.filter(
  (setting) => ['problems', 'loop', 'context', 'roles', 'judge'].includes(setting.section) || ['--demo', '--concurrency <n>', '--routing <policy>', '--replica-max-in-flight <n>'].includes(setting.flags),
);

export { DEMO } from '../sections/run.settings.ts';
export { PLAN_SETTINGS } from '../sections/plan.settings.ts';
export { DEMO_PROBLEMS } from '../sections/problems.settings.ts';
export { secretsOf } from '../sections/roles.settings.ts';
export { SECTIONS } from '../setting.ts';
export type { Flags, Setting, SettingSection } from '../setting.ts';
