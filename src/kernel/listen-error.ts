/**
 * Why a server of tmas (tmas sim-server, tmas view, tmas run --view) could not listen, as a usage error naming the
 * flag to change: a port another process holds, one below 1024 without the privilege, a --host that is no address of
 * this machine. Node's own error reached the user as an internal error with its stack trace.
 */
import { createServer } from 'node:net';
import { UserError } from './errors.ts';

/** The flags that set where a server listens, as the command names them. */
export interface ListenFlags {
  host: string;
  port: number;
  /** `--port`, or `--view` for `tmas run --view PORT`. */
  portFlag: string;
  /** `--host` where the command has one. */
  hostFlag?: string;
}

/** `error` (from a server's listen) as the usage error it is, or itself when it is none of these. */
export function listenError(error: unknown, flags: ListenFlags): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const port = `${flags.portFlag} ${flags.port}`;
  const host = flags.hostFlag === undefined ? flags.host : `${flags.hostFlag} ${flags.host}`;
  const because: Readonly<Record<string, string>> = {
    EADDRINUSE: `${port}: the port is in use on ${flags.host}. Choose another, or 0 for any free port.`,
    EACCES: `${port}: listening on a port below 1024 needs privileges this process lacks. Choose a port from 1024 up, or 0 for any free port.`,
    EADDRNOTAVAIL: `${host}: no interface of this machine has that address. Give one of its addresses (127.0.0.1 for this machine alone, 0.0.0.0 for every interface).`,
    ENOTFOUND: `${host}: the host name does not resolve. Give an address of this machine (127.0.0.1, 0.0.0.0) or a name that resolves to one.`,
  };
  const message = code === undefined ? undefined : because[code];
  return message === undefined ? error : new UserError('TMAS_USAGE', message, { cause: error });
}

/** Resolves when `flags.port` can be listened on now (port 0 always can), rejects with listenError's error otherwise. */
export async function checkListenable(flags: ListenFlags): Promise<void> {
  if (flags.port === 0) return;
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (error) => reject(listenError(error, flags)));
    probe.listen({ host: flags.host, port: flags.port }, () => probe.close(() => resolve()));
  });
}
