/**
 * Where in a plugin's own code an error was thrown: the first frame of its
 * stack that lies outside tmas (its sources, its build, its packages), as
 * `FILE:LINE:COLUMN`. A module's prompt that threw was told as "the
 * verification prompt threw: boom", and the user searched the module for the
 * line. A TypeScript module, which tsx compiles to code with no source map,
 * has no such frame (its positions are the compiled code's), and gets none:
 * no line is better than a wrong one.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FROM_BUILD, PACKAGE_ROOT } from '../../kernel/package-root.ts';
import { isErrorSafely } from '../../kernel/thrown-text.ts';

/** The checkout (or installed package): run from the build, PACKAGE_ROOT is its dist/. */
const CHECKOUT = FROM_BUILD ? path.dirname(PACKAGE_ROOT) : PACKAGE_ROOT;

/**
 * tmas's own code, whose frames are not the plugin's: the sources, and the whole build. Run from the build,
 * tmas's code lies in dist/chunks/, and a TypeScript module's frame (a data: URL) was passed over for the chunk
 * that called it: "threw: boom (at …/dist/chunks/chunk-….js:428:16)", a line of tmas given as the module's.
 */
const OWN = [...['src', 'machines', 'workers', 'dist'].map((folder) => path.join(CHECKOUT, folder) + path.sep), PACKAGE_ROOT + path.sep];

/** What of a stack is read: its first characters and lines (the stack is the plugin's, of any size), and no longer line (a data: URL's module text). */
const STACK_CHARS = 64 * 1024;
const STACK_LINES = 64;
const LINE_CHARS = 4 * 1024;

/** A frame's location: `(file:///a/b.mjs?query:6:13)` or `at /a/b.js:6:13`, a path or a file URL only (not a data: URL). */
const LOCATION = /(?:\(|at )(file:\/\/\/[^\s()]+|\/[^\s()]+):(\d+):(\d+)\)?$/;

/** The file and line of a stack frame, or null when it names no file on disk. */
function frameAt(line: string): { file: string; line: number; column: number } | null {
  if (line.length > LINE_CHARS) return null;
  const found = LOCATION.exec(line.trim());
  if (found === null) return null;
  const [, place = '', row = '', column = ''] = found;
  const bare = place.split('?')[0] ?? place;
  let file: string;
  try {
    file = bare.startsWith('file://') ? fileURLToPath(bare) : bare;
  } catch {
    return null;
  }
  return { file, line: Number(row), column: Number(column) };
}

/** The error's stack, its first STACK_CHARS, or null: a plugin's error may carry any `stack`, a getter that throws among them. */
function stackOf(error: Error): string | null {
  try {
    const stack: unknown = error.stack;
    return typeof stack === 'string' ? stack.slice(0, STACK_CHARS) : null;
  } catch {
    return null;
  }
}

/** ` (at FILE:LINE:COLUMN)` for the first frame of `error` outside tmas, or '' when there is none. */
export function thrownAt(error: unknown): string {
  const stack = isErrorSafely(error) ? stackOf(error) : null;
  if (stack === null) return '';
  for (const line of stack.split('\n', STACK_LINES + 1).slice(1)) {
    const frame = frameAt(line);
    // A package's frame (XState's, one the module imports) is not where the module went wrong: its own frame follows.
    if (frame === null || frame.file.includes(`${path.sep}node_modules${path.sep}`) || OWN.some((own) => frame.file.startsWith(own))) continue;
    return ` (at ${frame.file}:${frame.line}:${frame.column})`;
  }
  return '';
}
