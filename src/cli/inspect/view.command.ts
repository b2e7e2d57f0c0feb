/**
 * `tmas view DIR [DIR...]`: serves the read-only web viewer of the runs in
 * those folders (each a run directory or a folder holding runs, see
 * viewer/run-folder.ts) on loopback; and `tmas run --view`: the same viewer for the
 * run in progress, served by the running process, which alone may open its
 * store.
 */
import { spawn } from 'node:child_process';
import type { LiveRunParts } from '../../host/run/run-evaluation.ts';
import { openRun } from '../../analysis/open-run.ts';
import { createRunCatalog, openRunsCatalog } from '../../viewer/run-catalog.ts';
import { findRuns, SCAN_LIMITS, type ScanLimits } from '../../viewer/run-folder.ts';
import { startViewer, type ViewerServer } from '../../viewer/server.ts';
import { liveRun } from '../../viewer/viewed-run.ts';

/** Finds the runs under the folders and starts the viewer; a run's store is opened (a private copy) when one of its pages is asked for. */
export async function runViewCommand(dirs: string[], options: { port: number; host?: string; limits?: ScanLimits }): Promise<ViewerServer> {
  const catalog = createRunCatalog(await findRuns(dirs, options.limits ?? SCAN_LIMITS), openRun);
  try {
    const server = await startViewer(catalog, options);
    return {
      url: server.url,
      close: async () => {
        await server.close();
        await catalog.close();
      },
    };
  } catch (error) {
    await catalog.close();
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
    const server = await startViewer(openRunsCatalog([liveRun({ dir: options.dir, ...parts })]), { port: options.port, portFlag: '--view' });
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
