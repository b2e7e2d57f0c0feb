/**
 * The part of cli-progress 3 (which ships no types) that the live progress
 * display uses: a MultiBar of bars with string payloads.
 */
declare module 'cli-progress' {
  /** Options shared by the multibar and its bars. */
  export interface Options {
    format?: string;
    stream?: NodeJS.WritableStream;
    barsize?: number;
    hideCursor?: boolean;
    clearOnComplete?: boolean;
    stopOnComplete?: boolean;
    autopadding?: boolean;
    gracefulExit?: boolean;
    forceRedraw?: boolean;
    linewrap?: boolean;
    emptyOnZero?: boolean;
    /** Milliseconds between redraws on a terminal. */
    fps?: number;
    barCompleteChar?: string;
    barIncompleteChar?: string;
  }

  /** One bar of a multibar. */
  export interface Bar {
    update(value: number, payload?: Record<string, string | number>): void;
    setTotal(total: number): void;
  }

  /** Several bars redrawn together on one stream. */
  export class MultiBar {
    constructor(options: Options, preset?: unknown);
    create(total: number, start: number, payload?: Record<string, string | number>, options?: Options): Bar;
    /** Prints a line above the bars. */
    log(text: string): void;
    stop(): void;
  }

  const progress: { MultiBar: typeof MultiBar };
  export default progress;
}
