/**
 * A question that asks for a percentage: "What percent of the students …?", "… as a percent", "the percentage of …".
 * Its reference is the number of percent, often written without the sign (25 for 25%); a reply that writes the sign
 * answers it. Without the question, "25\%" against 25 stays a guess (quantity-readings.ts): 25 may be a count.
 */
import { askingSentence } from './extract/labelled-clauses.ts';

/** Words of the asking sentence that ask for a percentage: "What percent …", "by what percentage", "the percentage of …". */
const ASKS_PERCENT =
  /\bwhat\s+(?:is\s+the\s+)?percent(?:age)?\b|\bhow\s+many\s+percent\b|\b(?:as|in)\s+(?:a\s+)?percent(?:age)?\b|\bthe\s+percent(?:age)?\s+(?:of|that|increase|decrease|change|by)\b/i;

/** An instruction anywhere in the question: "Express your answer as a percentage." */
const PERCENT_INSTRUCTION = /\b(?:express|give|write|enter|round)\b[^.?!]{0,40}\b(?:as|in)\s+(?:a\s+)?percent(?:age)?\b/i;

/**
 * Whether `question` asks for its answer as a percentage, in its asking sentence or an instruction: a percentage its
 * statement only describes ("the table shows the percent of bus riders … For which grade …?") asks for none.
 */
export function asksForPercent(question: string | undefined): boolean {
  return question !== undefined && (ASKS_PERCENT.test(askingSentence(question)) || PERCENT_INSTRUCTION.test(question));
}

/** A cleaned answer that is one number and a percent sign or word ("25%", "12.5 %", "25 \text{ percent}"): the number; null for any other. */
export function numberOfPercent(cleaned: string): string | null {
  return /^(-?\d+(?:\.\d+)?)\s*(?:%|\\text\{\s*percent\s*\}|percent)$/.exec(cleaned.trim())?.[1] ?? null;
}
