/**
 * The charting library the HTML report embeds: Chart.js's minified UMD
 * bundle, read from node_modules when a report is written (nothing is copied
 * into the repository) and inlined so that the report needs no network.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { TmasError } from '../kernel/errors.ts';

/** The bundle's file name next to the package's CommonJS entry (the package exports no path to it). */
const BUNDLE = 'chart.umd.min.js';

/** The path of Chart.js's browser bundle in node_modules (the viewer serves it as a file). */
export function chartLibraryFile(): string {
  try {
    // chart.js exports `.` (→ dist/chart.cjs) but not dist/*: the UMD bundle sits beside it.
    return path.join(path.dirname(createRequire(import.meta.url).resolve('chart.js')), BUNDLE);
  } catch (error) {
    throw new TmasError('TMAS_REPORT_LIBRARY', `Cannot find the chart.js package the HTML report embeds: ${(error as Error).message}. Run npm install in the tmas directory, or use --format md.`, { cause: error });
  }
}

/** A script as text safe inside an inline `<script>` element. */
export function inlineScript(text: string): string {
  // An HTML parser would end the script at "</script" or enter its escaped state at "<!--"; both can only sit in JS strings or comments, where "<\/" and "<\!" mean the same.
  return text.replace(/<\/script/gi, '<\\/script').replace(/<!--/g, '<\\!--');
}

/** Chart.js's browser bundle as text safe inside an inline `<script>` element. */
export async function readChartLibrary(): Promise<string> {
  return inlineScript(await readFile(chartLibraryFile(), 'utf8'));
}
