/**
 * What a prompt's prefix looks like to the router (routing.ts): keys of its
 * text at every PREFIX_BLOCK_CHARS characters, each hashing everything before
 * it (a chain), so that two prompts share their first k keys exactly when
 * they share their first k blocks of text, and a last key for the whole
 * prompt, so that equal prompts (the verifications of one candidate) match in
 * full. A server's prefix cache works the same way on tokens (vLLM's blocks of
 * 16, SGLang's radix tree); the router only needs to know which replica has
 * most likely seen the most of a prompt, so blocks of characters do, and the
 * keys are approximate: 53-bit hashes, not cryptographic.
 */
import type { CompletionRequest } from '../reply/completion.ts';

/** Characters per block: 64 tokens or so, coarse enough that a long prompt has a few hundred keys, fine enough for a short shared system prompt. */
export const PREFIX_BLOCK_CHARS = 256;

/** A prompt's prefix keys and its length. */
export interface PrefixKeys {
  /** One key per full block, in order, then one for the whole prompt. */
  readonly keys: readonly number[];
  /** Characters of the prompt as hashed (messages and their roles). */
  readonly chars: number;
}

/**
 * The keys of a request's messages, read as the server's chat template lays
 * them out: in order, each after its role. Two running 32-bit hashes (FNV-1a
 * and a multiply-xorshift lane) go from block to block, packed into 53 bits.
 */
export function prefixKeysOf(messages: CompletionRequest['messages']): PrefixKeys {
  const keys: number[] = [];
  let a = 0x811c9dc5;
  let b = 0x9e3779b9;
  let at = 0;
  const take = (code: number) => {
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x85ebca6b);
    b ^= b >>> 13;
    if (++at % PREFIX_BLOCK_CHARS === 0) keys.push(keyOf(a, b));
  };
  for (const message of messages) {
    // The role and a separator that no text holds, so that where one message ends counts.
    for (let i = 0; i < message.role.length; i++) take(message.role.charCodeAt(i));
    take(0);
    for (let i = 0; i < message.content.length; i++) take(message.content.charCodeAt(i));
    take(0);
  }
  if (at % PREFIX_BLOCK_CHARS !== 0) keys.push(keyOf(a, b));
  return { keys, chars: at };
}

/** Two 32-bit lanes as one safe integer. */
function keyOf(a: number, b: number): number {
  return (a >>> 0) * 2 ** 21 + ((b >>> 0) >>> 11);
}

/** Characters of `prefix` covered by its first `matched` keys. */
export function matchedChars(prefix: PrefixKeys, matched: number): number {
  return matched >= prefix.keys.length ? prefix.chars : matched * PREFIX_BLOCK_CHARS;
}
