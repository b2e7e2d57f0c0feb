// Module resolution hook (node:module register): `import … from 'tmas'` in a
// plugin (`--agents FILE`) resolves to this tmas's own entry, wherever the
// plugin lives, so a plugin needs no install or link of tmas to import it. The
// entry comes from plugins.ts: the sources' index.ts, or the build's index.js.
let entry = new URL('../index.ts', import.meta.url).href;

export function initialize(data) {
  if (typeof data?.entry === 'string') entry = data.entry;
}

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'tmas') return { url: entry, shortCircuit: true };
  return nextResolve(specifier, context);
}
