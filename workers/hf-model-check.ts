/**
 * What a tokenizer.json's model must hold for the library to count with it.
 * `@huggingface/tokenizers` builds whatever it is given: a model of a type it
 * does not know became a BPE or WordPiece model by its fields, or one that
 * counted every word as 1 token; a Unigram model's vocabulary that is no list
 * of pairs counted every text as 1 token, and an `unk_id` past it gave ids of
 * `undefined` that were counted as tokens. Each counted without a word, where
 * Python's tokenizers (the server's) refuses the file or the text. Such a file
 * is refused when loaded, naming what is wrong. A model without a `type` (files
 * saved before tokenizers 0.9: gpt2's, bert-base-uncased's, t5-small's on the
 * Hub) is read by its fields, as both libraries read it.
 */

/** The model types the library counts with. */
const MODEL_TYPES = ['BPE', 'WordPiece', 'WordLevel', 'Unigram'];

/** Why a Unigram model's vocabulary and `unk_id` cannot be counted with, or null. */
function unigramProblem(model: Record<string, unknown>): string | null {
  const vocab = model['vocab'];
  if (!Array.isArray(vocab) || vocab.length === 0) return 'its Unigram vocab is not a list of [piece, score] pairs';
  const bad = vocab.findIndex((entry) => !Array.isArray(entry) || typeof entry[0] !== 'string' || typeof entry[1] !== 'number');
  if (bad !== -1) return `its Unigram vocab's entry ${bad} is ${JSON.stringify(vocab[bad])?.slice(0, 60)}, not a [piece, score] pair`;
  const unk = model['unk_id'];
  if (unk !== undefined && unk !== null && !(Number.isInteger(unk) && (unk as number) >= 0 && (unk as number) < vocab.length)) return `its unk_id ${JSON.stringify(unk)} is no entry of its vocab (${vocab.length} entries)`;
  return null;
}

/** Why a BPE, WordPiece or WordLevel model's vocabulary cannot be counted with, or null. */
function vocabularyProblem(model: Record<string, unknown>): string | null {
  const vocab = model['vocab'];
  if (typeof vocab !== 'object' || vocab === null || Array.isArray(vocab)) return `its ${String(model['type'])} vocab is not an object of tokens and their ids`;
  // An unk_token the vocab lacks is left: Python's tokenizers loads such a file too, and fails only on a text that needs it.
  return null;
}

/**
 * The type the library gives a model without one, by its fields: a list vocab
 * is Unigram's, a vocab with `unk_token` and `continuing_subword_prefix` is
 * BPE's with merges and WordPiece's without; null for any other, which it
 * would count a word as 1 token with.
 */
function inferredType(model: Record<string, unknown>): string | null {
  const vocab = model['vocab'];
  if (Array.isArray(vocab)) return 'Unigram';
  if (typeof vocab !== 'object' || vocab === null || !Object.hasOwn(model, 'unk_token') || !Object.hasOwn(model, 'continuing_subword_prefix')) return null;
  return Object.hasOwn(model, 'merges') ? 'BPE' : 'WordPiece';
}

/** Why `json`'s model cannot be counted with, or null. */
export function modelProblem(json: Record<string, unknown>): string | null {
  const model = json['model'] as Record<string, unknown>;
  const type = model['type'] === undefined ? inferredType(model) : model['type'];
  if (typeof type !== 'string') return `its model has no "type" (one of ${MODEL_TYPES.join(', ')}) nor the fields of one, which the library would count every word with as 1 token; save it again with a current tokenizers release (transformers' save_pretrained)`;
  if (!MODEL_TYPES.includes(type)) return `its model's type ${JSON.stringify(type)} is none the library counts with (${MODEL_TYPES.join(', ')})`;
  return type === 'Unigram' ? unigramProblem(model) : vocabularyProblem(model);
}

/**
 * `json` with its model's type written where the file gives none, as the
 * library infers it: the fast paths that stand in for the library's WordPiece
 * and Unigram (hf-word-piece.ts, hf-unigram.ts) recognise a model by its type.
 */
export function withModelType(json: Record<string, unknown>): Record<string, unknown> {
  const model = json['model'] as Record<string, unknown>;
  if (model['type'] !== undefined) return json;
  return { ...json, model: { ...model, type: inferredType(model) } };
}
