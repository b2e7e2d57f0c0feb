/**
 * Which character separates a CSV file's fields. Spreadsheets in locales that
 * write a decimal comma save "CSV" with semicolons, and many data sets come as
 * tab-separated text: read with commas, such a file was refused at its first
 * row that held a comma, with advice about quoting that did not apply. The
 * header decides: a comma in it means commas; a header without one is split on
 * the separator it does hold (tab, semicolon or bar). A `.tsv` name means tabs.
 */

/** The separators tried in a header without a comma, in this order on a tie. */
const OTHER_SEPARATORS = ['\t', ';', '|'] as const;

/** The field separator of a CSV (or TSV) file's text, from its name and its header line. */
export function csvDelimiter(file: string, text: string): string {
  if (file.toLowerCase().endsWith('.tsv')) return '\t';
  const header = headerLine(text);
  const counts = new Map<string, number>();
  let quoted = false;
  for (const char of header) {
    if (char === '"') quoted = !quoted;
    else if (!quoted) counts.set(char, (counts.get(char) ?? 0) + 1);
  }
  if (counts.has(',')) return ',';
  let best: string = ',';
  for (const separator of OTHER_SEPARATORS) if ((counts.get(separator) ?? 0) > (counts.get(best) ?? 0)) best = separator;
  return best;
}

/** The first line that is not blank (the header), a quoted line break inside it kept. */
function headerLine(text: string): string {
  const start = text.search(/[^\r\n]/);
  if (start === -1) return '';
  let quoted = false;
  for (let at = start; at < text.length; at++) {
    const char = text[at];
    if (char === '"') quoted = !quoted;
    else if ((char === '\n' || char === '\r') && !quoted) return text.slice(start, at);
  }
  return text.slice(start);
}

/** How a message names a separator: `commas`, `tabs`, `semicolons`, `"|"`. */
export function delimiterName(delimiter: string): string {
  return ({ ',': 'commas', '\t': 'tabs', ';': 'semicolons' } as Record<string, string>)[delimiter] ?? JSON.stringify(delimiter);
}
