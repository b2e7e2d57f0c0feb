/**
 * Typeset math in the HTML report: answers are rendered to HTML by KaTeX when
 * the report is written, and KaTeX's stylesheet is inlined with its WOFF2
 * fonts as data URLs, so the report stays one self-contained file that
 * fetches nothing. Each distinct answer is typeset once (MathShelf): the page
 * holds every answer as its LaTeX source, and the report's script puts the
 * typeset HTML in place (report-math.ts), a problem's when it is opened.
 * Typeset in place, a run's few distinct answers came again at every
 * candidate of every iteration, about 760 bytes each: half of a report at
 * 20 problems × 20 iterations × 4 candidates (1.5 of 2.9 MB).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import katex from 'katex';
import { TmasError } from '../kernel/errors.ts';
import { escapeXml } from './format.ts';

/** An answer as typeset HTML; a string KaTeX cannot parse is shown as its source, in red, never an error. */
export function typeset(tex: string): string {
  return katex.renderToString(tex, { throwOnError: false, output: 'htmlAndMathml', strict: 'ignore' });
}

/** The answers a report shows, each typeset once, keyed by its LaTeX source: what the page's script puts in place. */
export class MathShelf {
  private readonly typeset = new Map<string, string>();

  /** An answer as the page holds it: its source, escaped, marked for the script; typeset once on the shelf. */
  answer(tex: string): string {
    if (!this.typeset.has(tex)) this.typeset.set(tex, typeset(tex));
    return `<span class="answer tex">${escapeXml(tex)}</span>`;
  }

  /** Every answer's typeset HTML by its source, as a JSON object. */
  toJSON(): Record<string, string> {
    return Object.fromEntries(this.typeset);
  }
}

/** KaTeX's stylesheet with each font as a WOFF2 data URL (every browser that runs the charts reads WOFF2; the WOFF and TTF copies are dropped). */
export async function readMathStyle(): Promise<string> {
  let dist: string;
  try {
    dist = path.dirname(createRequire(import.meta.url).resolve('katex'));
  } catch (error) {
    throw new TmasError('TMAS_REPORT_LIBRARY', `Cannot find the katex package the HTML report embeds: ${(error as Error).message}. Run npm install in the tmas directory, or use --format md.`, { cause: error });
  }
  const css = await readFile(path.join(dist, 'katex.min.css'), 'utf8');
  const fonts = new Map<string, string>();
  for (const [, file] of css.matchAll(/url\((fonts\/[^)]+\.woff2)\)/g)) {
    if (file !== undefined && !fonts.has(file)) fonts.set(file, (await readFile(path.join(dist, file))).toString('base64'));
  }
  return css.replace(/src:url\((fonts\/[^)]+\.woff2)\) format\("woff2"\)[^;}]*/g, (_, file: string) => `src:url(data:font/woff2;base64,${fonts.get(file) ?? ''}) format("woff2")`).replace(/<\//g, '<\\/');
}
