/**
 * A simulator's request log (--request-log, one JSON line a request) read as
 * it grows, for the tests that stop or kill a run once it has sent so many
 * calls: each read parses only the whole lines appended since the last one.
 * Such a test polls every 25 ms; re-reading and parsing the whole log at each
 * poll, over thousands of lines, was most of its own CPU time.
 */
import { existsSync } from 'node:fs';
import { open } from 'node:fs/promises';

/** A reader of the log at `file`: each call resolves to every whole line so far, parsed (the same array, grown). */
export function requestLogReader<T>(file: string): () => Promise<readonly T[]> {
  const seen: T[] = [];
  let offset = 0;
  return async () => {
    if (!existsSync(file)) return seen;
    const handle = await open(file, 'r');
    try {
      const { size } = await handle.stat();
      if (size <= offset) return seen;
      const chunk = Buffer.alloc(size - offset);
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, offset);
      // The simulator may be mid-way through a line: only whole lines (ending in a newline) are read; the rest waits.
      const end = chunk.subarray(0, bytesRead).lastIndexOf(0x0a);
      if (end < 0) return seen;
      offset += end + 1;
      for (const line of chunk.subarray(0, end).toString('utf8').split('\n')) if (line) seen.push(JSON.parse(line) as T);
      return seen;
    } finally {
      await handle.close();
    }
  };
}
