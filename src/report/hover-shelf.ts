/**
 * The candidates' hover texts in the HTML report, each distinct summary held
 * once. In place, every candidate of every iteration carried its summary's
 * first 240 characters in its `title`: 412 KB of a 1.48 MB report at 20
 * problems × 20 iterations × 4 candidates, where 1,600 candidates had 866
 * distinct summaries (a candidate carried to the next iteration keeps its
 * summary; a templated one repeats). The page's script (report-hovers.ts)
 * makes each title as its problem's details open: what a reader sees on
 * hovering is the same text.
 */
import { escapeXml } from './format.ts';

/** The summaries a report's hovers show, each once, in the order first met. */
export class HoverShelf {
  private readonly indexes = new Map<string, number>();

  /** The attribute that stands for a candidate's hover `#C SOURCE: SUMMARY`: the summary's place on the shelf, then what precedes it. */
  attribute(prefix: string, summary: string): string {
    let index = this.indexes.get(summary);
    if (index === undefined) {
      index = this.indexes.size;
      this.indexes.set(summary, index);
    }
    return `data-hover="${index} ${escapeXml(prefix)}"`;
  }

  /** Every summary, by its place. */
  toJSON(): string[] {
    return [...this.indexes.keys()];
  }
}
