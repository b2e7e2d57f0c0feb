/**
 * Text a reply strikes through to correct it: "The answer is ~~12~~ 14.", "<del>12</del> 14", "$\cancel{12}$ $14$".
 * What is struck out is taken back; read with the rest, "~~12~~ 14" was a text graded unsure against the right 14,
 * and "~~$12$~~ $14$" was 12 and 14 at once.
 */

/**
 * Markdown and HTML strikes, and LaTeX's strike commands set alone in their math, each bounded to one line of a few
 * hundred characters so that a stray "~~" reads no further than its line.
 */
const STRUCK = /~~[^~\n]{1,200}~~|<(del|s|strike)>[^<\n]{1,200}<\/\1>|\$\s*\\(?:cancel|xcancel|bcancel|sout|st)\s*\{[^{}$\n]{1,200}\}\s*\$/gi;

/** `text` without what it strikes through. */
export function withoutStruck(text: string): string {
  return text.includes('~~') || text.includes('</') || text.includes('cancel') || text.includes('\\s') ? text.replace(STRUCK, '') : text;
}
