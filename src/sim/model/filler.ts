/**
 * Deterministic padding text, cheap at any length: outputs are slices of one
 * precomputed chunk (repeated when a reply is longer than it), so a
 * 130,000-token reply costs one string repeat and one slice, not a loop per
 * character. The sentences avoid what the role parsers look for (the boxed
 * marker, the score and summary labels), so padding never changes a parse.
 */
import type { Rng } from './random.ts';

/** Characters per token assumed everywhere in the simulator (OpenAI's rule of thumb for English). */
export const CHARS_PER_TOKEN = 4;

/** The approximate token count of a text: ceil(characters / 4). */
export function tokensOf(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

const SENTENCES = [
  'First we restate the condition in a form that is easier to manipulate.',
  'Writing the unknown quantity as a sum over its parts makes the structure visible.',
  'The small cases suggest a pattern, which we now try to justify in general.',
  'Each term can be bounded from above by the previous one, so the sequence is monotone.',
  'Substituting the expression back into the original equation gives a consistent identity.',
  'We check the edge cases separately, since the general argument divides by a quantity that may vanish.',
  'By symmetry it suffices to consider the case where the first variable is the largest.',
  'The two conditions together leave only finitely many possibilities to examine.',
  'Grouping the terms in pairs shows that most of them cancel.',
  'A direct computation confirms the value obtained from the general argument.',
  'This reduces the question to counting the admissible configurations.',
  'Every configuration is counted exactly once, because the map to the reduced form is a bijection.',
  'The remaining expression simplifies after clearing denominators.',
  'Taking both sides modulo a small prime rules out the other candidates.',
  'The estimate is sharp, as the explicit example above attains it.',
  'Combining the previous two observations determines the quantity we want.',
  'We double-check the arithmetic, since a slip here would change the final value.',
  'The auxiliary function is increasing on the interval, so its minimum is at the left endpoint.',
  'Induction on the size of the set carries the claim from the base case to all cases.',
  'The degenerate case contributes nothing, so it can be set aside.',
  'Rewriting the product as a ratio of factorials makes the cancellation clear.',
  'The angle conditions force the two triangles to be similar.',
  'An averaging argument shows that some part must be at least the mean.',
  'Collecting the contributions of all cases gives the total.',
];

/** The chunk every padding is cut from: sentences in a fixed order, a paragraph every four. */
const CHUNK = SENTENCES.map((s, i) => (i % 4 === 3 ? `${s}\n` : `${s} `)).join('');

/** Where each sentence starts in CHUNK, so a padding can start at a sentence boundary. */
const STARTS = SENTENCES.reduce<number[]>((starts, s, i) => {
  starts.push(i === 0 ? 0 : (starts[i - 1] ?? 0) + (SENTENCES[i - 1]?.length ?? 0) + 1);
  return starts;
}, []);

/**
 * About `chars` characters of reasoning-like prose, starting at a sentence
 * chosen by `rng` and ending at the sentence end nearest to `chars` (so it may
 * run over by less than one sentence).
 */
export function filler(chars: number, rng: Rng): string {
  if (chars <= 0) return '';
  const start = STARTS[rng.int(STARTS.length)] ?? 0;
  const need = start + chars + LONGEST;
  const source = need <= CHUNK.length ? CHUNK : CHUNK.repeat(Math.ceil(need / CHUNK.length));
  const text = source.slice(start, need);
  const before = lastSentenceEnd(text, chars);
  const after = nextSentenceEnd(text, chars);
  const end = after >= 0 && (before < 0 || after - chars < chars - before) ? after : before;
  return end >= 0 ? text.slice(0, end + 1) : text.slice(0, chars);
}

/** Longest sentence plus its separator: how far past `chars` a sentence end can be. */
const LONGEST = Math.max(...SENTENCES.map((s) => s.length)) + 1;

function lastSentenceEnd(text: string, at: number): number {
  return Math.max(text.lastIndexOf('. ', at), text.lastIndexOf('.\n', at));
}

function nextSentenceEnd(text: string, at: number): number {
  const space = text.indexOf('. ', at);
  const newline = text.indexOf('.\n', at);
  if (space < 0) return newline;
  return newline < 0 ? space : Math.min(space, newline);
}
