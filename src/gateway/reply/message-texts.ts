/**
 * The texts one message (a whole reply's) or one delta (a stream's) holds,
 * in whichever shape the server wrote them:
 *
 * - the answer as a string `content`, or as a list of content parts
 *   (Mistral's reasoning models: `{"type": "text", "text": …}` parts for the
 *   answer, `{"type": "thinking", "thinking": [text parts]}` for the
 *   reasoning, in whole replies and in every streamed delta);
 * - the reasoning as `reasoning_content` (DeepSeek, SGLang, vLLM before its
 *   rename of the field), `reasoning` (newer vLLM, OpenRouter), or Mistral's
 *   thinking parts. vLLM's releases from that rename (late 2025) to its
 *   removal of the old name copied `reasoning` into `reasoning_content` in
 *   every delta: the two carry the same text, which is taken once (read as
 *   two, a stream's reasoning counted twice against its completion limit,
 *   and a long one was cut and retried until it failed). A field left empty
 *   beside one that holds the text gives way to it.
 *
 * - OpenRouter's `reasoning_details`, a list of `reasoning.text` items (their
 *   `text`) and `reasoning.summary` items (their `summary`), read where no
 *   `reasoning` string comes beside it (OpenRouter sends both for most
 *   models; a proxy that passes the list alone left the reasoning unread,
 *   its stream's thinking counted as keep-alives and by no meter); its
 *   `reasoning.encrypted` items hold no text;
 * - a content part sent bare, as an object rather than a list of one.
 *
 * A field of another type (a number, an object that is no part) holds no
 * text: it is not read, rather than read as `[object Object]` or failing the call.
 */
import type { FieldDialect } from './reasoning.ts';

/** The texts of one message or delta; empty strings where it has none. */
export interface MessageTexts {
  content: string;
  reasoning: string;
  /** The field the reasoning came in; null when it had none. */
  reasoningField: FieldDialect | null;
}

/** The answer and the reasoning `message` (a message or a delta) holds. */
export function messageTexts(message: unknown): MessageTexts {
  const fields = (typeof message === 'object' && message !== null ? message : {}) as Record<string, unknown>;
  const { content, thinking } = contentParts(fields['content']);
  const reasoning = reasoningField(fields);
  if (reasoning !== null) return { content, reasoning: fields[reasoning] as string, reasoningField: reasoning };
  if (thinking !== null) return { content, reasoning: thinking, reasoningField: 'thinking' };
  const details = detailsText(fields['reasoning_details']);
  if (details !== null) return { content, reasoning: details, reasoningField: 'reasoning' };
  return { content, reasoning: '', reasoningField: null };
}

/** The text of OpenRouter's `reasoning_details` list: its text and summary items' words; null when it is no list or holds none (an encrypted item alone, an empty list: no dialect). */
function detailsText(details: unknown): string | null {
  if (!Array.isArray(details)) return null;
  let text = '';
  for (const item of details as unknown[]) {
    if (typeof item !== 'object' || item === null) continue;
    const { type, text: words, summary } = item as Record<string, unknown>;
    if (type === 'reasoning.text' && typeof words === 'string') text += words;
    else if (type === 'reasoning.summary' && typeof summary === 'string') text += summary;
  }
  return text === '' ? null : text;
}

/**
 * The field of `fields` to read the reasoning from: the one that holds text,
 * else one left empty; `reasoning_content` when both hold it (vLLM's copy),
 * the name the dialect was counted under before. Null when neither is a string.
 */
function reasoningField(fields: Record<string, unknown>): 'reasoning_content' | 'reasoning' | null {
  // Read for every event of a stream (a token each, from vLLM): no list made for two fields.
  const content = typeof fields['reasoning_content'] === 'string';
  const plain = typeof fields['reasoning'] === 'string';
  if (content && plain) return fields['reasoning_content'] === '' && fields['reasoning'] !== '' ? 'reasoning' : 'reasoning_content';
  return content ? 'reasoning_content' : plain ? 'reasoning' : null;
}

/** A `content` as its answer text and the text of its thinking parts (null without any). */
function contentParts(content: unknown): { content: string; thinking: string | null } {
  if (typeof content === 'string') return { content, thinking: null };
  // One part sent bare, not in a list (`{"type": "text", "text": …}`): read as the list of it.
  const parts = Array.isArray(content) ? (content as unknown[]) : typeof content === 'object' && content !== null ? [content] : [];
  let text = '';
  let thinking: string | null = null;
  for (const part of parts) {
    if (typeof part === 'string') text += part;
    else if (isPart(part, 'text')) text += typeof part['text'] === 'string' ? part['text'] : '';
    else if (isPart(part, 'thinking')) thinking = (thinking ?? '') + partsText(part['thinking']);
  }
  return { content: text, thinking };
}

/** The text of a list of text parts (a thinking part's), or of a string. */
function partsText(parts: unknown): string {
  if (typeof parts === 'string') return parts;
  if (!Array.isArray(parts)) return '';
  return (parts as unknown[]).map((part) => (typeof part === 'string' ? part : isPart(part, 'text') && typeof part['text'] === 'string' ? part['text'] : '')).join('');
}

/** Whether `part` is a content part of `type` (a text part may leave its type out). */
function isPart(part: unknown, type: 'text' | 'thinking'): part is Record<string, unknown> {
  if (typeof part !== 'object' || part === null) return false;
  const declared = (part as { type?: unknown }).type;
  return declared === type || (declared === undefined && type === 'text');
}
