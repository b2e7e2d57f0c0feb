/**
 * The letters of a text of mathematics: what stands for a number or a
 * variable, the letters of commands (\frac, \pi, \sqrt) aside. Rules that ask
 * which letters a value, a clause or a condition speaks of read them here.
 */

/** A command, or a run of letters outside one. */
const COMMAND_OR_LETTERS = /\\[a-zA-Z]+|[a-zA-Z]+/g;

/** The Latin letters of `tex`, in order, commands aside: "2k\pi + a_1" gives k, a. */
export function mathLetters(tex: string): string[] {
  return tex.replace(/\\[a-zA-Z]+/g, ' ').match(/[a-zA-Z]/g) ?? [];
}

/** `tex` with the letter `from` written `to` where it stands alone: not in a command, a word or a product of letters ("kn"). */
export function renameMathLetter(tex: string, from: string, to: string): string {
  return tex.replace(COMMAND_OR_LETTERS, (run) => (run === from ? to : run));
}
