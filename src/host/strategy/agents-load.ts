/**
 * Loading an agents module (`--agents FILE`): its export, whatever the file
 * is (TypeScript or JavaScript, ES module or CommonJS) and however tmas runs
 * (from its build, or from the sources through tsx), with `tmas` resolving to
 * the tmas that loads it. A module that does not finish loading (a top-level
 * `await` that never settles) is named, not waited on for ever: Node ended
 * such a process with exit 13 and not a word.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import Module, { register } from 'node:module';
import { pathToFileURL } from 'node:url';
import { isUserError, UserError } from '../../kernel/errors.ts';
import { thrownText } from '../../kernel/thrown-text.ts';
import { thrownAt } from './thrown-at.ts';
import { FROM_BUILD, modulePath, packagePath } from '../../kernel/package-root.ts';

/** How long a module may take to load (its top-level code, its imports) before the run gives up on it. */
export const AGENTS_LOAD_LIMIT_MS = 60_000;

/** The registration below, once a process: begun by the first module loaded, awaited by any loaded meanwhile. */
let selfImport: Promise<void> | undefined;
let requireHookRegistered = false;

/** The CommonJS resolver, which tsx also goes through for a `.ts` plugin it compiles as CommonJS. */
type CjsResolver = (request: string, ...rest: unknown[]) => string;

/** The resolve hook's own module: a JavaScript file of this tree, the parent tsx is told a plugin is imported from. */
const HOOKS = 'src/host/self-import.hooks.mjs';

/** The tsx namespace the sources' entry is compiled in, for every module loaded in this process. */
const SELF_NAMESPACE = 'tmas-self';

/**
 * The URL `tmas` resolves to. The build's entry is JavaScript, imported as it is. The sources' entry is
 * TypeScript, which each module's scoped import (a namespace of its own, below) would otherwise compile again
 * with everything it imports, as a copy of tmas for that module alone: about half a second of CPU time for
 * every module loaded, paid over and over by a process that loads many (the tests). The URL carries one
 * namespace of its own in the query tsx marks namespaces by (`tsx-namespace`), which a scoped import leaves
 * as it is and one tsx registration compiles, once.
 */
async function entryUrl(entry: string): Promise<string> {
  const url = pathToFileURL(entry).href;
  if (FROM_BUILD) return url;
  (await import('tsx/esm/api')).register({ namespace: SELF_NAMESPACE });
  return `${url}?tsx-namespace=${SELF_NAMESPACE}`;
}

/**
 * Lets a plugin `import { defineAgents } from 'tmas'` (and `import { setup } from 'xstate'`, for a machine
 * of its own) from anywhere: the name resolves to this checkout's entry (and, where the module has none of its own, its XState), for ES modules (a resolve hook) and for
 * the CommonJS that tsx makes of a `.ts` file outside an ESM package (Node 20
 * has no public hook for `require`, so its resolver is wrapped, for this one name).
 */
function resolveTmasToSelf(): Promise<void> {
  selfImport ??= registerSelfImport();
  return selfImport;
}

async function registerSelfImport(): Promise<void> {
  // The entry of the tree this runs from: the sources, or the build (src/build.mjs), never a mix of both.
  const entry = modulePath('src/index.ts');
  // XState too, from tmas's own folder where the module has no copy of its own (self-import.hooks.mjs says why).
  const runtime = packagePath('package.json');
  register(pathToFileURL(packagePath(HOOKS)), { data: { entry: await entryUrl(entry), runtime: pathToFileURL(runtime).href } });
  const cjs = Module as unknown as { _resolveFilename: CjsResolver; _nodeModulePaths: (from: string) => string[] };
  const resolveFilename = cjs._resolveFilename;
  // Resolved as if required by tmas's package.json, through the resolver itself (createRequire's resolve would come back here).
  const runtimeParent = { id: runtime, filename: runtime, paths: cjs._nodeModulePaths(path.dirname(runtime)) };
  cjs._resolveFilename = (request, ...rest) => {
    if (request === 'tmas') return entry;
    if (request !== 'xstate' && !request.startsWith('xstate/')) return resolveFilename.call(cjs, request, ...rest);
    try {
      return resolveFilename.call(cjs, request, ...rest);
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'MODULE_NOT_FOUND') throw error;
      return resolveFilename.call(cjs, request, runtimeParent, false);
    }
  };
}

/**
 * The module's namespace. A TypeScript file goes through tsx's scoped import: a plain import() of a .ts
 * file outside an ESM package is compiled as CommonJS, which cannot require tmas's ES modules while the
 * CLI module is still evaluating. So does a JavaScript file when tmas runs from its sources: the bin has
 * registered tsx for every import, and under it a .js file of ES syntax outside an ESM package failed
 * ("Cannot require() ES Module … in a cycle"), a CommonJS one could not require tmas's TypeScript, and
 * my-agents.js was loaded as the my-agents.ts beside it. tsx is told the import of a JavaScript module comes
 * from a JavaScript file, and reads no tsconfig for it, so that it loads the file named and not a TypeScript
 * file of the same name.
 */
async function importModule(file: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(file).href;
  const typescript = /\.[cm]?tsx?$/.test(file);
  // tsx is loaded only here: every run would otherwise pay its load time without a plugin to compile.
  // From the sources, `require('tmas')` of a CommonJS module reaches the TypeScript entry: tsx's require hook reads it.
  if (!FROM_BUILD && !typescript && !requireHookRegistered) {
    (await import('tsx/cjs/api')).register();
    // Once a process: each registration wraps the require hook again, and every later require went through all of them.
    requireHookRegistered = true;
  }
  if (typescript || !FROM_BUILD) {
    const parentURL = pathToFileURL(packagePath(HOOKS)).href;
    // A JavaScript module reads no tsconfig: one with allowJs (tmas's own, the working directory's) had tsx try the .ts first.
    return (await (await import('tsx/esm/api')).tsImport(url, typescript ? parentURL : { parentURL, tsconfig: false })) as Record<string, unknown>;
  }
  return (await import(url)) as Record<string, unknown>;
}

/** `loading`, or a rejection after `limitMs`; the timer also keeps the process up while a module awaits what never settles. */
function withinLimit<T>(loading: Promise<T>, limitMs: number, where: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const seconds = limitMs / 1000;
      reject(new UserError('TMAS_AGENTS', `${where} has not finished loading after ${seconds} s: its top-level code (or a module it imports) awaits something that does not settle. Fix the module, or run without --agents.`));
    }, limitMs);
  });
  return Promise.race([loading, limit]).finally(() => clearTimeout(timer));
}

/** What a module exports for tmas: its default export, or its `agents` export, unwrapped from tsx's CommonJS. */
function exportedAgents(module: Record<string, unknown>): unknown {
  const agents = module.default ?? module.agents;
  // A module that tsx compiled as CommonJS arrives wrapped once more: { default: module.exports }.
  if (typeof agents === 'object' && agents !== null && '__esModule' in agents) {
    const inner = agents as { default?: unknown; agents?: unknown };
    return inner.default ?? inner.agents;
  }
  return agents;
}

/** Loads a plugin module (TypeScript or JavaScript) and returns what it exports for tmas: an object, else TMAS_AGENTS. */
export async function loadAgentsModule(file: string, options: { limitMs?: number } = {}): Promise<object> {
  const where = `The agents module ${file} (--agents)`;
  await stat(file).catch((error: NodeJS.ErrnoException) => {
    throw new UserError('TMAS_AGENTS', `${where} cannot be read: ${error.code ?? error.message}. Give the path of a .ts or .js module.`, { cause: error });
  });
  await resolveTmasToSelf();
  let module: Record<string, unknown>;
  try {
    module = await withinLimit(importModule(file), options.limitMs ?? AGENTS_LOAD_LIMIT_MS, where);
  } catch (error) {
    if (isUserError(error)) throw error;
    throw new UserError('TMAS_AGENTS', `${where} failed to load: ${thrownText(error)}${thrownAt(error)}. Fix the module, or run without --agents.`, { cause: error });
  }
  const agents = exportedAgents(module);
  if (typeof agents !== 'object' || agents === null) {
    throw new UserError('TMAS_AGENTS', `${where} exports no agents: export default defineAgents({...}) (or a named export \`agents\`).`);
  }
  return agents;
}
