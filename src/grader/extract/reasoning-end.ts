/**
 * Where the reasoning a server leaves inline in a reply ends, and what the reply says after it: DeepSeek-R1, QwQ and
 * Qwen3 write `<think>…</think>`, gpt-oss its analysis channel before the final one.
 */
import { ownTurn } from './turns.ts';
import { withoutStruck } from './struck.ts';

/**
 * Where reasoning left inline by a server ends: `</think>`, or gpt-oss's
 * header of its final channel; "assistantfinal" is that header once a server
 * strips the special tokens from a reply that opens with its "analysis".
 */
const REASONING_ENDS = ['</think>', '<|channel|>final<|message|>'];

/**
 * What a response says after its reasoning: the text after its last
 * reasoning end, else all of it; in either, only up to a turn it invents for
 * the user (turns.ts).
 */
export function afterReasoning(whole: string): string {
  const text = withoutStruck(ownTurn(whole));
  let cut = -1;
  for (const end of REASONING_ENDS) {
    const at = text.lastIndexOf(end);
    if (at >= 0) cut = Math.max(cut, at + end.length);
  }
  if (cut < 0 && /^\s*analysis/.test(text)) {
    const at = text.lastIndexOf('assistantfinal');
    if (at >= 0) cut = at + 'assistantfinal'.length;
  }
  return cut < 0 ? text : text.slice(cut).replace(/^\s+/, '');
}
