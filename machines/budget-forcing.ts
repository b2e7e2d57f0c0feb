/**
 * Budget forcing, as MAS-TTS does it (jincan333/MAS-TTS, agentverse/llms/
 * openai.py, `agenerate_response_local`), over an OpenAI-compatible chat API.
 *
 * A call whose reply reaches its token budget less 200 tokens (or is cut at
 * the length limit) has no answer yet. The reply is then continued: a second
 * call whose messages end with an assistant message holding the cut text and
 * a cue, the end of the thinking (`</think>`) when the reasoning was cut, else
 * a final-answer cue, sent so that the server continues that message
 * (`continue_final_message`, see src/gateway/request/request-body.ts). Its completion
 * limit is half the budget (MAS-TTS's min(window − budget, budget / 2): the
 * window's part is the call's own window bound, which counts the prompt and
 * the cut text). A continuation that comes back empty is asked again, up to 3
 * times, the first retry adding the final-answer cue after the end of the
 * thinking, as MAS-TTS does. The reply is the concatenation.
 *
 * The cut reasoning goes back inline, as `<think>\n…\n</think>\n\n`: a server
 * with a reasoning parser returns it apart (`reasoning_content`), but the
 * model can only continue it as text, and a chat template that renders the
 * latest assistant turn's reasoning (Qwen3's) renders it exactly so, which is
 * what lets the server find the message it continues.
 */
import type { Usage } from '../src/kernel/protocol.ts';
import type { LlmOutput } from './llm.ts';

/** A reply this close to its budget, in tokens, is continued (MAS-TTS: `max_tokens - 200`). */
export const FORCING_MARGIN = 200;
/** Continuations that come back empty are asked again this many times at most (MAS-TTS: `retry_cnt < 3`). */
export const FORCING_RETRIES = 3;
/** The cue that ends a cut reasoning. */
export const END_OF_THINKING = '</think>';
/** The cue that asks for the final answer after a cut answer (MAS-TTS's `<Final Answer>:`, in the words the grader reads). */
export const FINAL_ANSWER_CUE = 'Final answer:';

/** Whether a reply must be continued: it came within `FORCING_MARGIN` tokens of its budget, or was cut at a lower limit. */
export function needsForcing(output: LlmOutput, budget: number): boolean {
  return output.finishReason === 'length' || output.usage.completionTokens >= budget - FORCING_MARGIN;
}

/** What a continuation is asked to continue, and what of it belongs to the reply. */
export interface ForcedPrefix {
  /** The assistant message the continuation continues: the cut text and the cue. */
  text: string;
  /** The reply's reasoning: the cut reasoning (null when it had none). */
  reasoning: string | null;
  /** The start of the reply's content: the cut answer and the cue, as the reply shows them. */
  lead: string;
}

/** The cut reasoning of a reply: its reasoning when the answer had not begun, or an unclosed `<think>` opening its content; else null. */
function cutReasoning(output: LlmOutput): string | null {
  if (output.reasoning !== null && output.content.trim() === '') return output.reasoning;
  // A server without a reasoning parser sends the thinking inline; an unclosed one was cut.
  const inline = /^\s*<think>([\s\S]*)$/.exec(output.content);
  return inline !== null && output.reasoning === null && !output.content.includes(END_OF_THINKING) ? (inline[1] ?? '') : null;
}

/** A reasoning as the chat template renders the latest assistant turn's: the server finds the message it continues only so. */
function thinkBlock(reasoning: string): string {
  return `<think>\n${reasoning.replace(/^\n+|\n+$/g, '')}\n${END_OF_THINKING}\n\n`;
}

/**
 * The prefix of a cut reply's continuation. `retry` is the continuation's
 * number of earlier empty answers: from the first retry on, a cut reasoning
 * is also followed by the final-answer cue.
 */
export function forcedPrefix(cut: LlmOutput, retry: number): ForcedPrefix {
  const thinking = cutReasoning(cut);
  if (thinking !== null) {
    const lead = retry > 0 ? FINAL_ANSWER_CUE : '';
    return { text: thinkBlock(thinking) + lead, reasoning: thinking, lead };
  }
  const shown = cut.content.replace(/\s+$/, '');
  const lead = shown === '' ? FINAL_ANSWER_CUE : `${shown}\n\n${FINAL_ANSWER_CUE}`;
  // The template drops the newlines that open an answer after its reasoning; the prefix must read as it renders.
  const text = (cut.reasoning === null ? '' : thinkBlock(cut.reasoning)) + lead.replace(/^\n+/, '');
  return { text, reasoning: cut.reasoning, lead };
}

/**
 * The text a continuation adds. A reasoning parser that takes everything
 * before an end tag for reasoning (the tag was in the prompt) returns the
 * answer as reasoning; the continuation's text is then that.
 */
export function continuationText(continuation: LlmOutput): string {
  return continuation.content.trim() === '' ? (continuation.reasoning ?? '') : continuation.content;
}

/** The usage of two calls together. */
export function addUsage(a: Usage, b: Usage): Usage {
  return { promptTokens: a.promptTokens + b.promptTokens, completionTokens: a.completionTokens + b.completionTokens };
}

/**
 * The forced reply: the cut reply's call (key, fit, attempt) with the
 * concatenated text, the continuation's finish reason and the tokens and
 * count of every call made for it (`spent`: the usage of the `continuations`,
 * the empty ones too).
 */
export function forcedReply(cut: LlmOutput, prefix: ForcedPrefix, continuation: LlmOutput, spent: Usage, continuations: number): LlmOutput {
  const text = continuationText(continuation);
  // Reasoning the continuation returned besides its answer (it thought again) is kept with the cut reasoning.
  const more = continuation.content.trim() !== '' ? continuation.reasoning : null;
  const reasoning = [prefix.reasoning, more].filter((r): r is string => r !== null);
  return {
    ...cut,
    content: [prefix.lead, text.replace(/^[ \t]+/, '')].filter((part) => part !== '').join(' '),
    reasoning: reasoning.length === 0 ? null : reasoning.join('\n'),
    finishReason: continuation.finishReason,
    usage: addUsage(cut.usage, spent),
    calls: (cut.calls ?? 1) + continuations,
  };
}
