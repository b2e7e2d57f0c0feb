/**
 * A line of what tmas says, made safe for a terminal. Its messages quote what servers, files and
 * users wrote (a server's error, the model ids it lists, the model a reply names); a control
 * character in that text reached the terminal as it was: a carriage return and an erase sequence
 * wiped tmas's own words from the line and wrote others (a forged `[TMAS_OK]`), an escape set the
 * window's title or cleared the screen. Each is written as its JSON escape (`\u001b`), visible and
 * inert; a newline and a tab stay, as tmas's own multi-line messages use them.
 */

/** C0 controls but tab and newline, DEL, C1 controls, and the bidirectional overrides and isolates that reorder what a terminal shows. */
const UNPRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** `line` with every control character but tab and newline written as its escape. */
export function printableLine(line: string): string {
  return line.replace(UNPRINTABLE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
