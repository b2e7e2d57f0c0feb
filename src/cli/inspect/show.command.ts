/**
 * `tmas show DIR --problem P [--iteration T]`: one problem at the end of one
 * iteration (the last by default): its candidates with scores and summaries,
 * and both banks as they stood then.
 */
import { UserError } from '../../kernel/errors.ts';
import { problemRange, type IterationRecord } from '../../store/store.ts';
import { openRun } from '../../analysis/open-run.ts';
import { refuseUnknownProblem } from './run-filters.ts';

function score(value: number | null): string {
  return value === null ? '-' : value.toFixed(2);
}

/**
 * A candidate's grades: the rule's, and the judge's when it ran, which is the one Pass@1 counts. The
 * rule's alone said `wrong` of a right answer the rule was unsure of and the judge graded right, and
 * of a candidate the judge gave no verdict on, which Pass@1 leaves out.
 */
function gradeOf(c: IterationRecord['candidates'][number]): string {
  const rule = c.correct === null ? '' : `${c.correct ? 'correct' : 'wrong'}${c.unsure === true ? ' (unsure)' : ''}`;
  if (c.judge === null || c.judge === undefined) return rule === '' ? '' : `  ${rule}`;
  const verdicts = c.judge.verdicts;
  const given = verdicts.filter((v) => v !== null);
  const judge =
    c.ruled === true
      ? // A candidate with no answer goes to the judge unless its reply was cut, which has none (judging.ts's ruledByRule).
        c.answer === null
        ? 'not asked (cut before its end: no final answer)'
        : 'not asked (the rule was sure)'
      : given.length === 0
        ? 'no verdict (left out of Pass@1)'
        : `${(c.correctJudge ?? 0) > 0.5 ? 'correct' : 'wrong'} (${given.filter(Boolean).length} of ${given.length} passes${given.length < verdicts.length ? `, ${verdicts.length - given.length} without a verdict` : ''})`;
  return `  ${rule === '' ? '' : `rule ${rule}, `}judge ${judge}`;
}

/** Renders a problem's iteration as text lines. */
export async function runShowCommand(runDir: string, options: { problem: string; iteration?: number }): Promise<string[]> {
  const { store } = await openRun(runDir);
  try {
    const problems = await store.loadProblems();
    refuseUnknownProblem(problems.map((p) => p.id), options.problem, runDir);
    const ordinal = problems.findIndex((p) => p.id === options.problem);
    let record: IterationRecord | undefined;
    const completed: number[] = [];
    for await (const candidate of store.iterationRecords(problemRange(ordinal))) {
      completed.push(candidate.iteration);
      if (options.iteration === undefined || candidate.iteration === options.iteration) record = candidate;
    }
    if (!record) {
      // Which to ask for instead: the iterations it has.
      const has = completed.length === 0 ? 'none is completed yet' : `its completed iterations: ${completed.length === 1 ? completed[0] : `${completed[0]} to ${completed.at(-1)}`}`;
      throw new UserError('TMAS_USAGE', `${options.problem} has no completed iteration${options.iteration === undefined ? '' : ` ${options.iteration}`} in ${runDir} (${has}).`);
    }
    const banks = await store.getBanks(ordinal, record.iteration);
    const problem = problems[ordinal];
    const lines = [
      `problem ${options.problem}, iteration ${record.iteration}${problem?.answer === undefined ? '' : ` (reference answer: ${problem.answer})`}`,
      '',
      'candidates:',
    ];
    for (const c of record.candidates) {
      const verdict = gradeOf(c);
      lines.push(`  #${c.candidate} [${c.source}] answer ${c.answer ?? '(none)'}  score ${score(c.summaryScore)}  verifications ${c.verificationScores.map(score).join(' ')}${verdict}`);
      if (c.summary) lines.push(`     summary: ${c.summary.replace(/\s+/g, ' ').slice(0, 300)}`);
      for (const failure of c.failures) lines.push(`     failed call: ${failure}`);
    }
    lines.push('', `experience bank (${banks?.experience.length ?? 0} records):`);
    for (const r of banks?.experience ?? []) lines.push(`  [${r.kind}] ${r.text}  (iteration ${r.provenance.iteration}, candidate ${r.provenance.candidate ?? '-'})`);
    lines.push('', `guideline bank (${banks?.guidelines.length ?? 0} records):`);
    for (const r of banks?.guidelines ?? []) lines.push(`  ${r.strategy}: ${r.outcome}  (iteration ${r.provenance.iteration})`);
    return lines;
  } finally {
    await store.close();
  }
}
