/**
 * Functions named in words: "the identity function", "$f$ is the identity"
 * are "f(x) = x"; "the zero function", "$f$ is identically zero" are
 * "f(x) = 0". As words they were different from the formula, sure of it.
 */

/** "the identity (function/map)", "f is the identity (function)". */
const IDENTITY = /^(?:([a-zA-Z])\s+is\s+)?(?:the\s+)?identity(?:\s+(?:function|map|mapping))?(?:\s+([a-zA-Z]))?$/i;

/** "the zero function", "f is identically zero", "f is the zero function". */
const ZERO = /^(?:([a-zA-Z])\s+is\s+)?(?:(?:the\s+)?zero\s+(?:function|map)|identically\s+(?:zero|0))$/i;

/** The formula a whole answer names a function by in words; null for any other answer. */
export function functionInWords(text: string): string | null {
  const trimmed = text.trim().replace(/[.!]$/, '').trim();
  const identity = IDENTITY.exec(trimmed);
  if (identity !== null) return `${identity[1] ?? identity[2] ?? 'f'}(x) = x`;
  const zero = ZERO.exec(trimmed);
  return zero === null ? null : `${zero[1] ?? 'f'}(x) = 0`;
}
