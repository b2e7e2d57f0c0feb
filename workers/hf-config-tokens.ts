/**
 * The tokens a tokenizer_config.json adds to its tokenizer.json, as
 * transformers adds them when it loads the two (and so as the server counts
 * them): the entries of `added_tokens_decoder`, and the special tokens the
 * config names (`bos_token`, …, `additional_special_tokens`), that
 * tokenizer.json's `added_tokens` lacks. `@huggingface/tokenizers` reads only
 * tokenizer.json's list, so a token added in the config alone (a fine-tune
 * saved so) was counted as the pieces of its text, where the server counts one.
 */

/** A token as the config gives it: its text and its flags (`special`, `lstrip`, `normalized`, …). */
interface ConfigToken {
  content: string;
  [field: string]: unknown;
}

/** An added token as tokenizer.json lists it. */
interface AddedTokenJson extends ConfigToken {
  id: number;
}

/** The config's fields that name one special token each. */
const SPECIAL_FIELDS = ['bos_token', 'eos_token', 'unk_token', 'sep_token', 'pad_token', 'cls_token', 'mask_token'];

/** A token as the config writes it: its text, or an object with `content` and its flags. */
function tokenOf(value: unknown, special: boolean): ConfigToken | null {
  if (typeof value === 'string') return value === '' ? null : { content: value, special };
  if (typeof value !== 'object' || value === null || typeof (value as { content?: unknown }).content !== 'string') return null;
  const { __type: _type, ...fields } = value as Record<string, unknown>;
  return { special, ...fields, content: String(fields['content']) };
}

/** The tokens the config names, with the id it gives each (the key of `added_tokens_decoder`), or none. */
function configTokens(config: Record<string, unknown>): Array<{ id: number | null; token: ConfigToken }> {
  const found: Array<{ id: number | null; token: ConfigToken }> = [];
  const decoder = config['added_tokens_decoder'];
  if (typeof decoder === 'object' && decoder !== null) {
    for (const [key, value] of Object.entries(decoder)) {
      const token = tokenOf(value, false);
      if (token !== null && /^\d+$/.test(key)) found.push({ id: Number(key), token });
    }
  }
  const additional = config['additional_special_tokens'];
  const specials = [...SPECIAL_FIELDS.map((field) => config[field]), ...(Array.isArray(additional) ? additional : [])];
  for (const value of specials) {
    const token = tokenOf(value, true);
    if (token !== null) found.push({ id: null, token });
  }
  return found;
}

/** `json` (a tokenizer.json) with the config's tokens that its `added_tokens` lacks added to them; `json` itself when there are none. */
export function withConfigTokens(json: Record<string, unknown>, config: Record<string, unknown>): Record<string, unknown> {
  const listed = Array.isArray(json['added_tokens']) ? (json['added_tokens'] as AddedTokenJson[]) : [];
  const contents = new Set(listed.map((token) => token.content));
  const ids = new Set(listed.map((token) => token.id));
  // A token without an id of its own gets one past every id in use: what it counts is one token, whichever.
  let next = Math.max(0, ...ids, ...vocabularyIds(json['model'])) + 1;
  const added: AddedTokenJson[] = [];
  for (const { id, token } of configTokens(config)) {
    if (contents.has(token.content)) continue;
    contents.add(token.content);
    const free = id !== null && !ids.has(id) ? id : next++;
    ids.add(free);
    added.push({ ...token, id: free });
  }
  return added.length === 0 ? json : { ...json, added_tokens: [...listed, ...added] };
}

/** The ids of a model's vocabulary: an object of ids (BPE, WordPiece, WordLevel) or a list (Unigram). */
function vocabularyIds(model: unknown): number[] {
  const vocab = typeof model === 'object' && model !== null ? (model as { vocab?: unknown }).vocab : undefined;
  if (Array.isArray(vocab)) return [vocab.length - 1];
  if (typeof vocab !== 'object' || vocab === null) return [];
  let max = 0;
  for (const id of Object.values(vocab)) if (typeof id === 'number' && id > max) max = id;
  return [max];
}
