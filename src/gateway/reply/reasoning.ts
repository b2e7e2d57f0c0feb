/**
 * Reasoning text arrives in five dialects: a `reasoning_content` field (vLLM's
 * reasoning parsers, DeepSeek), a `reasoning` field (newer vLLM, OpenRouter),
 * content parts of type `thinking` (Mistral's reasoning models; read in
 * message-texts.ts), inline in `content` between `<think>` and `</think>`
 * (a server without a reasoning parser), or inline in gpt-oss's harmony
 * channels (harmony.ts). All five end up apart from the answer.
 */
import { splitHarmony } from './harmony.ts';

/** Which dialect a reply's reasoning came in. */
export type ReasoningDialect = 'reasoning_content' | 'reasoning' | 'thinking' | 'think-tags' | 'harmony';

/** The dialects whose reasoning comes in a field of its own, not inline in `content`. */
export type FieldDialect = Exclude<ReasoningDialect, 'think-tags' | 'harmony'>;

const OPEN = '<think>';
const CLOSE = '</think>';

/**
 * Splits `<think>…</think>` off the start of `content`. Qwen3 and DeepSeek-R1
 * chat templates put the opening tag in the prompt, so the reply may start
 * inside the reasoning and hold only the closing tag. A reply that opens
 * `<think>` and never closes it (cut at its token limit while it thought) is
 * reasoning only, with no answer: read as an answer, its tentative boxes
 * were graded and shown to the judge. Other content without a closing tag is
 * left as it is: an answer may mention `<think>` itself. The answer is the
 * text after the closing tag as it came, its leading newlines included: what
 * vLLM's reasoning parsers send as `content`, and what a method's code that
 * splits at `</think>` itself reads (PaCoRe's references).
 */
export function splitThinkTags(content: string): { content: string; reasoning: string } | null {
  const close = content.indexOf(CLOSE);
  if (close < 0) {
    const start = content.trimStart();
    return start.startsWith(OPEN) ? { content: '', reasoning: start.slice(OPEN.length).trim() } : null;
  }
  const head = content.slice(0, close);
  const open = head.indexOf(OPEN);
  // Text before an opening tag is not reasoning: leave such a reply alone.
  if (open >= 0 && head.slice(0, open).trim() !== '') return null;
  const reasoning = (open >= 0 ? head.slice(open + OPEN.length) : head).trim();
  return { content: content.slice(close + CLOSE.length), reasoning };
}

/**
 * The answer and the reasoning of a reply, and the dialect the reasoning came
 * in (null: none); `apart` is a reasoning that came in a field of its own (one
 * left empty gives way to reasoning inline in the content). One rule for every
 * inline dialect: a reply that opened its reasoning and never left it is
 * reasoning only, with no answer, its finish reason kept (`length`: cut). Where
 * the opening is unmistakable (`<think>`, harmony's channel tokens) its never
 * closing is enough; where an answer could open the same way (harmony's
 * stripped `analysis`), `cut` (the reply ended at its limit) must say so too.
 */
export function separateReasoning(
  content: string,
  apart: { text: string; dialect: FieldDialect } | null,
  cut: boolean,
): { content: string; reasoning: string | null; dialect: ReasoningDialect | null } {
  // A field sent empty says nothing of where the reasoning is (a proxy that writes reasoning_content: "" on every
  // reply): the content may still hold it inline. Before, such a content's <think> block was the answer.
  if (apart !== null && apart.text.trim() !== '') return { content, reasoning: apart.text, dialect: apart.dialect };
  const split = splitThinkTags(content);
  if (split) return { ...split, dialect: 'think-tags' };
  const channels = splitHarmony(content, cut);
  if (channels) return { ...channels, dialect: 'harmony' };
  return apart === null ? { content, reasoning: null, dialect: null } : { content, reasoning: apart.text, dialect: apart.dialect };
}

/**
 * A reply whose finish reason was known to be `length` only after it was read
 * (a server that gave none: inferred from its tokens), read again by the rule
 * above now that it is known to be cut; a reply already split, or with its
 * finish reason said, as it is.
 */
export function separatedOnceCut<T extends { content: string; reasoning: string | null; reasoningDialect: ReasoningDialect | null }>(reply: T): T {
  if (reply.reasoningDialect !== null) return reply;
  const separated = separateReasoning(reply.content, null, true);
  return separated.dialect === null ? reply : { ...reply, content: separated.content, reasoning: separated.reasoning, reasoningDialect: separated.dialect };
}
