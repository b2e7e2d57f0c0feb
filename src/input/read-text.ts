/**
 * Reads a problem file as text (a compressed, archived or Parquet file refused by its first bytes): strict UTF-8 (a bad byte is reported with its
 * line and byte offset rather than silently turned into U+FFFD), BOM removed.
 */
import { closeSync, constants, openSync, writeSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { kindOf } from '../kernel/file-kind.ts';
import { isUtf8 } from 'node:buffer';
import { isUserError } from '../kernel/errors.ts';
import { refuseBinaryFormat, refuseNulBytes } from './binary-signature.ts';
import { inputError } from './input-error.ts';
import { checkInputSize, MAX_INPUT_BYTES } from './input-size.ts';
import { thrownText } from '../kernel/thrown-text.ts';

/**
 * Reads `file` and decodes it as UTF-8; throws a `TMAS_INPUT` error naming the
 * file on any failure, and on a file over `maxBytes` before reading it.
 */
export async function readProblemText(file: string, maxBytes = MAX_INPUT_BYTES, pipe: PipeWaits = {}): Promise<string> {
  const bytes = await readProblemBytes(file, maxBytes, { openMs: pipe.openMs ?? PIPE_WAIT_MS, silenceMs: pipe.silenceMs ?? PIPE_SILENCE_MS });
  refuseBinaryFormat(file, bytes);
  if (!isUtf8(bytes)) throw encodingError(file, bytes);
  refuseNulBytes(file, bytes);
  const text = bytes.toString('utf8');
  // Editors on Windows like to start UTF-8 files with a BOM; it is not part of the data.
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

/** How long a FIFO may wait for a process to open it for writing before the run gives up: `<(…)` opens it at once. */
export const PIPE_WAIT_MS = 10_000;
/**
 * How long the process writing to a FIFO may send nothing before the run gives up. Longer than the wait for
 * a writer: a generator may load a dataset or a model's tokenizer before its first line
 * (`--input-file <(python export.py)`); a stuck one is still given up, where the run used to hang.
 */
export const PIPE_SILENCE_MS = 300_000;

/** The bounds of a FIFO's wait, in milliseconds: for a writer to open it, and for the writer's next bytes. */
export interface PipeWaits {
  openMs?: number;
  silenceMs?: number;
}

/** The file's bytes, its size checked first (a file too large is never read); a pipe's, read up to `maxBytes`; a device is refused. */
async function readProblemBytes(file: string, maxBytes: number, pipeWaits: Required<PipeWaits>): Promise<Buffer> {
  try {
    const info = await stat(file);
    // /dev/zero and its kind never end: a problem file is a file, or a pipe (`--input-file <(zcat problems.jsonl.gz)`).
    if (info.isCharacterDevice() || info.isBlockDevice() || info.isSocket()) {
      throw inputError(file, `this is ${kindOf(info)}, not a file`, 'Pass the path of a .jsonl, .csv or .parquet problem file');
    }
    if (info.isFIFO()) return await readPipe(file, maxBytes, pipeWaits);
    // A directory's size means nothing here: reading it fails with EISDIR, reported as such.
    if (!info.isDirectory()) checkInputSize(file, info.size, maxBytes);
    const handle = await open(file);
    try {
      return await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw isUserError(error) ? error : readError(file, error);
  }
}

/**
 * A pipe's bytes up to `maxBytes` (its size is known only once read). One that no process opens for
 * writing is given up, and so is one whose writer holds it open and sends nothing for as long
 * (`sleep 1000 > fifo`, a stuck generator): the run hung there, silent, before any message.
 */
async function readPipe(file: string, maxBytes: number, { openMs, silenceMs }: Required<PipeWaits>): Promise<Buffer> {
  const opening = open(file);
  const handle = await within(opening, openMs, () => {
    releaseBlockedPipe(file);
    void opening.then((late) => late.close(), () => {});
    return inputError(file, `no process writes to this FIFO (waited ${openMs / 1000} s)`, 'Start the process that writes the problems into it, or pass a regular file');
  });
  try {
    const chunks: Buffer[] = [];
    // A pipe gives at most its buffer (64 kB) a read: what each read got is copied out of one buffer used again.
    const buffer = Buffer.allocUnsafe(1 << 20);
    let total = 0;
    for (;;) {
      const { bytesRead } = await within(handle.read(buffer, 0, buffer.length, null), silenceMs, () => {
        releaseBlockedPipe(file);
        return inputError(file, `the process writing to this FIFO sent nothing for ${silenceMs / 1000} s (${total} bytes read before)`, 'Write the problems to a file first and pass its path, or check the process that writes them');
      });
      if (bytesRead === 0) return Buffer.concat(chunks, total);
      total += bytesRead;
      checkInputSize(file, total, maxBytes);
      chunks.push(Buffer.from(buffer.subarray(0, bytesRead)));
    }
  } finally {
    await handle.close();
  }
}

/**
 * Ends the open or read of `file` that blocks one of the threads file I/O runs on: while it blocks, the
 * process cannot exit (it hung after its message until the FIFO's writer came or went). A writer of tmas's
 * own opens the FIFO (a reader waits on it, so that succeeds at once) and writes one byte the read takes.
 */
function releaseBlockedPipe(file: string): void {
  try {
    const fd = openSync(file, constants.O_WRONLY | constants.O_NONBLOCK);
    try {
      writeSync(fd, '\n');
    } finally {
      closeSync(fd);
    }
  } catch {
    // The open or read ended meanwhile: nothing is left blocked.
  }
}

/** `work`, or the error `late` makes when it takes over `ms`. */
async function within<T>(work: Promise<T>, ms: number, late: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(late()), ms);
  });
  return Promise.race([work, waited]).finally(() => clearTimeout(timer));
}

/** The message of a file that cannot be opened or read: not found, a directory, no permission. */
export function readError(file: string, error: unknown): Error {
  const code = error instanceof Error && 'code' in error ? String(error.code) : 'unknown';
  if (code === 'ENOENT') {
    return inputError(
      file,
      'file not found',
      `Check the path; a relative path is resolved from ${process.cwd()}`,
      error,
    );
  }
  if (code === 'EISDIR') return directoryError(file, error);
  const reason = thrownText(error);
  return inputError(
    file,
    `cannot read the file (${reason})`,
    'Check that the file exists and that you have permission to read it',
    error,
  );
}

/** The message of a path that names a directory. */
export function directoryError(file: string, cause?: unknown): Error {
  return inputError(file, 'this is a directory, not a file', 'Pass the path of a .jsonl, .csv or .parquet problem file', cause);
}

function encodingError(file: string, bytes: Buffer): Error {
  const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  if (utf16) {
    return inputError(
      { file, line: 1 },
      'the file is UTF-16 (it starts with a UTF-16 byte-order mark), not UTF-8',
      'Save it as UTF-8, e.g. iconv -f utf-16 -t utf-8 in > out',
    );
  }
  const offset = firstInvalidUtf8(bytes);
  const byte = bytes[offset] ?? 0;
  return inputError(
    { file, line: lineOfByte(bytes, offset) },
    `invalid UTF-8 at byte offset ${offset} (counting from 0; byte 0x${byte.toString(16).padStart(2, '0')} does not start or continue a valid UTF-8 sequence)`,
    'Save the file as UTF-8; if it came from a legacy encoding, convert it, e.g. iconv -f latin1 -t utf-8 in > out',
  );
}

function lineOfByte(bytes: Buffer, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (bytes[i] === 0x0a) line++;
  return line;
}

/**
 * Offset of the first byte that starts an ill-formed sequence, by the rules of
 * the Unicode standard (table 3-7): no overlong forms, no surrogates, nothing
 * above U+10FFFF. Only called once `isUtf8` has said no, so speed does not matter.
 */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i] ?? 0;
    if (lead < 0x80) {
      i++;
      continue;
    }
    const shape = sequenceShape(lead);
    if (shape === undefined) return i;
    for (let k = 1; k <= shape.trailing; k++) {
      const next = bytes[i + k];
      const [low, high] = k === 1 ? [shape.low, shape.high] : [0x80, 0xbf];
      if (next === undefined || next < low || next > high) return i;
    }
    i += shape.trailing + 1;
  }
  return bytes.length;
}

interface SequenceShape {
  trailing: number;
  /** Range of the first continuation byte, which is what rules out overlongs and surrogates. */
  low: number;
  high: number;
}

function sequenceShape(lead: number): SequenceShape | undefined {
  if (lead >= 0xc2 && lead <= 0xdf) return { trailing: 1, low: 0x80, high: 0xbf };
  if (lead === 0xe0) return { trailing: 2, low: 0xa0, high: 0xbf };
  if (lead === 0xed) return { trailing: 2, low: 0x80, high: 0x9f };
  if (lead >= 0xe1 && lead <= 0xef) return { trailing: 2, low: 0x80, high: 0xbf };
  if (lead === 0xf0) return { trailing: 3, low: 0x90, high: 0xbf };
  if (lead >= 0xf1 && lead <= 0xf3) return { trailing: 3, low: 0x80, high: 0xbf };
  if (lead === 0xf4) return { trailing: 3, low: 0x80, high: 0x8f };
  return undefined;
}
