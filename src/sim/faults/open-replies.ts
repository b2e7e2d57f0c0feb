/**
 * The replies the simulator keeps open: those sleeping out their drawn
 * latency and those it holds without an answer (a `hang` or `stall` fault)
 * until the client gives up. Closing the server wakes the sleepers (their
 * replies are not sent) and drops the held responses, so that close never
 * waits on a client.
 */
import type { ServerResponse } from 'node:http';

/** The open replies of one server. */
export class OpenReplies {
  private readonly held = new Set<ServerResponse>();
  private readonly sleepers = new Set<{ timer: NodeJS.Timeout; wake: (ok: boolean) => void }>();
  private closing = false;

  // Arrow functions: the chat handler hands them on as callbacks (to streams and paced replies).
  /** Resolves true after `ms`, or false as soon as the server closes. */
  readonly sleep = (ms: number): Promise<boolean> => {
    if (this.closing) return Promise.resolve(false);
    return new Promise((resolve) => {
      const sleeper = {
        timer: setTimeout(() => {
          this.sleepers.delete(sleeper);
          resolve(true);
        }, ms),
        wake: resolve,
      };
      this.sleepers.add(sleeper);
    });
  };

  /** Keeps a response open until the client gives up or the server closes. */
  readonly hold = (res: ServerResponse): void => {
    this.held.add(res);
    res.on('close', () => this.held.delete(res));
  };

  /** Wakes every sleeper with false and destroys every held response; sleeps from now on end at once. */
  close(): void {
    this.closing = true;
    for (const sleeper of this.sleepers) {
      clearTimeout(sleeper.timer);
      sleeper.wake(false);
    }
    this.sleepers.clear();
    for (const res of this.held) res.destroy();
  }
}
