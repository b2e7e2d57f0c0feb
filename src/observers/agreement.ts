/**
 * How often the rule-based grader agrees with the LLM judge where the rule
 * was sure: over every candidate both graded under `--judge-when always`, over
 * the audited ones (`--judge-audit`) under `unsure`. It says how far the
 * rule's verdicts that stand alone can be trusted. The interval is Wilson's
 * score interval at 95%, which stays inside [0, 1] and is honest near 100%,
 * where agreement usually is.
 */

/** The agreement of a run (or an iteration): candidates compared, how many agreed, the share and its 95% interval. */
export interface RuleJudgeAgreement {
  judged: number;
  agreed: number;
  share: number;
  interval: [number, number];
}

/** Wilson's 95% score interval of `agreed` successes in `judged` trials. */
export function wilsonInterval(agreed: number, judged: number): [number, number] {
  const z = 1.959964;
  const p = agreed / judged;
  const denominator = 1 + (z * z) / judged;
  const centre = (p + (z * z) / (2 * judged)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / judged + (z * z) / (4 * judged * judged))) / denominator;
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/** The agreement over iterations' rule-sure judged candidates; null when none was judged. */
export function ruleJudgeAgreement(iterations: ReadonlyArray<{ sureJudged?: number; sureDisagreements?: number }>): RuleJudgeAgreement | null {
  const judged = iterations.reduce((sum, it) => sum + (it.sureJudged ?? 0), 0);
  if (judged === 0) return null;
  const agreed = judged - iterations.reduce((sum, it) => sum + (it.sureDisagreements ?? 0), 0);
  return { judged, agreed, share: agreed / judged, interval: wilsonInterval(agreed, judged) };
}

/** `97.5% [93.8, 99.0] of 120`, or `-` when nothing was compared. */
export function describeAgreement(agreement: RuleJudgeAgreement | null): string {
  if (agreement === null) return '-';
  const percent = (x: number) => (x * 100).toFixed(1);
  return `${percent(agreement.share)}% [${percent(agreement.interval[0])}, ${percent(agreement.interval[1])}] of ${agreement.judged}`;
}

/**
 * The iterations to sum the rule = judge figures over so each verdict counts once. A run that
 * counts `reusedVerdicts` left every carried candidate (a verdict reused from an earlier iteration)
 * out of its iterations' figures already: all of them. An older run did not: for a strategy that
 * draws its samples up front (majority: iteration t holds the first n·(t+1)/T samples again, with
 * their verdicts), its last iteration alone; the other strategies' carried candidates stay in.
 */
export function distinctIterations<T extends { reusedVerdicts?: number | null }>(iterations: readonly T[], upFront: boolean): T[] {
  const marked = iterations.every((it) => typeof it.reusedVerdicts === 'number');
  return upFront && !marked ? iterations.slice(-1) : [...iterations];
}
