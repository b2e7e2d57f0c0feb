/**
 * A LaTeX matrix as a mathjs matrix: `\begin{pmatrix} a & b \\ c & d
 * \end{pmatrix}` → `[[a, b], [c, d]]`, and a determinant for the `vmatrix`
 * kinds. Cells are expressions; a ragged matrix is not translated.
 */
import { TranslateError } from './latex-cursor.ts';
import type { LatexGrammar } from './latex-grammar.ts';

/** The matrix after `\begin` (already taken), up to its `\end{…}`. */
export function readMatrix(grammar: LatexGrammar): string {
  const cursor = grammar.cursor;
  cursor.expectOp('{');
  const env = cursor.rawUntil('}');
  if (!/^(?:[pbBvV]?matrix|smallmatrix|array)\*?$/.test(env)) throw new TranslateError(`unsupported ${env}`);
  if (env === 'array' && cursor.isOp('{')) {
    cursor.skip();
    cursor.rawUntil('}');
  }
  const rows: string[][] = [[]];
  for (;;) {
    if (cursor.isCmd('end')) break;
    if (cursor.isOp('&') || cursor.isOp('\\\\')) {
      // An empty cell; only happens with trailing separators.
      const sep = cursor.next().v;
      if (sep === '\\\\') rows.push([]);
      continue;
    }
    rows[rows.length - 1]?.push(grammar.expr());
    if (cursor.isOp('&')) cursor.skip();
    else if (cursor.isOp('\\\\')) {
      cursor.skip();
      rows.push([]);
    } else if (!cursor.isCmd('end')) throw new TranslateError('bad matrix cell');
  }
  cursor.skip();
  cursor.expectOp('{');
  cursor.rawUntil('}');
  const filled = rows.filter((r) => r.length > 0);
  const width = filled[0]?.length ?? 0;
  if (width === 0 || filled.some((r) => r.length !== width)) throw new TranslateError('ragged matrix');
  const code = `[${filled.map((r) => `[${r.join(', ')}]`).join(', ')}]`;
  return env.startsWith('v') || env.startsWith('V') ? `det(${code})` : code;
}
