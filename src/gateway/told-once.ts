/** What the gateway tells the user once per endpoint (a redirect, a filtered reply, a keep-alive it skips): told by its key the first time alone. */

/** Tells what `key` names, the first time `told` meets it only. */
export function tellOnce(told: Set<string>, key: string, tell: () => void): void {
  if (told.has(key)) return;
  told.add(key);
  tell();
}
