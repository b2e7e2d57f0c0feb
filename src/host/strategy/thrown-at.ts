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
import { PACKAGE_ROOT } from '../../kernel/package-root.ts';

/** tmas's own code, whose frames are not the plugin's. */
const OWN = ['src', 'machines', 'dist', 'workers'].map((folder) => path.join(PACKAGE_ROOT, folder) + path.sep);

/** A frame's location: `(file:///a/b.mjs?query:6:13)` or `at /a/b.js:6:13`, a path or a file URL only (not a data: URL). */
const LOCATION = /(?:\(|at )(file:\/\/\/[^\s()]+|\/[^\s()]+):(\d+):(\d+)\)?$/;

/** The file and line of a stack frame, or null when it names no file on disk. */
function frameAt(line: string): { file: string; line: number; column: number } | null {
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

/** ` (at FILE:LINE:COLUMN)` for the first frame of `error` outside tmas, or '' when there is none. */
export function thrownAt(error: unknown): string {
  if (!(error instanceof Error) || typeof error.stack !== 'string') return '';
  for (const line of error.stack.split('\n').slice(1)) {
    const frame = frameAt(line);
    // A package's frame (XState's, one the module imports) is not where the module went wrong: its own frame follows.
    if (frame === null || frame.file.includes(`${path.sep}node_modules${path.sep}`) || OWN.some((own) => frame.file.startsWith(own))) continue;
    return ` (at ${frame.file}:${frame.line}:${frame.column})`;
  }
  return '';
}
