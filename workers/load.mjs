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
import { setPriority } from 'node:os';

// Pool threads run below the main thread's priority. The main thread is the
// event loop: every reply, message and write waits on it, while a count or a
// trim can finish a moment later without anyone noticing. On a machine with
// fewer cores than busy threads the kernel otherwise shares a core equally
// between them, and the event-loop lag benchmark's p99 missed its target.
// Only on Linux, where a priority set from a thread applies to
// that thread alone (elsewhere it would lower the whole process).
const POOL_THREAD_NICENESS = 10;
if (process.platform === 'linux') {
  try {
    setPriority(POOL_THREAD_NICENESS);
  } catch {
    // A container may forbid it: the pool then competes more with the event loop, nothing else.
  }
}

// Piscina tries `require()` on its entry before `import()`. Whether `require()`
// of an ES module works depends on the Node 20 minor (and its flags); a
// top-level await makes it fail everywhere, so every version takes import().
await Promise.resolve();

/**
 * tsx, loaded and registered by the first task whose module is TypeScript: a
 * thread that runs only plain-JS modules (the build's, src/build.mjs, or
 * json.worker.mjs) never loads tsx nor starts its loader thread.
 *
 * @type {Promise<import('tsx/esm/api').NamespacedUnregister> | null}
 */
let tsx = null;

/**
 * Imports a worker module: TypeScript through tsx, JavaScript as it is.
 *
 * @param {string} file
 * @returns {Promise<Record<string, unknown>>}
 */
async function importModule(file) {
  if (!file.endsWith('.ts')) return import(file);
  tsx ??= import('tsx/esm/api').then(({ register }) => register({ namespace: 'tmas-worker' }));
  return (await tsx).import(file, import.meta.url);
}

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
    loading = importModule(file);
    modules.set(file, loading);
  }
  const task = (await loading)[name];
  if (typeof task !== 'function') {
    throw new TypeError(`${file} has no task named "${name}"`);
  }
  return task(input);
}
