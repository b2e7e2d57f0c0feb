/** Where commands write: stdout for results, stderr for everything said along the way. */
export interface CliIo {
  stdout(line: string): void;
  stderr(line: string): void;
}
