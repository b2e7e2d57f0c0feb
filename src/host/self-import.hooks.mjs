// Module resolution hook (node:module register): `import … from 'tmas'` in a
// plugin (`--agents FILE`) resolves to this tmas's own entry, wherever the
// plugin lives, so a plugin needs no install or link of tmas to import it. The
// entry comes from plugins.ts: the sources' index.ts, or the build's index.js.
let entry = new URL('../index.ts', import.meta.url).href;

/** @param {{ entry?: unknown } | undefined} data what plugins.ts passes to register() */
export function initialize(data) {
  if (typeof data?.entry === 'string') entry = data.entry;
}

/**
 * @param {string} specifier
 * @param {import('node:module').ResolveHookContext} context
 * @param {(specifier: string, context?: Partial<import('node:module').ResolveHookContext>) => import('node:module').ResolveFnOutput | Promise<import('node:module').ResolveFnOutput>} nextResolve
 */
export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'tmas') return { url: entry, shortCircuit: true };
  return nextResolve(specifier, context);
}
