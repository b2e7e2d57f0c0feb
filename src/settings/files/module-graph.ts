/**
 * The files an agents module is made of: its own file and every local file it
 * imports, and those files' local imports in turn. A run's digest of its
 * module covers all of them: hashing the module's file alone, a helper it
 * imports (`./prompts.ts`) could change between two forks and the two read
 * alike in the report and the viewer, and a resume ran the changed helper
 * unnoticed. A local import is one written as a path (`./x`, `../x`, `/x`,
 * `file:` URLs); a package (`tmas`, `zod`, `node:fs`) is not the run's to
 * hash and is left out. The imports are found in the text (`import … from`,
 * `export … from`, `import '…'`, `import('…')`, `require('…')`, written with
 * a literal): an import whose path is computed is not seen.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sha256Of } from './digest.ts';
import { UserError } from '../../kernel/errors.ts';

/** The specifiers a module's text imports with a literal: `from '…'`, `import '…'`, `import('…')`, `require('…')`. */
const SPECIFIER = /\bfrom\s*(['"])([^'"\n]+)\1|\bimport\s*(['"])([^'"\n]+)\3|\b(?:import|require)\s*\(\s*(['"])([^'"\n]+)\5\s*\)/g;

/** What a path written without its extension, or with a JavaScript one for a TypeScript file (`./x.js` for x.ts), may be. */
const TYPESCRIPT_OF: Record<string, string[]> = { '.js': ['.ts', '.tsx'], '.mjs': ['.mts'], '.cjs': ['.cts'], '.jsx': ['.tsx'] };
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs', '.jsx', '.json'];

/** The most files a module's graph may hold: beyond it the module is taken to import what it does not own. */
const MAX_FILES = 1_000;

/** Whether `file` is a file. */
function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The file a local specifier of `from` names, or null for a package's or one that names no file. */
function localFile(specifier: string, from: string): string | null {
  let written: string;
  if (specifier.startsWith('file:')) written = fileURLToPath(specifier);
  else if (specifier.startsWith('./') || specifier.startsWith('../') || path.isAbsolute(specifier)) written = path.resolve(path.dirname(from), specifier);
  else return null;
  const extension = path.extname(written);
  const stem = written.slice(0, written.length - extension.length);
  const candidates = [written, ...(TYPESCRIPT_OF[extension] ?? []).map((ts) => stem + ts), ...EXTENSIONS.map((ext) => written + ext), ...EXTENSIONS.map((ext) => path.join(written, `index${ext}`))];
  return candidates.find(isFile) ?? null;
}

/** The local files `text` (the file `from`) imports. */
function importsOf(text: string, from: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(SPECIFIER)) {
    const specifier = match[2] ?? match[4] ?? match[6];
    const file = specifier === undefined ? null : localFile(specifier, from);
    if (file !== null) found.push(file);
  }
  return found;
}

/** The module `file` holds (`text`) and the local files it imports, transitively: each by its absolute path, with what it holds. */
export function moduleGraph(file: string, text: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>([[file, text]]);
  const queue = [file];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const imported of importsOf((files.get(next) as Buffer).toString('utf8'), next)) {
      if (files.has(imported)) continue;
      if (files.size >= MAX_FILES) {
        throw new UserError('TMAS_AGENTS', `The agents module ${file} (--agents) imports over ${MAX_FILES} local files (through ${next}): import packages by name, not by path, so that the module's digest covers its own files.`);
      }
      files.set(imported, readFileSync(imported));
      queue.push(imported);
    }
  }
  return files;
}

/**
 * The digest of a module and the local files it imports. A module that imports
 * none keeps the digest of its file alone, as runs before recorded it; else each
 * file counts by its path from the module's folder (so a module moved with its
 * helpers keeps its digest) and its own digest.
 */
export function moduleGraphDigest(file: string, text: Buffer): string {
  const files = moduleGraph(file, text);
  if (files.size === 1) return sha256Of(text);
  const base = path.dirname(file);
  const lines = [...files].map(([at, held]) => `${path.relative(base, at).split(path.sep).join('/')}\n${sha256Of(held)}\n`).sort();
  return sha256Of('tmas agents module and its local imports\n', ...lines);
}
