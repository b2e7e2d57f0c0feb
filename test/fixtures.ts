/**
 * Shared vitest fixtures: a fresh temporary directory per test (removed
 * afterwards), and helpers to run tmas in-process or as a child process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { fileURLToPath } from 'node:url';
import { test as base, expect } from 'vitest';
import type { Envelope, Message, MessageOf, MessageType } from '../src/kernel/protocol.ts';
import type { RunOutcome } from '../src/host/run/run-evaluation.ts';
import type { ReplayReport } from '../src/analysis/replay-compare.ts';
import type { Secrets } from '../src/settings/config.ts';
import { Store, type CallRecord } from '../src/store/store.ts';
import type { CompletionRequest } from '../src/gateway/gateway.ts';
import type { RequestLogEntry } from '../src/sim/http/request-log.ts';

export const REPO = fileURLToPath(new URL('..', import.meta.url));
export const BIN = path.join(REPO, 'src', 'bin.mjs');

/** `test` with a `dir` fixture: a new empty temporary directory. */
export const test = base.extend<{ dir: string }>({
  // eslint-disable-next-line no-empty-pattern
  dir: async ({}, use) => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'tmas-test-'));
    await use(dir);
    await rm(dir, { recursive: true, force: true });
  },
});

/** Writes problems as JSONL and returns the path. */
export async function writeProblems(dir: string, problems: Array<{ problem_id: string; question: string; answer?: string }>): Promise<string> {
  const file = path.join(dir, 'problems.jsonl');
  await writeFile(file, problems.map((p) => JSON.stringify(p)).join('\n') + '\n');
  return file;
}

/** A few small problems with answers. */
export function smallProblems(count: number) {
  return Array.from({ length: count }, (_, i) => ({
    problem_id: `p${i + 1}`,
    question: `Compute ${i + 2} times ${i + 3}.`,
    answer: String((i + 2) * (i + 3)),
  }));
}

/** Runs an evaluation in-process with CLI arguments, as `tmas run` would, quietly. */
export async function runInProcess(args: string[]): Promise<RunOutcome> {
  // Imported here, not above: the runtime is 1.3 s of CPU to load in a test file's fork, which a file that runs tmas only as a child process need not pay.
  const [{ parseRunFlags, toRunConfig }, { loadProblems }, { runEvaluation }] = await Promise.all([import('../src/cli/run/run.command.ts'), import('../src/input/problems.ts'), import('../src/host/run/run-evaluation.ts')]);
  const { config, secrets } = toRunConfig(parseRunFlags(args), {});
  const problems = await loadProblems(config.problems.inputFile);
  const quiet = { stdout: () => {}, stderr: () => {} };
  return runEvaluation(config, secrets, problems, quiet);
}

/**
 * Replays a run in this process, as `tmas replay DIR` does with no key set (each endpoint's key
 * "EMPTY"); resolves its report: `identical` is what makes the command exit 0.
 */
export async function replayInProcess(runDir: string): Promise<ReplayReport> {
  const [{ replayRun }, { ENDPOINT_SLOTS }] = await Promise.all([import('../src/analysis/replay.ts'), import('../src/kernel/slots.ts')]);
  return replayRun(runDir, { secrets: Object.fromEntries(ENDPOINT_SLOTS.map((slot) => [slot, 'EMPTY'])) as Secrets });
}

/** Every envelope of a finished run's message log, in sequence order. */
export async function readLog(outputDir: string): Promise<Envelope[]> {
  const store = await Store.open(outputDir);
  try {
    const envelopes: Envelope[] = [];
    for await (const envelope of store.envelopes()) envelopes.push(envelope);
    return envelopes;
  } finally {
    await store.close();
  }
}

/** Runs the `tmas` executable as a child process. */
export function runCli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; uid?: number; gid?: number } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? REPO,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(options.uid === undefined ? {} : { uid: options.uid }),
      ...(options.gid === undefined ? {} : { gid: options.gid }),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Runs the `tmas` command line in this process, as runCli does in a child: main.ts, which the executable
 * runs, with its output captured. A child's start-up is a third of a second of CPU, where a refusal takes a
 * few milliseconds in this process, whose fork has the runtime loaded; runCli stays for what only a process
 * shows (an exit by a signal, another user or working directory, a second process, the build in dist/).
 * Commands given at once run one after another: a command's exit code passes through process.exitCode.
 */
export function runCliInProcess(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const done = commandsInProcess.then(() => commandInProcess(args));
  commandsInProcess = done.then(() => undefined, () => undefined);
  return done;
}

/** The last command runCliInProcess started: the next one waits for it. */
let commandsInProcess: Promise<void> = Promise.resolve();

/** One command of runCliInProcess, its output and exit code. */
async function commandInProcess(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { main } = await import('../src/cli/main.ts');
  let stdout = '';
  let stderr = '';
  const toStdout = (line: string) => void (stdout += `${line}\n`);
  const callersExitCode = process.exitCode;
  try {
    const code = await main(args, { stdout: toStdout, stream: toStdout, stderr: (line) => void (stderr += `${line}\n`) });
    // The exit code a command sets (replay's) is its own: a later command here would return it as its own.
    expect(process.exitCode, `${args[0]} left its exit code to this process`).toBe(callersExitCode);
    return { code, stdout, stderr };
  } finally {
    // A run, export or replay caps V8's heap growth for the rest of its process (eager-gc.ts): this fork's later tests keep V8's own.
    setFlagsFromString('--heap-growing-percent=0');
  }
}

/**
 * `work` with the environment variables of `env` set (undefined: unset) in this process, as a child
 * given that environment would see them; they are put back as they were when it settles. With
 * runCliInProcess, what a command reads from the environment (API keys) is tried without the
 * second of CPU a child costs; runCli stays for what only a child shows (everything it writes).
 */
export async function withEnv<T>(env: Record<string, string | undefined>, work: () => Promise<T>): Promise<T> {
  const before = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  const put = (values: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  put(env);
  try {
    return await work();
  } finally {
    put(before);
  }
}

/** Starts `tmas sim-server` as its own process; resolves its base URL. */
export async function startSimProcess(args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [BIN, 'sim-server', '--port', '0', ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /http:\/\/\S+\/v1/.exec(out);
      if (match) resolve(match[0]);
    });
    child.once('exit', () => reject(new Error(`sim-server exited: ${out}`)));
  });
  return { url, child };
}

/**
 * `tmas sim-server ARGS` in this process: the command's own flags and defaults (runSimServerCommand), on an
 * ephemeral port, without the 0.9 s of CPU a child process costs to start. For a test that needs the simulator
 * as a process of its own (a signal, its own pid), startSimProcess.
 */
export async function startSimInProcess(args: string[]): Promise<{ url: string; close(): Promise<void> }> {
  const [{ Command }, { defineSimServerOptions }, { runSimServerCommand }] = await Promise.all([import('commander'), import('../src/cli/tools/sim-server.options.ts'), import('../src/cli/tools/sim-server.command.ts')]);
  // The command's options as tmas declares them, parsed by commander as tmas parses them.
  const command = new Command('sim-server').exitOverride();
  defineSimServerOptions(command);
  command.parse(['--port', '0', ...args], { from: 'user' });
  return runSimServerCommand(command.opts(), { stdout: () => undefined });
}

/** A `tmas` child process whose stderr is kept; `exited` resolves with its exit code (null when a signal ended it). */
export function startCli(args: string[], env: NodeJS.ProcessEnv = {}): { child: ChildProcess; stderr: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, stderr: () => stderr, exited };
}

/** Waits until `condition` holds; fails when `child` ends first. */
export async function until(condition: () => boolean | Promise<boolean>, child: ChildProcess): Promise<void> {
  while (!(await condition())) {
    if (child.exitCode !== null) throw new Error('the command ended before the point it was to be stopped at');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Every journaled call of a run, in key order (problem, iteration, role, index). */
export async function readJournal(outputDir: string): Promise<CallRecord[]> {
  const store = await Store.open(outputDir);
  try {
    const calls: CallRecord[] = [];
    for await (const call of store.callRecords()) calls.push(call);
    return calls;
  } finally {
    await store.close();
  }
}

/** The lines of a simulator's request log (`requestLog` / `--request-log`), in the order the requests came. */
export async function readRequestLog(file: string): Promise<RequestLogEntry[]> {
  return (await readFile(file, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as RequestLogEntry);
}

/**
 * A folder under `root` whose path is `length` bytes: made one folder of at most 250 bytes at a time,
 * each made from the one above by a relative path (mkdir of the whole path would be refused for its length).
 */
export async function deepFolder(root: string, length: number): Promise<string> {
  let at = root;
  while (at.length < length) {
    const name = 'd'.repeat(Math.min(250, length - at.length - 1));
    const parent = at;
    // A relative path under the parent, as a process whose working directory is there would give it.
    await inFolder(parent, () => mkdir(name));
    at = `${parent}/${name}`;
  }
  return at;
}

/** `work` run with `dir` as the working directory, which holds folders deeper than an absolute path can name. */
export async function inFolder<T>(dir: string, work: () => Promise<T>): Promise<T> {
  const before = process.cwd();
  // chdir takes a path of any length where the system does, one folder at a time.
  for (const step of path.relative(before, dir).split(path.sep)) process.chdir(step);
  try {
    return await work();
  } finally {
    process.chdir(before);
  }
}

/** sha256 of every file under `dir`, by relative path: to show that a command changed no file. */
export async function fileHashes(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out[path.relative(dir, file)] = createHash('sha256').update(await readFile(file)).digest('hex');
  }
  return out;
}

/** Runs a strategy in-process on `problems` small problems into `dir/out`; resolves the messages of its log. */
export async function runStrategy(dir: string, strategy: string, flags: string[], problems = 2): Promise<Message[]> {
  const input = await writeProblems(dir, smallProblems(problems));
  const output = path.join(dir, 'out');
  await runInProcess(['--input-file', input, '--output-file', output, '--no-proof', '--strategy', strategy, '--concurrency', '16', '--sim-output-tokens', '60', ...flags]);
  return (await readLog(output)).map((envelope) => envelope.message);
}

/** The messages of one type, optionally of one problem and iteration. */
export function ofType<T extends MessageType>(messages: Message[], type: T, problem?: string, iteration?: number): Array<MessageOf<T>> {
  return messages.filter(
    (m): m is MessageOf<T> => m.type === type && (problem === undefined || m.problem === problem) && (iteration === undefined || m.iteration === iteration),
  );
}

/** A whole chat completion body, as an OpenAI-compatible server answers; `extra` overrides any field (`usage: undefined` drops it). */
export function chatCompletionBody(content: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    id: 'x',
    object: 'chat.completion',
    created: 0,
    model: 'tmas-sim',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
    ...extra,
  });
}

/** One server-sent event of a streamed chat completion. */
/** A solver's chat request to `url` for the test servers: "What is seed + 1?". */
export function additionRequest(url: string, seed = 1, maxTokens = 100): CompletionRequest {
  return {
    endpoint: { baseUrl: url, model: 'tmas-sim', apiKey: 'sim' },
    messages: [
      { role: 'system', content: 'You are a careful solver.' },
      { role: 'user', content: `What is ${seed} + 1?` },
    ],
    maxTokens,
    seed,
  };
}

export function chatChunkEvent(delta: Record<string, unknown>, finishReason: string | null = null, model = 'tmas-sim'): string {
  return `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model, choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
}

/** Starts a plain HTTP server on loopback that answers each request, once its body is read, with `handler`; without metrics (the gateway's load reads get a 404); closed with the returned function. */
export async function serveHttp(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  let requests = 0;
  const server: Server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/metrics') {
      res.writeHead(404).end();
      return;
    }
    requests++;
    req.resume();
    req.on('end', () => handler(req, res));
  });
  return { ...(await listening(server)), requests: () => requests };
}

/** `server` listening on a free loopback port: its OpenAI-style base URL (`/v1`), and a close that drops kept connections first. */
export async function listening(server: Server): Promise<{ url: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The flags of a small run of `strategy` for runInProcess: 2 candidates a round (majority: 2 samples), 1 verification where it reads M. */
export function smallWidthFlags(strategy: string): string[] {
  const width = strategy === 'majority' ? ['--samples', '2'] : strategy === 'mas-ceo' ? [] : ['--n-candidates', '2'];
  return [...width, ...(['tmas', 'verify-refine'].includes(strategy) ? ['--n-verifications', '1'] : [])];
}

/** A model server of a test's own that lists model `m` and answers every chat completion with `content`, ended by `finishReason` (a whole, non-streamed reply). */
export function serveFixedReply(content: string, finishReason: 'stop' | 'length'): ReturnType<typeof serveHttp> {
  return serveHttp((req, res) => {
    if (req.url?.endsWith('/models')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'm', object: 'model', created: 0, owned_by: 'test' }] }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(chatCompletionBody(content, { model: 'm', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: finishReason }] }));
  });
}

/**
 * A model server of a test's own on loopback: it lists model `m`, answers each
 * chat completion with the text `answer` gives for the request's body (a
 * whole, non-streamed reply), and everything else (its /metrics included)
 * with a 404.
 */
export async function serveModel(answer: (body: string) => string): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.url?.endsWith('/models')) return res.end(JSON.stringify({ object: 'list', data: [{ id: 'm', object: 'model', owned_by: 'test' }] }));
      if (!req.url?.endsWith('/chat/completions')) {
        res.statusCode = 404;
        return res.end(JSON.stringify({ error: { message: 'not found' } }));
      }
      res.end(chatCompletionBody(answer(body), { model: 'm' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A misbehaving endpoint of a test's own: a proxy on loopback in front of
 * `target` (a simulator) that forwards every request, unless `intercept`
 * answers it first (given the request's path and body; true when it did).
 */
export async function startProxy(target: string, intercept: (url: string, body: string, res: ServerResponse) => boolean): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      if (intercept(req.url ?? '', body, res)) return;
      void fetch(`${target}${req.url?.replace(/^\/v1/, '') ?? ''}`, { method: req.method ?? 'GET', headers: { 'content-type': 'application/json' }, ...(req.method === 'POST' ? { body } : {}) }).then(async (answer) => {
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
        res.end(Buffer.from(await answer.arrayBuffer()));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, server };
}

/**
 * A proxy in front of `target` that misbehaves as `intercept` says while its
 * `healthy` flag is false, and passes everything on once it is set; `close`
 * drops the connections it holds open.
 */
export async function startSwitchableProxy(target: string, intercept: (url: string, body: string, res: ServerResponse) => boolean) {
  const healthy = { current: false };
  const proxy = await startProxy(target, (url, body, res) => !healthy.current && intercept(url, body, res));
  const close = () =>
    new Promise<void>((resolve) => {
      proxy.server.closeAllConnections();
      proxy.server.close(() => resolve());
    });
  return { url: proxy.url, healthy, close };
}

/**
 * Runs `flags` on the problems in `problems` against `url` into DIR/run,
 * where some calls fail for good: it ends at 3 (TMAS_RUN_INCOMPLETE).
 * Resolves the run directory, its stderr, and the arguments that repeat it.
 */
export async function runIncomplete(dir: string, problems: string, url: string, flags: string[]): Promise<{ run: string; stderr: string; args: string[] }> {
  const run = path.join(dir, 'run');
  const args = ['--input-file', problems, '--base-url', url, ...flags];
  // In this process: what is checked is the run's exit code, stderr and store, not the executable (2 CPU-s a child).
  const ended = await runCliInProcess(['run', ...args, '--output-file', run]);
  expect(ended.code, ended.stderr).toBe(3);
  expect(ended.stderr).toMatch(/\[TMAS_RUN_INCOMPLETE\]/);
  return { run, stderr: ended.stderr, args };
}

/**
 * Resumes `run` (its servers now healthy) and runs `args` afresh into
 * `clean` (in this process: the reference): the resume ends at 0 with the
 * results.jsonl of the fresh run. Resolves the resume's stderr.
 */
export async function expectResumedAsClean(run: string, args: string[], clean: string): Promise<string> {
  // In this process too: the resume reads back only what the store on disk holds, as a process of its own would.
  const resumed = await runCliInProcess(['run', '--resume', run]);
  expect(resumed.code, resumed.stderr).toBe(0);
  await runInProcess([...args, '--output-file', clean]);
  expect(await readFile(path.join(run, 'results.jsonl'), 'utf8')).toBe(await readFile(path.join(clean, 'results.jsonl'), 'utf8'));
  return resumed.stderr;
}

/** Checks that results.jsonl and metrics.json of a stopped run are one write, of what the store holds. */
export async function expectOutputsOfStore(run: string): Promise<number> {
  const text = await readFile(path.join(run, 'results.jsonl'), 'utf8');
  const lines = text === '' ? [] : text.trimEnd().split('\n').map((line) => JSON.parse(line) as { problem: string; iteration: number });
  const metrics = JSON.parse(await readFile(path.join(run, 'metrics.json'), 'utf8')) as { results: { lines: number; sha256: string } };
  expect(metrics.results).toEqual({ lines: lines.length, sha256: createHash('sha256').update(text).digest('hex') });
  const store = await Store.open(run);
  try {
    const marked: Array<{ problem: string; iteration: number }> = [];
    for await (const record of store.iterationRecords()) marked.push({ problem: record.problem, iteration: record.iteration });
    expect(lines.map(({ problem, iteration }) => ({ problem, iteration }))).toEqual(marked);
  } finally {
    await store.close();
  }
  return lines.length;
}

/**
 * A file-scoped fixture: one finished run of `problems` small problems with
 * `flags`, made once per test file (in a temporary folder named from
 * `prefix`, removed after the file) and given to each test as `shape` makes
 * of its directory (the directory itself by default). Each test that changes
 * the run works on a copy of its own. Give it a name no other test file uses
 * (house.test.ts): with `isolate: false`, a fork hands a file-scoped fixture
 * of one file to another file of the same name.
 */
export function finishedRunOfFile<T = string>(
  prefix: string,
  problems: number,
  flags: string[],
  shape: (run: string) => Promise<T> = async (run) => run as T,
): [(context: object, use: (value: T) => Promise<void>) => Promise<void>, { scope: 'file' }] {
  return [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use: (value: T) => Promise<void>) => {
      const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
      try {
        const run = path.join(dir, 'run');
        await runInProcess(['--input-file', await writeProblems(dir, smallProblems(problems)), '--output-file', run, ...flags]);
        await use(await shape(run));
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    { scope: 'file' },
  ];
}
