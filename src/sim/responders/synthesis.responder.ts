/**
 * The simulated answer to a bare prompt (no system message), as PaCoRe sends:
 * the problem alone is solved as the Solution agent would; a prompt that
 * quotes reference responses is a synthesis. The model adopts the answer most
 * references agree on, more often the more of them agree (so a right
 * majority spreads and a wrong one persists, as with real parallel
 * reasoning), and otherwise solves the problem afresh.
 */
import { boxedLine } from '../model/boxed.ts';
import { CHARS_PER_TOKEN, filler } from '../model/filler.ts';
import { jitteredTokens, type Responder } from './responder.ts';
import { respondSolution } from './solution.responder.ts';

/** Chance of adopting the references' majority answer when 0% and 100% of them give it. */
const ADOPT_BASE = 0.35;
const ADOPT_AGREEMENT = 0.6;

/** The contents of every balanced `\boxed{...}` in `text`, in order. */
function boxedAnswers(text: string): string[] {
  const answers: string[] = [];
  for (let at = text.indexOf('\\boxed{'); at >= 0; at = text.indexOf('\\boxed{', at + 1)) {
    let depth = 1;
    let end = at + '\\boxed{'.length;
    for (; end < text.length && depth > 0; end++) {
      if (text[end] === '{') depth++;
      else if (text[end] === '}') depth--;
    }
    if (depth === 0) answers.push(text.slice(at + '\\boxed{'.length, end - 1).trim());
  }
  return answers;
}

/** Answers a bare prompt. */
export const respondSynthesis: Responder = (input) => {
  const answers = boxedAnswers(input.rest);
  if (answers.length === 0) return respondSolution({ ...input, rest: '' });
  const counts = new Map<string, number>();
  for (const answer of answers) counts.set(answer, (counts.get(answer) ?? 0) + 1);
  const [majority, votes] = [...counts].reduce((best, entry) => (entry[1] > best[1] ? entry : best));
  if (input.rng.next() >= ADOPT_BASE + ADOPT_AGREEMENT * (votes / answers.length)) return respondSolution({ ...input, rest: '' });
  const head = `Weighing the ${answers.length} reference answers: ${votes} agree, and their key steps check out.`;
  const tail = boxedLine(majority);
  const body = filler(jitteredTokens(input.outputTokens, input.rng) * CHARS_PER_TOKEN - head.length - tail.length - 2, input.rng);
  return [head, ...(body ? [body] : []), tail].join('\n');
};
