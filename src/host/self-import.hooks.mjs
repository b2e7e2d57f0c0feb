// Module resolution hook (node:module register): `import … from 'tmas'` in a
// plugin (`--agents FILE`) resolves to this tmas's own entry, wherever the
// plugin lives, so a plugin needs no install or link of tmas to import it.
const ENTRY = new URL('../index.ts', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'tmas') return { url: ENTRY, shortCircuit: true };
  return nextResolve(specifier, context);
}
