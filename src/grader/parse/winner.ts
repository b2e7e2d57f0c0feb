/**
 * Answers that name a winner: "Alice wins", "Bob has a winning strategy",
 * "the first player can always win" name the same player as "Alice", "Bob",
 * "the first player"; and "the first player" is "first player". Read as a
 * sentence about a name, they were a reader's call against the name alone.
 */

/** A sentence that says its subject wins, and nothing else. */
const WINS = /^(\p{L}[\p{L}\d'-]*(?:\s+[\p{L}\d'-]+){0,3}?)\s+(?:wins(?:\s+the\s+game)?|will\s+(?:always\s+)?win(?:\s+the\s+game)?|can\s+(?:always\s+)?(?:win(?:\s+the\s+game)?|force\s+a\s+win)|has\s+a\s+winning\s+strategy|is\s+the\s+winner)\s*[.!]?$/iu;

/** Subjects that name no winner, or deny one: "No one wins", "Neither player has a winning strategy". */
const NO_WINNER = /\b(?:no|not|never|neither|nor|nobody|none|noone|nothing)\b/i;

/** "the" before a name in words ("the first player", "\text{The first player}"): no part of the name. */
const LEADING_THE = /^(\s*\\text\s*\{\s*)?the\s+(?=\p{L}{2})/iu;

/** `text` without a leading "the" before a word. */
export function withoutLeadingThe(text: string): string {
  return text.replace(LEADING_THE, '$1');
}

/** The winner a sentence names ("Alice wins" is "Alice"), without a leading "the"; null for any other text. */
export function namedWinner(text: string): string | null {
  const m = WINS.exec(text.trim());
  const subject = m?.[1];
  if (subject === undefined || NO_WINNER.test(subject)) return null;
  return withoutLeadingThe(subject);
}
