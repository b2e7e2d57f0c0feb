/**
 * Puts the report's typeset answers in place: the page holds each answer as
 * its LaTeX source (`<span class="answer tex">`), and each distinct answer's
 * KaTeX HTML once, under MATH_DATA_ID (math.ts). The answers outside the
 * problems' details are typeset as the page opens; a problem's own (every
 * candidate of every iteration, the bulk of a long run's report) when its
 * details are first opened, so a report of 400 problems opens without
 * building them all.
 */
import { MATH_DATA_ID } from './chart-spec.ts';
import { fillAsProblemsOpen } from './problem-open.ts';

/** Typesets the answers under `root` not typeset yet; `skip` leaves those inside it to later. */
function typesetWithin(root: ParentNode, typeset: Record<string, string>, skip: string | null): void {
  root.querySelectorAll<HTMLElement>('span.answer.tex').forEach((span) => {
    if (skip !== null && span.closest(skip)) return;
    const html = typeset[span.textContent ?? ''];
    if (html === undefined) return;
    span.innerHTML = html;
    span.classList.remove('tex');
  });
}

/** Typesets the answers shown at once, and each problem's as its details open. */
export function typesetAnswers(): void {
  const typeset = JSON.parse(document.getElementById(MATH_DATA_ID)?.textContent ?? '{}') as Record<string, string>;
  fillAsProblemsOpen((root, skip) => typesetWithin(root, typeset, skip));
}
