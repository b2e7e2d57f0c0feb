/**
 * Puts the candidates' hover texts in place: the page holds each distinct
 * summary once, under HOVER_DATA_ID (hover-shelf.ts), and each candidate
 * `data-hover="INDEX #C SOURCE"`; its `title` is made when its problem's
 * details open: `#C SOURCE: SUMMARY`, as the page held it in place before.
 */
import { HOVER_DATA_ID } from './chart-spec.ts';
import { fillAsProblemsOpen } from './problem-open.ts';

/** Gives the candidates under `root` their titles; `skip` leaves those inside it to later. */
function titlesWithin(root: ParentNode, summaries: string[], skip: string | null): void {
  root.querySelectorAll<HTMLElement>('[data-hover]').forEach((span) => {
    if (skip !== null && span.closest(skip)) return;
    const hover = span.dataset['hover'] ?? '';
    const space = hover.indexOf(' ');
    const summary = summaries[Number(hover.slice(0, space))];
    if (space < 0 || summary === undefined) return;
    span.title = `${hover.slice(space + 1)}: ${summary}`;
    span.removeAttribute('data-hover');
  });
}

/** Gives the candidates shown at once their titles, and each problem's as its details open. */
export function showHovers(): void {
  const summaries = JSON.parse(document.getElementById(HOVER_DATA_ID)?.textContent ?? '[]') as string[];
  fillAsProblemsOpen((root, skip) => titlesWithin(root, summaries, skip));
}
