/**
 * Where a reply stops being the model's own turn. A server that misses the
 * end of a turn (a chat template's stop token not configured, a base model)
 * lets the model go on writing the conversation: a "User:" line or the
 * template's header of a user turn, then an assistant's answer to a question
 * nobody asked. That answer is not the reply's: only the text before the
 * invented turn is read.
 */

/**
 * The start of a user's turn: a "User:" or "Human:" line (plain, bold or a
 * heading), or a chat template's header (ChatML, Llama 3, Gemma, gpt-oss,
 * DeepSeek, Phi).
 */
const USER_TURN = new RegExp(
  String.raw`(?:^|\n)[ \t]*(?:#{1,6}[ \t]*)?(?:\*\*)?(?:user|human)(?:\*\*)?[ \t]*(?::|：)(?:\*\*)?|` +
    String.raw`<\|im_start\|>[ \t]*user|<\|start_header_id\|>[ \t]*user|<start_of_turn>[ \t]*user|<\|start\|>[ \t]*user|<\|user\|>|<｜User｜>`,
  'i',
);

/** Tokens that end a turn, left at the end of the text before an invented turn. */
const TURN_ENDS = /(?:\s*(?:<\|im_end\|>|<\|eot_id\|>|<\|endoftext\|>|<\|end\|>|<end_of_turn>|<｜end▁of▁sentence｜>|<\/s>))+\s*$/;

/** The reply up to the first turn it invents for the user; all of it when it invents none. */
export function ownTurn(text: string): string {
  const invented = USER_TURN.exec(text);
  // A reply that opens with a user's header is no reply continued: nothing of it would be left.
  if (invented === null || text.slice(0, invented.index).trim() === '') return text;
  return text.slice(0, invented.index).replace(TURN_ENDS, '');
}
