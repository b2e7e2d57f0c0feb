/**
 * What a page leaves behind when the route moves on: its charts, its timers.
 * A page registers how to undo each (onLeave); the router undoes them all
 * before it draws the next page. The status line says what went wrong.
 */

const leaving: Array<() => void> = [];

/** Runs `undo` when the page is left (a chart destroyed, a timer cleared). */
export function onLeave(undo: () => void): void {
  leaving.push(undo);
}

/** Undoes what the page left behind, oldest first. */
export function leavePage(): void {
  for (const undo of leaving.splice(0)) undo();
}

/** Says a line in the header (an error; empty to clear it). */
export function setStatus(text: string): void {
  const line = document.getElementById('status');
  if (line) line.textContent = text;
}
