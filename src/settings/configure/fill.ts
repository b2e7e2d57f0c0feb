/**
 * A configuration filled from a command's flags, as its settings declare:
 * each setting's value (its flag, else its default) written to its field,
 * and the whole refused when a field is left unset. `tmas run`'s
 * configuration (to-config.ts) and `tmas sim-server`'s (sim-server.config.ts)
 * are filled here.
 */
import { optionName, type FlagsContext, type Setting } from '../setting.ts';

/** The value a setting starts from: its flag, else the demo's value under --demo, else its default. */
function givenOrDefault<C, X extends FlagsContext>(setting: Setting<unknown, unknown, C, X>, context: X): unknown {
  const given = context.flags[optionName(setting)];
  if (given !== undefined) return given;
  return context.demo === true && setting.demo !== undefined ? setting.demo : setting.default;
}

/** Writes one setting's value into the configuration. */
function apply<C, X extends FlagsContext>(config: C, setting: Setting<unknown, unknown, C, X>, context: X): void {
  const value = givenOrDefault(setting, context);
  setting.write?.(config, value, context);
  if (setting.field === undefined) return;
  const resolved = setting.resolve ? setting.resolve(value, context) : value;
  // A declaration without a default or a resolve that makes one is a bug of tmas, not of the user.
  if (resolved === undefined) throw new TypeError(`${setting.flags} leaves ${setting.field.name} unset: declare a default or a resolve`);
  setting.field.set(config, resolved);
}

/** Fills `empty` (its sections present, their fields not) from the settings; `unfilled` names the fields still unset, which it refuses. */
export function fillConfig<C, X extends FlagsContext>(settings: readonly Setting<unknown, unknown, C, X>[], empty: C, context: X, unfilled: (config: C) => string[]): C {
  for (const setting of settings) apply(empty, setting, context);
  const left = unfilled(empty);
  if (left.length > 0) throw new TypeError(`The settings left ${left.join(', ')} unset`);
  return empty;
}
