/**
 * `tmas report DIR [DIR…] [--out FILE] [--format html|md]`: reads each run
 * directory and writes one report comparing them (HTML by default, to
 * `report.html`; Markdown with `--format md` or an `--out` ending in `.md`, to
 * stdout unless `--out` is given).
 */
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { UserError } from '../../kernel/errors.ts';
import { writeOutputFile } from '../../host/outputs/output-file.ts';
import { readChartLibrary } from '../../report/chart-library.ts';
import { readReportScript } from '../../report/browser-script.ts';
import { renderReportHtml } from '../../report/html.ts';
import { readMathStyle } from '../../report/math.ts';
import { loadRun, type LoadOptions, type ReportRun } from '../../report/load.ts';
import { renderReportMarkdown } from '../../report/markdown.ts';
import { findRuns, isRunDir } from '../../viewer/run-folder.ts';
import { pathTooLong, requireOpenablePath } from '../../store/run-dir-path.ts';

/** Flags of `tmas report`. */
export interface ReportFlags {
  out?: string;
  /** html or md; left out, the format --out's extension names, else html. */
  format?: string | undefined;
}

type ReportFormat = 'html' | 'md';

/** The format a file's name says it holds. */
const FORMAT_OF_EXTENSION: Readonly<Record<string, ReportFormat>> = { '.md': 'md', '.markdown': 'md', '.html': 'html', '.htm': 'html' };
const FORMAT_NAME: Readonly<Record<ReportFormat, string>> = { md: 'Markdown', html: 'HTML' };

/**
 * The report's format: --format, else the one --out's name says (`--out report.md` wrote HTML into report.md without
 * a word), else HTML. A --format that the name contradicts is refused rather than written under the wrong name.
 */
function formatOf(flags: ReportFlags): ReportFormat {
  const named = flags.out === undefined ? undefined : FORMAT_OF_EXTENSION[path.extname(flags.out).toLowerCase()];
  if (flags.format === undefined) return named ?? 'html';
  if (flags.format !== 'html' && flags.format !== 'md') throw new UserError('TMAS_USAGE', `--format must be html or md, got "${flags.format}".`);
  if (named !== undefined && named !== flags.format) {
    throw new UserError(
      'TMAS_USAGE',
      `--out ${flags.out} names a ${FORMAT_NAME[named]} file, but --format ${flags.format} writes ${FORMAT_NAME[flags.format]}. Give --out a .${flags.format} name, or leave --format out to write ${FORMAT_NAME[named]}.`,
    );
  }
  return flags.format;
}

/**
 * The run directories `dirs` name: each run directory as it is, and each folder of runs (a
 * `tmas table1` output, `runs/`) as the finished runs found under it, as `tmas view` finds them;
 * such a folder was read as a run, and refused for its missing metrics.json.
 */
async function runDirsOf(dirs: string[]): Promise<{ runs: string[]; leftOut: string[] }> {
  const runs: string[] = [];
  // The runs under a folder that the report does not show, each with why: a report that dropped a method silently read as complete.
  const leftOut: string[] = [];
  for (const dir of dirs) {
    requireOpenablePath(dir, 'reads');
    if (isRunDir(dir) || !(await stat(dir).then((info) => info.isDirectory(), () => false))) {
      runs.push(dir);
      continue;
    }
    const scan = (await findRuns([dir])).found;
    for (const run of scan) if (run.error !== null) leftOut.push(`${run.dir}: ${run.error.message}`);
    const unopenable = scan.filter((run) => run.error === null && pathTooLong(run.dir, 'reads') !== null).map((run) => run.dir);
    for (const run of unopenable) leftOut.push(`${run}: ${pathTooLong(run, 'reads')}`);
    const found = scan.filter((run) => run.error === null && !unopenable.includes(run.dir)).map((run) => run.dir);
    const finished = found.filter((run) => existsSync(path.join(run, 'metrics.json')));
    if (finished.length === 0) {
      throw new UserError('TMAS_REPORT', `${dir} holds no finished run (no metrics.json in ${found.map((run) => path.relative(dir, run)).join(', ')}). Give the output directory of a finished run, or a folder that holds some.`);
    }
    for (const run of found) if (!finished.includes(run)) leftOut.push(`${run}: no metrics.json (the run is going, or was stopped before writing it: tmas run --resume ${run} writes it)`);
    runs.push(...finished);
  }
  return { runs, leftOut };
}

/**
 * Writes the report of `dirs` (read with `load`'s options); returns the file written, or null when Markdown went to stdout.
 * `written` is given the runs and the file once it is written: the command's own call ends there when some run is not a result.
 */
export async function runReportCommand(dirs: string[], flags: ReportFlags, io: { stdout(line: string): void }, load: LoadOptions = {}, written?: (runs: ReportRun[], file: string | null) => void): Promise<string | null> {
  const runs: ReportRun[] = [];
  const file = await writeReport(dirs, flags, io, load, runs);
  written?.(runs, file);
  return file;
}

/** runReportCommand's writing, the runs it read pushed on `runs`. */
async function writeReport(dirs: string[], flags: ReportFlags, io: { stdout(line: string): void }, load: LoadOptions, runs: ReportRun[]): Promise<string | null> {
  const format = formatOf(flags);
  if (dirs.length === 0) throw new UserError('TMAS_USAGE', 'tmas report needs at least one run directory: tmas report runs/a [runs/b …].');
  const { runs: runDirs, leftOut } = await runDirsOf(dirs);
  for (const dir of runDirs) runs.push(await loadRun(dir, load));
  const names = new Map<string, number>();
  // Two directories with the same base name must still be told apart on the charts.
  for (const run of runs) {
    const seen = names.get(run.name) ?? 0;
    names.set(run.name, seen + 1);
    if (seen > 0) run.name = `${run.name} (${seen + 1})`;
  }
  if (format === 'md') {
    const text = renderReportMarkdown(runs, leftOut);
    if (flags.out === undefined) {
      io.stdout(text);
      return null;
    }
    await writeOutputFile(flags.out, text, { advice: 'give --out a path in a folder that exists and is writable' });
    // Said as the HTML report's path is: a file written without a word reads as nothing written.
    io.stdout(`Report: ${path.resolve(flags.out)}`);
    return path.resolve(flags.out);
  }
  const out = path.resolve(flags.out ?? 'report.html');
  const advice = flags.out === undefined ? 'give --out a path in a writable folder (without --out the report goes to report.html in the current folder)' : 'give --out a path in a folder that exists and is writable';
  await writeOutputFile(out, renderReportHtml(runs, { chartLibrary: await readChartLibrary(), script: await readReportScript(), mathStyle: await readMathStyle(), leftOut }), { advice });
  io.stdout(`Report: ${out}`);
  return out;
}
