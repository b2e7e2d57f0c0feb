/**
 * A simulated call's prompt as the gateway's router sees it, made from its
 * prompt group (call-graph.ts) and its length alone: calls of one group get
 * the same prefix keys, calls of different groups share not even their
 * first. The keys are one per 256 characters (the router's block,
 * src/gateway/dispatch/prefix-keys.ts) of a prompt of 4 characters a token, numbered
 * within the group, so no text is made or hashed to tell groups apart.
 */
import { PREFIX_BLOCK_CHARS, type PrefixKeys } from '../gateway/dispatch/prefix-keys.ts';
import { CHARS_PER_TOKEN } from '../sim/model/filler.ts';

/** Blocks a group's keys may number: prompts up to 16 million characters. */
const BLOCKS_PER_GROUP = 2 ** 16;

/** The prefix keys of a prompt of `group` and `tokens` tokens. */
export function promptPrefix(group: number, tokens: number): PrefixKeys {
  const chars = tokens * CHARS_PER_TOKEN;
  const blocks = Math.min(BLOCKS_PER_GROUP, Math.max(1, Math.ceil(chars / PREFIX_BLOCK_CHARS)));
  return { keys: Array.from({ length: blocks }, (_, block) => group * BLOCKS_PER_GROUP + block), chars };
}
