/**
 * Runs a `tmas` command as a child process and measures its wall time and
 * peak RSS (VmHWM from /proc, sampled every 100 ms; 0 where /proc is absent).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { tmasCommand } from './sim-process.ts';

/** What one measured command reports. */
export interface MeasuredCommand {
  code: number | null;
  wallMs: number;
  peakRss: number;
  stdout: string;
  /** Bytes the command printed on stdout, all of them. */
  stdoutBytes: number;
}

/** The first http:// URL a child prints on stdout (`tmas view`'s address); rejects, with `stderr()`, if it exits first. */
export function printedUrl(child: ChildProcess, stderr: () => string = () => ''): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /http:\/\/\S+\//.exec(out)?.[0];
      if (url) resolve(url);
    });
    child.once('exit', (code) => reject(new Error(`tmas exited with ${code} before printing its address: ${stderr()}`)));
  });
}

/** A process's peak resident memory so far (VmHWM), in bytes; 0 where /proc is absent. */
export async function highWaterMark(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
  return kb ? Number(kb) * 1024 : 0;
}

/** Runs `tmas <args>`; stdout is kept only up to 64 kB (a `log` command's output is counted, not kept). */
export async function measureCommand(args: string[]): Promise<MeasuredCommand> {
  const started = performance.now();
  const child = spawn(...tmasCommand(args), { stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  let stdoutBytes = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    stdoutBytes += chunk.length;
    if (stdout.length < 65_536) stdout += chunk.toString();
  });
  let peakRss = 0;
  const sampler = setInterval(() => {
    if (child.pid !== undefined) void highWaterMark(child.pid).then((rss) => (peakRss = Math.max(peakRss, rss)));
  }, 100);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  clearInterval(sampler);
  return { code, wallMs: performance.now() - started, peakRss, stdout, stdoutBytes };
}
