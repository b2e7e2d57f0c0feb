/**
 * What an unknown flag was likely meant to be, beyond commander's own
 * suggestion (a flag a few letters away): the flags a user types
 * from other tools are words of ours, not misspellings of them (`--model` for
 * `--model-name`, `--input` and `--output` for `--input-file` and
 * `--output-file`, `--iterations` for `--max-iterations`, `--judge-url` for
 * `--judge-base-url`), and commander said only `unknown option '--model'`.
 */
import { Command } from 'commander';

/** How many flags a suggestion names at most: more reads as a list to search, not a suggestion. */
const MAX_SUGGESTED = 3;

/** The words of a flag: `--judge-base-url` → judge, base, url; `--proof=false` → proof (its value left out). */
function wordsOf(flag: string): string[] {
  return flag.replace(/^-+/, '').replace(/=.*$/, '').toLowerCase().split(/[-_]/).filter((word) => word !== '');
}

/** Whether a flag's word is the word typed, or starts with it when it is long enough to mean something (`temp`: temperature). */
function wordMatches(typed: string, word: string): boolean {
  return word === typed || (typed.length >= 3 && word.startsWith(typed));
}

/** Whether `words` appear in `within` in the same order (not necessarily next to each other). */
function inOrder(words: readonly string[], within: readonly string[]): boolean {
  let at = 0;
  for (const word of within) if (at < words.length && wordMatches(words[at] as string, word)) at++;
  return at === words.length;
}

/**
 * The flags of `candidates` that hold every word of `typed`, in order: those that start with
 * them first, then the shortest; empty when there are none or too many to help.
 */
export function flagsWithWordsOf(typed: string, candidates: readonly string[]): string[] {
  const words = wordsOf(typed);
  if (words.length === 0) return [];
  const starts = (flag: string) => wordMatches(words[0] as string, wordsOf(flag)[0] ?? '');
  const matching = candidates.filter((flag) => inOrder(words, wordsOf(flag)));
  const ranked = matching.sort((a, b) => Number(starts(b)) - Number(starts(a)) || wordsOf(a).length - wordsOf(b).length);
  const first = ranked.filter((flag) => starts(flag));
  const shown = first.length > 0 ? first : ranked;
  return shown.length > MAX_SUGGESTED ? [] : shown;
}

/** `(Did you mean --a?)`, `(Did you mean --a or --b?)`, as commander words its own suggestion. */
function didYouMean(flags: readonly string[]): string {
  const named = flags.length === 1 ? flags[0] : `${flags.slice(0, -1).join(', ')} or ${flags.at(-1)}`;
  return `\n(Did you mean ${named}?)`;
}

/** A commander command whose unknown-option error suggests the flags that hold the words typed, where commander suggests none. */
export class SuggestingCommand extends Command {
  override createCommand(name?: string): Command {
    return new SuggestingCommand(name);
  }

  override error(message: string, errorOptions?: { code?: string; exitCode?: number }): never {
    const unknown = errorOptions?.code === 'commander.unknownOption' ? /unknown option '([^']+)'/.exec(message)?.[1] : undefined;
    if (unknown === undefined) return super.error(message, errorOptions);
    const flags = this.options.filter((option) => !option.hidden && option.long !== undefined).map((option) => option.long as string);
    const suggested = flagsWithWordsOf(unknown, flags);
    // Ours, where it finds one, replaces commander's, a flag a few letters away (--temp: --demo, --help).
    if (suggested.length === 0) return super.error(message, errorOptions);
    return super.error(`${message.replace(/\n\(Did you mean [^)]*\)$/, '')}${didYouMean(suggested)}`, errorOptions);
  }
}
