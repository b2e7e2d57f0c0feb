// Module resolution hook (node:module register): `import … from 'tmas'` in a
// plugin (`--agents FILE`) resolves to this tmas's own entry, wherever the
// plugin lives, so a plugin needs no install or link of tmas to import it. The
// entry comes from plugins.ts: the sources' index.ts, or the build's index.js.
//
// So does `import … from 'xstate'`: to the XState tmas itself runs machines
// with, resolved from tmas's own folder. A module whose `actor` is a machine
// of its own builds it with XState's `setup`; outside the repository the
// import failed ('Cannot find module xstate'), and a copy the user installed
// beside the module would be another instance than the one that runs it.
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
  if (isRuntimePackage(specifier)) return nextResolve(specifier, { ...context, parentURL: runtime });
  return nextResolve(specifier, context);
}
