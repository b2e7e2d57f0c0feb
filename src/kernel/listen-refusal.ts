/**
 * Why a server tmas starts for the user (`tmas sim-server`, `tmas view`,
 * `tmas run --view`) could not listen where the user asked, as the flag to
 * change: a port already taken (another server, a viewer left running), one
 * below 1024 without the right to it, or a `--host` that is not an address
 * of this machine. Node's own error ("listen EADDRINUSE: address already in
 * use 127.0.0.1:8000") reached the user as an internal error with a stack.
 */
import { UserError } from './errors.ts';

/** Where the server was asked to listen, and the flags that said so. */
export interface ListenRequest {
  host: string;
  port: number;
  /** The flag that gave the port (`--port`; `--view` for a run's viewer). */
  portFlag: string;
  /** The flag that gave the host, where one does (`--host`). */
  hostFlag?: string;
}

/** What each refusal means, and which flag changes it. */
function reasonOf(code: string | undefined, at: ListenRequest): string | null {
  const port = `${at.portFlag} ${at.port}`;
  const host = at.hostFlag === undefined ? at.host : `${at.hostFlag} ${at.host}`;
  if (code === 'EADDRINUSE') return `${port}: the port is in use. Choose another, or 0 for any free port.`;
  if (code === 'EACCES') return `${port}: this user may not listen on that port (below 1024 it takes root). Choose a port from 1024 up, or 0 for any free port.`;
  if (code === 'EADDRNOTAVAIL') return `${host}: not an address of this machine. Give one of its own (127.0.0.1 for loopback, 0.0.0.0 for every interface).`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `${host}: the host name does not resolve. Give an address of this machine (127.0.0.1 for loopback).`;
  return null;
}

/** The user's error for a refused listen (TMAS_USAGE, naming the flag), or the error as it was when it is something else. */
export function listenRefusal(error: unknown, at: ListenRequest): unknown {
  const reason = reasonOf((error as NodeJS.ErrnoException | null)?.code, at);
  return reason === null ? error : new UserError('TMAS_USAGE', reason, { cause: error });
}
