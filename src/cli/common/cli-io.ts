/** What commands write to, and how commands above the CLI join the program. */
import type { Command } from 'commander';

/** Where commands write: stdout for results, stderr for everything said along the way. */
export interface CliIo {
  stdout(line: string): void;
  stderr(line: string): void;
}

/** Declares more commands on the program: those that stand above the CLI (`tmas bench`), added by the executable's entry, src/main.ts. */
export type DefineCommands = (program: Command, io: CliIo) => void;
