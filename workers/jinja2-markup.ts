/**
 * jinja2's Markup: the text `tojson` and `safe` give is a Markup, and Python's
 * `+` of a Markup and a plain text escapes the plain one for HTML first, even
 * with autoescape off, as a user's template renders (jinja2.Template(text)).
 * So `'<tools>' + (tools | tojson)` renders `&lt;tools&gt;[…]` in jinja2, and a
 * chat template that adds its tools' JSON to a text escapes that text's `<`,
 * `>`, `&`, quotes. `@huggingface/jinja` has no Markup and rendered the text as
 * it is. Here such a value is marked, and jinja2-render.ts escapes the other
 * side of a `+` with a marked one; the mark stays on the sum and on a marked
 * text stripped, and goes with `~`, which joins texts as plain ones.
 */
// The mark is held beside Python's repr(), which writes a Markup with its class (python-str.ts).
export { asMarkup, isMarkup } from './python-str.ts';

/** markupsafe's escape of a plain text. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>'"]/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', "'": '&#39;', '"': '&#34;' })[char] as string);
}
