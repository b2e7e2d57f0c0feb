/**
 * A simulated call's prompt as the router and the capacity model see it,
 * made from its prompt group (call-graph.ts) and its length alone: calls of
 * one group get the same text and the same prefix keys, calls of different
 * groups share not even their first block. The text is the group's number
 * padded to the prompt's length (the capacity model's prefix cache hashes its
 * 16-token blocks); the keys are one per 256 characters (the router's block,
 * src/gateway/prefix-keys.ts), numbered within the group, so no hashing is
 * needed to tell groups apart.
 */
import { PREFIX_BLOCK_CHARS, type PrefixKeys } from '../gateway/prefix-keys.ts';
import { CHARS_PER_TOKEN } from '../sim/filler.ts';

/** Blocks a group's keys may number: prompts up to 16 million characters. */
const BLOCKS_PER_GROUP = 2 ** 16;

/** The text of a prompt of `group` and `tokens` tokens. */
export function promptText(group: number, tokens: number): string {
  return `${group}|`.padEnd(tokens * CHARS_PER_TOKEN, '.');
}

/** The prefix keys of a prompt of `group` and `tokens` tokens. */
export function promptPrefix(group: number, tokens: number): PrefixKeys {
  const chars = tokens * CHARS_PER_TOKEN;
  const blocks = Math.min(BLOCKS_PER_GROUP, Math.max(1, Math.ceil(chars / PREFIX_BLOCK_CHARS)));
  return { keys: Array.from({ length: blocks }, (_, block) => group * BLOCKS_PER_GROUP + block), chars };
}
