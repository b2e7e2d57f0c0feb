/**
 * Whether a file can be a Hugging Face tokenizer.json, told from its kind,
 * its size and its first bytes before it is read: a `--tokenizer-path` that
 * names a model's weights (a GGUF file of gigabytes), a SentencePiece
 * `tokenizer.model` or a named pipe would otherwise be read whole by every
 * pool thread (gigabytes of memory each, or a read that never ends) before
 * JSON.parse said something that names neither what the file is nor what to
 * give instead. And the text itself, which must be UTF-8: read leniently, a
 * tokenizer.json saved in another encoding loads with its vocabulary's
 * non-ASCII tokens turned into replacement characters, and counts wrong
 * without a word.
 */
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The most bytes a tokenizer file may hold: several times the largest real
 * tokenizer.json (a few tens of MB for vocabularies of 250k tokens), far
 * below a model's weights, and small enough that each pool thread may parse it.
 */
export const MAX_TOKENIZER_BYTES = 128 * 2 ** 20;

/** What to give instead, said by every refusal. */
export const GIVE_INSTEAD = "give the Hugging Face model directory that holds the model's tokenizer.json, or that file";

/** The first bytes of a file, at most `count`. */
function headOf(file: string, count: number): Buffer {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(count);
    return head.subarray(0, readSync(fd, head, 0, count, 0));
  } finally {
    closeSync(fd);
  }
}

/** What a file that is not JSON looks like, from its name and first bytes. */
function notJson(file: string, head: Buffer): string {
  if (head.subarray(0, 4).toString('latin1') === 'GGUF') return `${file} is a GGUF model file, whose tokenizer tmas does not read`;
  // A SentencePiece model is a protocol buffer: its first field, the pieces, is tagged 0x0a.
  if (path.extname(file) === '.model' || head[0] === 0x0a) return `${file} is not JSON: it looks like a SentencePiece model (tokenizer.model), which tmas does not read`;
  return `${file} is not JSON text (a tokenizer.json begins with "{")`;
}

/**
 * Why `file` cannot be read as a tokenizer's JSON (tokenizer.json, or with
 * `json: false` any file read whole beside it), or null. Reads at most a few
 * bytes of it.
 */
export function tokenizerFileProblem(file: string, options: { json: boolean } = { json: true }): string | null {
  const stat = statSync(file);
  if (stat.isDirectory()) return `${file} is a directory`;
  if (!stat.isFile()) return `${file} is not a regular file (a pipe or a device is never read to its end)`;
  if (stat.size > MAX_TOKENIZER_BYTES) {
    const head = headOf(file, 16);
    const what = head.subarray(0, 4).toString('latin1') === 'GGUF' ? 'a GGUF model file' : 'more than any tokenizer.json holds (a model\'s weights?)';
    return `${file} is ${(stat.size / 2 ** 20).toFixed(0)} MiB, ${what}; tmas reads at most ${MAX_TOKENIZER_BYTES / 2 ** 20} MiB`;
  }
  if (!options.json) return null;
  const head = headOf(file, 64);
  // A byte-order mark, then whitespace, may come before the object.
  const start = head.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf])) ? 3 : 0;
  const first = head.subarray(start).toString('latin1').trimStart()[0];
  // Only whitespace so far in a longer file: the parse will tell.
  if (first === '{' || (first === undefined && stat.size > head.length)) return null;
  return notJson(file, head);
}

/** The text of a tokenizer file, which must be UTF-8 (a leading byte-order mark is dropped); throws naming the file otherwise. */
export function readTokenizerText(file: string): string {
  const problem = tokenizerFileProblem(file, { json: false });
  if (problem !== null) throw new SyntaxError(problem);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(file));
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    throw new SyntaxError(`${file} is not UTF-8 text: a Hugging Face tokenizer file always is (was it saved in another encoding?)`, { cause: error });
  }
}

/**
 * What a directory without a tokenizer.json holds in its stead, said when it
 * is refused: a SentencePiece model, or GGUF weights, whose tokenizers tmas
 * does not read. Empty when it holds neither (or is no directory).
 */
export function tokenizerInstead(dir: string): string {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return '';
  }
  const gguf = names.find((name) => name.endsWith('.gguf'));
  if (names.includes('tokenizer.model')) return ` It holds tokenizer.model, a SentencePiece model, which tmas does not read: transformers writes the tokenizer.json of a model it loads (AutoTokenizer.from_pretrained(dir).save_pretrained(dir)).`;
  if (gguf !== undefined) return ` It holds ${gguf}, a GGUF model file, whose tokenizer tmas does not read: the model's Hugging Face repository has its tokenizer.json.`;
  return '';
}
