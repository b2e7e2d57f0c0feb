/**
 * `tmas view DIR [DIR...]`: serves the read-only web viewer of finished (or
 * stopped) runs on loopback; and `tmas run --view`: the same viewer for the
 * run in progress, served by the running process, which alone may open its
 * store.
 */
import { spawn } from 'node:child_process';
import type { LiveRunParts } from '../host/run-evaluation.ts';
import { openRun } from '../analysis/open-run.ts';
import { startViewer, type ViewerServer } from '../viewer/server.ts';
import { finishedRun, liveRun, type ViewedRun } from '../viewer/viewed-run.ts';

/** Opens every run directory (each store is locked while it is viewed) and starts the viewer. */
export async function runViewCommand(dirs: string[], options: { port: number; host?: string }): Promise<ViewerServer> {
  const runs: ViewedRun[] = [];
  try {
    for (const dir of dirs) {
      const { store, manifest } = await openRun(dir);
      runs.push(finishedRun(dir, store, manifest));
    }
    const server = await startViewer(runs, options);
    return {
      url: server.url,
      close: async () => {
        await server.close();
        for (const run of runs) await run.store.close();
      },
    };
  } catch (error) {
    for (const run of runs) await run.store.close();
    throw error;
  }
}

/** The `view` option of runEvaluation for `tmas run --view`: serves the live run and says where. */
export function serveLiveRun(options: {
  port: number;
  dir: string;
  say(line: string): void;
  /** Told the port the viewer got (the one asked for, or the free one picked for 0). */
  listening?: (port: number) => void;
}): (parts: LiveRunParts) => Promise<() => Promise<void>> {
  return async (parts) => {
    const server = await startViewer([liveRun({ dir: options.dir, ...parts })], { port: options.port });
    options.listening?.(Number(new URL(server.url).port));
    options.say(`tmas: viewing the run at ${server.url} while it goes`);
    return () => server.close();
  };
}

/** Asks the desktop to open a URL; where there is none (a server over ssh), the printed URL is enough. */
export function openInBrowser(url: string): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(command, [url], { stdio: 'ignore', detached: true });
  child.on('error', () => {});
  child.unref();
}
