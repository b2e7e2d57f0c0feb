/**
 * gpt-oss writes in OpenAI's harmony format: its reasoning in an `analysis`
 * channel, then its answer in a `final` channel. A server that parses it
 * (vLLM's and SGLang's gpt-oss support) returns the two apart; one that does
 * not leaves the channels in `content`, with their special tokens
 * (`<|channel|>analysis<|message|>…<|end|><|start|>assistant<|channel|>final<|message|>…`)
 * or, when it skips special tokens, with only their words left
 * (`analysis…assistantfinal…`). Read as the answer, such a content handed the
 * whole analysis to every role that reads a reply (a verifier's prompt, a
 * summary, a score or verdict parsed from it) where the other dialects'
 * reasoning is kept apart; only the grader and the judge's view cut it off.
 */

/** A harmony header: an optional `<|start|>role`, the channel (and its recipient), an optional constraint, then the message. */
const MESSAGE = /(?:<\|start\|>[^<]*)?<\|channel\|>([^<]*?)(?:\s*<\|constrain\|>[^<]*)?<\|message\|>/g;
/** The tokens that end a message's body. */
const BODY_END = /<\|(?:end|return|call|start|channel)\|>/;
/** The answer's channel. */
const FINAL = 'final';
/** What a content with its special tokens skipped starts with, and what stands between its analysis and its answer. */
const STRIPPED_OPEN = /^\s*analysis/;
const STRIPPED_FINAL = 'assistantfinal';

/**
 * The answer and the reasoning of a content in harmony's channels; null for
 * a content that is not (it does not open with a channel's header, or with
 * "analysis" and hold "assistantfinal"). The answer is the last `final`
 * message; the reasoning, every other message's body. A content that never
 * reached its final channel (cut at its limit while it analysed) is
 * reasoning only, with no answer, as an unclosed `<think>` is: for the
 * tagged form its header says so; for the stripped form, whose opening word
 * an answer may start with too, only when `cut` (the reply ended at its
 * limit) says the analysis was never left.
 */
export function splitHarmony(content: string, cut: boolean): { content: string; reasoning: string } | null {
  if (/^\s*<\|(?:start|channel)\|>/.test(content)) return splitTagged(content);
  if (!STRIPPED_OPEN.test(content)) return null;
  const final = content.lastIndexOf(STRIPPED_FINAL);
  if (final < 0) return cut ? { content: '', reasoning: content.replace(STRIPPED_OPEN, '').trim() } : null;
  const reasoning = content.slice(0, final).replace(STRIPPED_OPEN, '').trim();
  return { content: content.slice(final + STRIPPED_FINAL.length).replace(/^\s+/, ''), reasoning };
}

/** The channels of a content that keeps harmony's special tokens. */
function splitTagged(content: string): { content: string; reasoning: string } | null {
  const headers = [...content.matchAll(MESSAGE)];
  if (headers.length === 0) return null;
  const reasoning: string[] = [];
  let answer = '';
  for (const header of headers) {
    const start = header.index + header[0].length;
    const rest = content.slice(start);
    const end = BODY_END.exec(rest);
    const body = end === null ? rest : rest.slice(0, end.index);
    if (channelOf(header[1] ?? '') === FINAL) answer = body;
    else if (body.trim() !== '') reasoning.push(body.trim());
  }
  return { content: answer.replace(/^\s+/, ''), reasoning: reasoning.join('\n\n') };
}

/** A header's channel name, without its recipient (`commentary to=functions.x`). */
function channelOf(header: string): string {
  return header.trim().split(/\s+/)[0] ?? '';
}
