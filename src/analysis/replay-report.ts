/**
 * How `tmas replay` prints what it found.
 */
import type { ReplayReport } from './replay.ts';

/** The report as text lines: "identical", or the first divergence with both versions, and the journal misses. */
export function formatReplayReport(report: ReplayReport): string[] {
  if (report.identical) return [`identical: ${report.compared} messages replayed from the journal match the log`];
  const lines: string[] = [];
  if (report.unfinished > 0) {
    lines.push(`the run stopped before its end (${report.unfinished} problem${report.unfinished === 1 ? '' : 's'} not completed in its log): the replay goes on past where the log ends, and what it finds there is not in the log`);
  }
  if (report.divergence) {
    const { replayed, logged } = report.divergence;
    lines.push(`diverges at ${replayed.message.type} ${replayed.message.correlation} (replayed message ${report.compared} of the replay):`);
    lines.push(`  logged:   ${logged ? JSON.stringify(logged.message) : '(not in the log)'}`);
    lines.push(`  replayed: ${JSON.stringify(replayed.message)}`);
  }
  if (report.notReproduced > 0) lines.push(`${report.notReproduced} logged messages were not produced by the replay`);
  if (report.misses.length > 0) {
    const why = report.unfinished > 0 ? 'they changed, or the run stopped before it made them' : 'they changed';
    lines.push(`${report.misses.length} calls had no answer in the journal (${why}; use --live to send them):`);
    for (const miss of report.misses.slice(0, 20)) lines.push(`  ${miss.role} ${miss.problem} iteration ${miss.iteration} index ${miss.index}`);
    if (report.misses.length > 20) lines.push(`  … and ${report.misses.length - 20} more`);
  }
  return lines;
}
