// Module resolution hook (node:module register): `import … from 'tmas'` in a
// plugin (`--agents FILE`) resolves to this tmas's own entry, wherever the
// plugin lives, so a plugin needs no install or link of tmas to import it. The
// entry comes from plugins.ts: the sources' index.ts, or the build's index.js.
//
// `import … from 'xstate'` resolves as Node resolves it, from the module: a
// copy it has of its own (a node_modules beside or above it) is the one it
// asked for, pinned perhaps, and a machine of another copy of XState 5 runs
// under tmas's. Only where it finds none does it resolve from tmas's own
// folder, to the XState tmas runs machines with: a module whose `actor` is a
// machine of its own builds it with XState's `setup`, and outside the
// repository the import failed ('Cannot find module xstate').
let entry = new URL('../index.ts', import.meta.url).href;
let runtime = new URL('../../package.json', import.meta.url).href;

/** @param {{ entry?: unknown, runtime?: unknown } | undefined} data what agents-load.ts passes to register() */
export function initialize(data) {
  if (typeof data?.entry === 'string') entry = data.entry;
  if (typeof data?.runtime === 'string') runtime = data.runtime;
}

/** @param {string} specifier */
export function isRuntimePackage(specifier) {
  return specifier === 'xstate' || specifier.startsWith('xstate/');
}

/**
 * @param {string} specifier
 * @param {import('node:module').ResolveHookContext} context
 * @param {(specifier: string, context?: Partial<import('node:module').ResolveHookContext>) => import('node:module').ResolveFnOutput | Promise<import('node:module').ResolveFnOutput>} nextResolve
 */
export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'tmas') return { url: entry, shortCircuit: true };
  if (isRuntimePackage(specifier)) {
    try {
      return await nextResolve(specifier, context);
    } catch (error) {
      if (/** @type {{ code?: unknown }} */ (error)?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
      return nextResolve(specifier, { ...context, parentURL: runtime });
    }
  }
  return nextResolve(specifier, context);
}
