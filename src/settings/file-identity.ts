/**
 * A file a run reads (a tokenizer, an agents module), as a resume compares
 * it: by its digest wherever it lies, or by its path in runs made before
 * digests. Where it lies now changes no call (a run moved to another machine).
 */
import type { RunConfig } from '../host/config.ts';
import type { ResumeAccess } from './setting.ts';

/** A resume's access to the file's identity: its digest, else its path; copying it moves the path along. */
export function fileIdentity(pathKey: 'tokenizer' | 'agents', digestKey: 'tokenizerDigest' | 'agentsDigest'): ResumeAccess {
  return {
    read: (c) => c[digestKey] ?? c[pathKey],
    write: (t, s) => {
      filePlace(pathKey).write(t, s);
      if (s[digestKey] === undefined) delete t[digestKey];
      else t[digestKey] = s[digestKey];
    },
  };
}

/** A resume's access to where the file lies now. */
export function filePlace(pathKey: 'tokenizer' | 'agents'): ResumeAccess {
  return {
    read: (c) => c[pathKey],
    write: (t: RunConfig, s: RunConfig) => void Object.assign(t, { [pathKey]: s[pathKey] }),
  };
}
