/**
 * Secrets never leak: API keys given as flags or in the environment must not
 * appear anywhere in a run directory (store files read as bytes, results,
 * metrics), on stdout or stderr, or in error messages, also when an endpoint
 * fails or echoes the key back.
 */
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { startSimServer } from '../../src/sim/server.ts';
import { runCli, runCliInProcess, smallProblems, test, withEnv, writeProblems } from '../fixtures.ts';

const FLAG_KEY = 'sk-PLANTED-flag-7f3a9c1e5b';
const ENV_KEY = 'sk-PLANTED2-env-4d8e2b6a0c';
const VERIFY_KEY = 'sk-PLANTED3-verify-9a1c3e5f7b';
const KEYS = [FLAG_KEY, ENV_KEY, VERIFY_KEY];

/** Every file under `dir`, as bytes. */
async function filesUnder(dir: string): Promise<Array<{ file: string; bytes: Buffer }>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return Promise.all(
    entries.filter((e) => e.isFile()).map(async (e) => {
      const file = path.join(e.parentPath, e.name);
      return { file, bytes: await readFile(file) };
    }),
  );
}

function leaks(texts: Array<{ where: string; bytes: Buffer }>): string[] {
  return texts.flatMap(({ where, bytes }) => KEYS.filter((key) => bytes.includes(key)).map((key) => `${key} in ${where}`));
}

describe('secrets', () => {
  test('keys from flags and the environment appear nowhere in the run directory, stdout or stderr', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(3));
    const outputDir = path.join(dir, 'run');
    const { code, stdout, stderr } = await runCli(
      ['run', '--input-file', input, '--output-file', outputDir, '--no-proof', '--n-candidates', '2', '--n-verifications', '2', '--max-iterations', '2',
        '--api-key', FLAG_KEY, '--verify-api-key', VERIFY_KEY],
      { env: { OPENAI_API_KEY: ENV_KEY } },
    );
    expect(code).toBe(0);
    expect(stderr).toContain('prefer the OPENAI_API_KEY or API_KEY environment variable');
    const files = await filesUnder(outputDir);
    // The store is really there and read as bytes: LevelDB's log or table files.
    expect(files.some((f) => /\.(log|ldb)$/.test(f.file) && f.bytes.length > 0)).toBe(true);
    expect(files.some((f) => f.file.endsWith('results.jsonl'))).toBe(true);
    expect(leaks([...files.map((f) => ({ where: f.file, bytes: f.bytes })), { where: 'stdout', bytes: Buffer.from(stdout) }, { where: 'stderr', bytes: Buffer.from(stderr) }])).toEqual([]);
  });

  test('a run stopped by a failing endpoint leaks no key in its error or its directory', async ({ dir }) => {
    const problems = smallProblems(2);
    const sim = await startSimServer({ problems: problems.map((p) => ({ id: p.problem_id, question: p.question, answer: p.answer })), faults: { '503': 1 } });
    try {
      const input = await writeProblems(dir, problems);
      const outputDir = path.join(dir, 'down');
      const { code, stdout, stderr } = await runCli(
        ['run', '--input-file', input, '--output-file', outputDir, '--base-url', sim.url, '--no-proof', '--max-retries', '1', '--retry-base-ms', '1', '--max-iterations', '1'],
        { env: { OPENAI_API_KEY: ENV_KEY } },
      );
      expect(code).toBe(2);
      expect(stderr).toContain('stays down');
      const files = await filesUnder(outputDir);
      expect(leaks([...files.map((f) => ({ where: f.file, bytes: f.bytes })), { where: 'stdout', bytes: Buffer.from(stdout) }, { where: 'stderr', bytes: Buffer.from(stderr) }])).toEqual([]);
    } finally {
      await sim.close();
    }
  });

  test('an empty OPENAI_API_KEY counts as unset: the key is API_KEY\'s, else EMPTY; an empty --api-key is a usage error naming the flag', async ({ dir }) => {
    // A server that refuses every key, noting the ones it was sent.
    const sent: string[] = [];
    const server = createServer((req, res) => {
      sent.push(req.headers.authorization ?? '');
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'no', type: 'invalid_request_error' } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      const input = await writeProblems(dir, smallProblems(1));
      const args = ['run', '--input-file', input, '--output-file', path.join(dir, 'x'), '--base-url', url, '--model-name', 'm', '--no-proof'];
      for (const [apiKey, expected] of [[ENV_KEY, `Bearer ${ENV_KEY}`], ['', 'Bearer EMPTY']] as const) {
        sent.length = 0;
        const refused = await withEnv({ OPENAI_API_KEY: '', API_KEY: apiKey }, () => runCliInProcess(args));
        expect(refused.code, refused.stderr).toBe(2);
        expect(refused.stderr).toContain('[TMAS_AUTH]');
        expect(new Set(sent)).toEqual(new Set([expected]));
      }
      const empty = await runCliInProcess([...args, '--api-key', '']);
      expect(empty.code).toBe(2);
      expect(empty.stderr).toMatch(/--api-key <key>' argument '' is invalid\. expected a key, got an empty value \[TMAS_USAGE\]/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('a key that an HTTP header cannot carry as it is (a line break, a zero-width space, a space at an end) is a usage error naming its flag or variable, without the key, before anything is written', async ({ dir }) => {
    // Before: fetch refused the header on every call of the role, retried until the run was stopped (a --verify-api-key with a line break hung its run).
    const output = path.join(dir, 'x');
    const base = ['run', '--demo', '--output-file', output];
    const cases: Array<[string[], string]> = [
      [['--verify-api-key', `${ENV_KEY}\n`], `--verify-api-key: the key cannot be sent: it holds a line break (character ${ENV_KEY.length + 1} of ${ENV_KEY.length + 1})`],
      [['--judge_api_key', `sk-\u200b${ENV_KEY}`], '--judge-api-key: the key cannot be sent: it holds the character U+200B (character 4 of'],
      [['--api-key', ` ${ENV_KEY}`], '--api-key: the key cannot be sent: it begins or ends with a space'],
    ];
    for (const [flags, says] of cases) {
      const refused = await runCliInProcess([...base, ...flags]);
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toContain(says);
      expect(refused.stderr).not.toContain(ENV_KEY);
    }
    const refused = await withEnv({ OPENAI_API_KEY: `${ENV_KEY}\r\n` }, () => runCliInProcess(base));
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain('The API key in the environment variable OPENAI_API_KEY cannot be sent: it holds a line break');
    expect(refused.stderr).not.toContain(ENV_KEY);
    expect(existsSync(output)).toBe(false);
  });

  test('an endpoint that echoes the key in its error message: the key is redacted from what the user sees', async ({ dir }) => {
    // A fake OpenAI-compatible server that rejects every key the way OpenAI does, quoting it.
    const server = createServer((req, res) => {
      const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${key}.`, type: 'invalid_request_error', code: 'invalid_api_key' } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      const input = await writeProblems(dir, smallProblems(1));
      const { code, stdout, stderr } = await runCli(['run', '--input-file', input, '--output-file', path.join(dir, 'x'), '--base-url', url, '--model-name', 'm', '--no-proof'], {
        env: { OPENAI_API_KEY: ENV_KEY },
      });
      expect(code).toBe(2);
      expect(stderr).toContain('Incorrect API key provided: [redacted]');
      expect(leaks([{ where: 'stdout', bytes: Buffer.from(stdout) }, { where: 'stderr', bytes: Buffer.from(stderr) }])).toEqual([]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
