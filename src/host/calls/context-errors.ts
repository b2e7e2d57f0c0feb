/**
 * What a server's context-length error says: the window it has, and how many
 * tokens the refused request asked for in all. vLLM and OpenAI say "maximum
 * context length is N tokens. However, you requested T tokens (P in the
 * messages, C in the completion)", current vLLM "… you requested C output
 * tokens and your prompt contains P input tokens, for a total of T tokens"
 * or "'max_tokens' … is too large: C. … your request has P input tokens", its
 * VLLMValidationError "You passed P input tokens and requested C output
 * tokens. However, the model's context length is only N tokens",
 * SGLang and newer vLLM "maximum context length of N tokens. You requested a
 * total of T tokens: …", and SGLang on a prompt alone "The input (T tokens)
 * is longer than the model's context length (N tokens)", llama.cpp's server
 * "request (P tokens) exceeds the available context size (N tokens)" (its
 * prompt alone: it does not refuse a completion limit past its window);
 * the hosted APIs' words are beside their patterns below.
 */
import { ungroupDigits } from '../../gateway/request/grouped-digits.ts';
import { noCompletionLeft } from '../../gateway/request/no-completion-left.ts';

/** Tokens kept free between prompt + completion and the context window, for chat-template overhead. */
export const CONTEXT_MARGIN = 256;

/** The window the server states, or null when its words give none. */
export function statedWindow(said: string): number | null {
  const message = ungroupDigits(said);
  // Bounded spaces and digits: an error body is up to 64 KiB, and two open runs around an optional one take it in quadratic time (seconds).
  const stated = /(?:context length(?: is(?: only)?| of(?: only)?)?|context size|context window(?: is| of)?|prompt length(?: is)?)\s{0,16}[:(]?\s{0,16}(\d+)/i.exec(message)?.[1] ?? HOSTED_WINDOW.map((words) => words.exec(message)?.[1]).find((found) => found !== undefined);
  return stated === undefined ? null : Number(stated);
}

/**
 * Where hosted APIs state their window: Anthropic ('prompt is too long: P
 * tokens > W maximum', 'exceed context limit: P + C > W'), Gemini ('… the
 * maximum number of tokens allowed (W)'), TGI and Together ('… must be <= W';
 * TGI's prompt alone: '`inputs` must have less than W tokens', a window no
 * larger than its own), Mistral ('too large for model with W maximum context
 * length'). Fireworks' 'model maximum context length: W', LM Studio's
 * 'context length of only W tokens' and xAI's 'maximum prompt length is W'
 * are read by statedWindow's own pattern.
 */
const HOSTED_WINDOW = [/(?<!\d)(\d{1,12}) maximum context length/i, /tokens > (\d+) maximum/i, /context limit: \d+ \+ \d+ > (\d+)/i, /maximum number of tokens allowed \((\d+)\)/i, /max_new_tokens`? must be <= (\d+)/i, /inputs`? must have less than (\d+) tokens/i];

/** How many tokens the refused request asked for in all, as the server counted them; null when its words do not say. */
export function requestedTokens(said: string): number | null {
  const message = ungroupDigits(said);
  // OpenRouter's 'you requested about T tokens', Mistral's 'Prompt contains T tokens', xAI's 'the request contains T tokens'.
  const total = /(?:you requested(?: about)?|a total of|input|length|request|contains) \(?(\d+)(?:\.0)? tokens/i.exec(message)?.[1];
  if (total !== undefined) return Number(total);
  // Anthropic's 'prompt is too long: T tokens' (Gemini's 'input token count (T)'), and the prompt and completion summed: its 'P + C > W', TGI's 'Given: P `inputs` tokens and C `max_new_tokens`'.
  // Fireworks' 'The prompt is too long: T, model maximum context length: W'.
  const prompted = /too long: (\d+)(?: tokens)?/i.exec(message)?.[1] ?? /input token count \((\d+)\)/i.exec(message)?.[1];
  if (prompted !== undefined) return Number(prompted);
  const parts = /limit: (\d+) \+ (\d+) >/i.exec(message) ?? /Given: (\d+) `?inputs`? tokens and (\d+) `?max_new_tokens/i.exec(message);
  if (parts !== null) return Number(parts[1]) + Number(parts[2]);
  // vLLM's VLLMValidationError: 'You passed P input tokens and requested C output tokens'.
  const passed = /passed (\d+) input tokens and requested (\d+) output tokens/i.exec(message);
  if (passed !== null) return Number(passed[1]) + Number(passed[2]);
  // TGI's refusal of a prompt alone: '`inputs` must have less than W tokens. Given: P'.
  const given = /must have less than \d+ tokens\. Given: (\d+)/i.exec(message)?.[1];
  if (given !== undefined) return Number(given);
  // vLLM's check of max_tokens alone states the completion limit and the prompt apart.
  const completion = /too large: (\d+)/i.exec(message)?.[1];
  const prompt = /has (\d+) input tokens/i.exec(message)?.[1];
  return completion !== undefined && prompt !== undefined ? Number(completion) + Number(prompt) : null;
}

/**
 * The window to fit into after a context-length error met at `window`: the
 * one the server states when smaller; else (the call was already fitted to
 * it, and the server counts its prompt longer than the run's tokenizer does)
 * smaller by the tokens the server says the request went over, and the
 * margin; after a completion limit the server worked out as none, the
 * prompt's `promptTokens` less its overshoot; else by an eighth. Halving, as before, took a call fitted to a
 * stated 8,192 down to 4,096 for an overshoot of a few hundred tokens.
 */
export function shrunkWindow(window: number, message: string, promptTokens?: number): number {
  // A server that worked out no completion left (no-completion-left.ts) holds a window of the prompt less what it says it got:
  // the prompt is fitted into that (trimmed where it can be), not shrunk an eighth at a time, each a refusal.
  const left = noCompletionLeft(ungroupDigits(message));
  if (left !== null && promptTokens !== undefined) return Math.max(CONTEXT_MARGIN * 2, Math.min(window - Math.ceil(window / 8), promptTokens + left));
  const stated = statedWindow(message);
  if (stated !== null && stated < window) return Math.max(CONTEXT_MARGIN * 2, stated);
  const requested = requestedTokens(message);
  const over = stated !== null && requested !== null && requested > stated ? requested - stated : null;
  const next = over === null ? window - Math.ceil(window / 8) : window - over - CONTEXT_MARGIN;
  return Math.max(CONTEXT_MARGIN * 2, next);
}
