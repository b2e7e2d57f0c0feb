/**
 * What the report's script puts into a problem's details: done for what the
 * page shows as it opens, and for a problem's own details when they are first
 * opened, so a report of 400 problems opens without building them all.
 */

/** Calls `fill` on the page as it opens (`skip` names what to leave for later: the closed details), and on each problem's details as they open. */
export function fillAsProblemsOpen(fill: (root: ParentNode, skip: string | null) => void): void {
  fill(document, 'details.problem:not([open])');
  document.querySelectorAll<HTMLDetailsElement>('details.problem').forEach((details) => {
    details.addEventListener('toggle', () => {
      if (details.open) fill(details, null);
    });
  });
}
