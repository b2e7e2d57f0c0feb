/**
 * The identity of a `fit` task: two tasks with the same key have the same
 * output, so the pool client can answer the second from the first, and the
 * journal keys a call by it (with the sampling parameters).
 *
 * Texts enter by digest, so a key stays short whatever the prompt holds. The
 * digest of each text is kept while the text recurs: the M verification
 * prompts of a candidate all carry its solution, which may be 130,000 tokens,
 * and serialising and hashing it per prompt took 16% of the main thread.
 */
import { createHash } from 'node:crypto';
import { SizedLru } from './sized-lru.ts';
import type { FitTask } from '../../workers/tasks.ts';

/**
 * Characters of text whose digests are kept; the least recently used go first
 * when it would hold more. The cache holds the texts themselves (its keys), so
 * it is sized for the recurrences that come close together (a candidate's M
 * verification prompts and its summary's, an iteration's exploit prompts),
 * not for a whole iteration of every problem's texts.
 */
const DIGEST_CACHE_CHARS = 4 * 2 ** 20;

const digests = new SizedLru<string, string>(DIGEST_CACHE_CHARS);

/** A SHA-256 digest of `text` (128 bits, base64url). */
export function textDigest(text: string): string {
  let digest = digests.get(text);
  if (digest === undefined) {
    digest = createHash('sha256').update(text).digest('base64url').slice(0, 22);
    digests.set(text, digest, text.length);
  }
  return digest;
}

/**
 * A template's variables as JSON, every string by its digest: what
 * JSON.stringify gives of a copy of them with each string replaced by its
 * digest, written at once rather than through the copy (a prompt's variables
 * are walked for every call). Undefined where JSON.stringify gives undefined:
 * a field so valued is left out of its object, an item so valued is null.
 */
function digestedJson(value: unknown): string | undefined {
  if (typeof value === 'string') return `"${textDigest(value)}"`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) {
    let json = '[';
    for (let i = 0; i < value.length; i++) json += `${i === 0 ? '' : ','}${digestedJson(value[i]) ?? 'null'}`;
    return `${json}]`;
  }
  let json = '';
  for (const key of Object.keys(value)) {
    const item = digestedJson((value as Record<string, unknown>)[key]);
    if (item !== undefined) json += `${json === '' ? '' : ','}${JSON.stringify(key)}:${item}`;
  }
  return `{${json}}`;
}

/**
 * A part's identity as JSON: `drop`, `id` and a token bound shape the output too; so do a template part's
 * source (by its SHA-256), its values and its drops. The JSON is that of the list they make, as keys always had it.
 * A template part's `shortens` are not in it: they change only a prompt that would not fit otherwise, which was
 * never sent, so every call journaled before they existed keeps its key.
 */
function partJson(part: FitTask['parts'][number]): string {
  if (!('template' in part)) return JSON.stringify([part.id, part.drop ?? null, textDigest(part.text), ...(part.maxTokens === undefined ? [] : [part.maxTokens])]);
  const drops = JSON.stringify((part.drops ?? []).map((drop) => [drop.id, drop.drop, drop.path]));
  // How a template renders is named only when not trimmed, the built-in templates' mode, so that their calls keep the keys they had.
  const whitespace = part.whitespace === undefined || part.whitespace === 'trimmed' ? '' : `,${JSON.stringify(part.whitespace)}`;
  return `[${JSON.stringify(part.id) ?? 'null'},"${textDigest(part.template)}",${digestedJson(part.variables) ?? 'null'},${drops}${whitespace}]`;
}

/**
 * The part of a task's key its prompt makes (its system message and parts),
 * the dear part: a call's key is made for its journal and for the pool, and
 * again for each window it is fitted into, from one prompt (host/calls/llm-call.ts).
 */
export function promptIdentity(prompt: Pick<FitTask, 'system' | 'parts'>): string {
  // A text system message enters by its digest, as it always has; a templated one (RSE's bank) as a template part.
  const system = typeof prompt.system === 'string' ? `"${textDigest(prompt.system)}"` : partJson(prompt.system);
  return `${system},[${prompt.parts.map(partJson).join(',')}]`;
}

/**
 * A string that equals another task's exactly when their outputs must be
 * equal: the JSON of [encoding, budget, system, parts], `identity` being the
 * task's promptIdentity when the caller has it.
 */
export function fitKey(task: FitTask, identity = promptIdentity(task)): string {
  return `[${JSON.stringify(task.encoding)},${JSON.stringify(task.budget)},${identity}]`;
}
