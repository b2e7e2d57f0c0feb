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
import type { FitTask, TemplateValue } from '../../workers/tasks.ts';

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

/** A template's variables with every string by its digest. */
function digested(value: TemplateValue): TemplateValue {
  if (typeof value === 'string') return textDigest(value);
  if (Array.isArray(value)) return value.map(digested);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, digested(item)]));
}

/** A part's identity: `drop`, `id` and a token bound shape the output too; so do a template part's source (by its SHA-256), its values and its drops. */
function partKey(part: FitTask['parts'][number]): unknown[] {
  // How a template renders is named only when not trimmed, the built-in templates' mode, so that their calls keep the keys they had.
  return 'template' in part
    ? [
        part.id,
        textDigest(part.template),
        digested(part.variables),
        (part.drops ?? []).map((drop) => [drop.id, drop.drop, drop.path]),
        ...(part.whitespace === undefined || part.whitespace === 'trimmed' ? [] : [part.whitespace]),
      ]
    : [part.id, part.drop ?? null, textDigest(part.text), ...(part.maxTokens === undefined ? [] : [part.maxTokens])];
}

/**
 * The part of a task's key its prompt makes (its system message and parts),
 * the dear part: a call's key is made for its journal and for the pool, and
 * again for each window it is fitted into, from one prompt (host/calls/llm-call.ts).
 */
export function promptIdentity(prompt: Pick<FitTask, 'system' | 'parts'>): string {
  // A text system message enters by its digest, as it always has; a templated one (RSE's bank) as a template part.
  const system = typeof prompt.system === 'string' ? textDigest(prompt.system) : partKey(prompt.system);
  return `${JSON.stringify(system)},${JSON.stringify(prompt.parts.map(partKey))}`;
}

/**
 * A string that equals another task's exactly when their outputs must be
 * equal: the JSON of [encoding, budget, system, parts], `identity` being the
 * task's promptIdentity when the caller has it.
 */
export function fitKey(task: FitTask, identity = promptIdentity(task)): string {
  return `[${JSON.stringify(task.encoding)},${JSON.stringify(task.budget)},${identity}]`;
}
