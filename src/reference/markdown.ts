/** Markdown pieces the reference pages share. */

/** A cell of a Markdown table: pipes escaped, line breaks joined, and angle brackets outside code spans kept as text. */
export function cell(text: string): string {
  const escaped = text
    .split('`')
    .map((part, index) => (index % 2 === 1 ? part : part.replace(/</g, '&lt;').replace(/>/g, '&gt;')))
    .join('`');
  return escaped.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

/** A Markdown table from a header row and rows of cells. */
export function table(header: string[], rows: string[][]): string {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`)].join('\n');
}

/** The banner of a generated page: where it comes from and how to make it again. */
export function generatedBanner(source: string): string {
  return `<!-- Generated from ${source} by \`npm run docs\`; edit the source, not this page. -->`;
}
