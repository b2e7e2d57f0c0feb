/**
 * The mark a reply may close on after its answer: the end of a proof ("$\blacksquare$", "$\square$", "∎", "Q.E.D.")
 * or a check ("$\checkmark$", "✓"). Set in mathematics, it was read as the last math of the reply: "We find that
 * $x = 17$. $\checkmark$" was the answer "\checkmark", a right 17 graded different, sure of it.
 */

/** One end mark, in mathematics or in text, with the space before it. */
const END_MARK =
  /(?:\s*(?:\$\s*(?:\\hfill\s*)?\\(?:blacksquare|square|Box|qed|checkmark)\s*\$|\\\(\s*\\(?:blacksquare|square|Box|qed|checkmark)\s*\\\)|\\(?:hfill\s*)?\\?(?:blacksquare|qed)(?![a-zA-Z])|[∎□■✓✔]|\bQ\.?\s?E\.?\s?D\.?))+\s*$/;

/** `text` without the end marks it closes on; `text` itself when it closes on none. */
export function withoutEndMark(text: string): string {
  // Only the last few hundred characters can hold the marks: a search of the whole reply costs time on a long one.
  const tail = text.slice(-400);
  const mark = END_MARK.exec(tail);
  return mark === null ? text : text.slice(0, text.length - tail.length + mark.index);
}
