/**
 * Says when a flag is given more than once. Commander keeps the last value of
 * a repeated flag and drops the earlier ones without a word: a wrapper
 * script's defaults followed by the user's own (`tmas run $DEFAULTS
 * --n-candidates 16`) is a common and fair use of that rule, so it stands,
 * but a line edited by appending, where the user may still read the first
 * value, is told which one runs. A flag whose parser takes the previous value
 * (`--base-url`, `--prompt`: a repeat adds to a list) or that takes several
 * values is meant to repeat and is left alone.
 */
import type { Command, Option } from 'commander';

/** Whether a repeat of `option` adds to its value rather than replaces it. */
function repeatable(option: Option): boolean {
  // An argument parser of two parameters folds each value into the previous ones (commander passes the value so far).
  return option.variadic || (option.parseArg !== undefined && option.parseArg.length >= 2);
}

/** Makes every command of `program` warn through `say`, once per flag, when a flag is given again (a flag and its negation count as one). */
export function warnRepeatedFlags(program: Command, say: (line: string) => void): void {
  for (const command of [program, ...program.commands]) {
    const given = new Map<string, string>();
    const warned = new Set<string>();
    for (const option of command.options) {
      if (repeatable(option)) continue;
      const flag = option.long ?? option.short ?? option.name();
      const attribute = option.attributeName();
      command.on(`option:${option.name()}`, () => {
        const first = given.get(attribute);
        given.set(attribute, flag);
        if (first === undefined || warned.has(attribute)) return;
        warned.add(attribute);
        // Values are not echoed: the flag may carry a key.
        say(`tmas: warning: ${first === flag ? `${flag} is given more than once` : `${first} and ${flag} are both given`}: the last one given is used.`);
      });
    }
  }
}
