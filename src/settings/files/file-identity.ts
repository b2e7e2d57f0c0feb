/**
 * A file a run reads (a tokenizer, an agents module), as a resume compares
 * it: by its digest wherever it lies, or by its path in runs made before
 * digests. Where it lies now changes no call (a run moved to another machine).
 */
import type { RunConfig } from '../config.ts';
import type { ResumeAccess } from '../setting.ts';

/** The fields that name a file and its digest. */
interface FileFields {
  path(config: RunConfig): string | null;
  digest(config: RunConfig): string | null;
  set(config: RunConfig, path: string | null, digest: string | null): void;
}

/** The agents module's fields (`loop.agents`, `loop.agentsDigest`). */
export const AGENTS_FILE: FileFields = {
  path: (c) => c.loop.agents,
  digest: (c) => c.loop.agentsDigest,
  set: (c, path, digest) => void Object.assign(c.loop, { agents: path, agentsDigest: digest }),
};

/** The tokenizer's fields (`context.tokenizer`, `context.tokenizerDigest`); the tokenizer always has a name. */
export const TOKENIZER_FILE: FileFields = {
  path: (c) => c.context.tokenizer,
  digest: (c) => c.context.tokenizerDigest,
  set: (c, path, digest) => void Object.assign(c.context, { tokenizer: path ?? c.context.tokenizer, tokenizerDigest: digest }),
};

/** A resume's access to the file's identity: its digest, else its path; copying it moves the path along. */
export function fileIdentity(fields: FileFields): ResumeAccess {
  return {
    read: (c) => fields.digest(c) ?? fields.path(c),
    write: (t, s) => fields.set(t, fields.path(s), fields.digest(s)),
  };
}

/** A resume's access to where the file lies now. */
export function filePlace(fields: FileFields): ResumeAccess {
  return {
    read: (c) => fields.path(c),
    write: (t, s) => fields.set(t, fields.path(s), fields.digest(t)),
  };
}

/**
 * A run made before digests names its file by path alone, and is compared by that path. A command
 * that gives the same path again keeps it so; any other file (and a first one, where the run had
 * none) is recorded with its digest, which later resumes check.
 */
export function keepPathIdentity(fields: FileFields, stored: RunConfig, requested: RunConfig): void {
  const storedPath = fields.path(stored);
  if (storedPath !== null && fields.digest(stored) === null && fields.path(requested) === storedPath) fields.set(requested, storedPath, null);
}
