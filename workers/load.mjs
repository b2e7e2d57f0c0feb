// The entry point of every pool thread: plain JavaScript, so Node can load it in
// any context (the `tmas` bin, `node --import tsx`, vitest), and it is the only
// place that makes the TypeScript worker modules loadable in a thread.
//
// Why not `execArgv: ['--import', 'tsx']`? On Node 20, loader hooks registered in
// the main thread do not reach worker threads, and rewriting a worker's execArgv
// also drops whatever the parent was started with. Registering tsx here, in a
// namespace of its own, works whatever the parent did (tsx or not, vitest or
// not) and never touches the parent's module graph. `tsx/esm/api` resolves from
// this file, so the working directory does not matter.
import { register } from 'tsx/esm/api';

// Piscina tries `require()` on its entry before `import()`. Whether `require()`
// of an ES module works depends on the Node 20 minor (and its flags); a
// top-level await makes it fail everywhere, so every version takes import().
await Promise.resolve();

const tsx = register({ namespace: 'tmas-worker' });

/** @type {Map<string, Promise<Record<string, unknown>>>} */
const modules = new Map();

/**
 * Runs one task: loads (once per thread) the worker module named by the envelope
 * and calls its exported function with the input.
 *
 * @param {{ file: string; name: string; input: unknown }} envelope
 * @returns {Promise<unknown>}
 */
export default async function runTask({ file, name, input }) {
  let loading = modules.get(file);
  if (loading === undefined) {
    loading = tsx.import(file, import.meta.url);
    modules.set(file, loading);
  }
  const task = (await loading)[name];
  if (typeof task !== 'function') {
    throw new TypeError(`${file} has no task named "${name}"`);
  }
  return task(input);
}
