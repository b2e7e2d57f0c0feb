/**
 * `tmas sim-server`'s options are settings whose defaults are the simulator's
 * own, stated once (SIM_DEFAULTS, CAPACITY_DEFAULTS): its --help shows them,
 * `tmas run --sim-output-tokens` shows the same length, a server started with
 * no flag but its problems answers as the simulator does with every option
 * left out, and the simulator's code writes no default of its own beside them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { describe, expect } from 'vitest';
import { SIM_ROLES } from '../../machines/strategies/sim-roles.ts';
import { solutionPrompt } from '../../machines/strategies/tmas/solution.role.ts';
import { createProgram, declareLateOptions } from '../../src/cli/program.ts';
import { runSimServerCommand } from '../../src/cli/tools/sim-server.command.ts';
import { parseRunFlags } from '../../src/cli/run/run.command.ts';
import { toRunConfig } from '../../src/settings/configure/to-config.ts';
import { toSimServerConfig } from '../../src/settings/configure/to-sim-server-config.ts';
import { CAPACITY_DEFAULTS } from '../../src/sim/capacity/options.ts';
import { SIM_DEFAULTS } from '../../src/sim/defaults.ts';
import { startSimServer, type SimServer } from '../../src/sim/server.ts';
import { userText } from '../../workers/prompt-template.ts';
import { REPO, test } from '../fixtures.ts';

/** What `tmas <name> --help` says of each option, by long flag, as commander prints it unwrapped. */
async function helpOf(name: string): Promise<Map<string, string>> {
  const program = createProgram();
  await declareLateOptions(program, [name]);
  const command = program.commands.find((candidate) => candidate.name() === name) as Command;
  const help = command.createHelp();
  return new Map(command.options.map((option) => [option.long as string, help.optionDescription(option)]));
}

/** A request's reply with the one field that is not a function of the request (the server's start time) left out. */
async function replyOf(server: SimServer, body: object): Promise<string> {
  const response = await fetch(`${server.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return (await response.text()).replace(/"created":\s*\d+/g, '"created":0');
}

describe("tmas sim-server's defaults are the simulator's", () => {
  test('--help shows each default the simulator states, and tmas run --help the same output length', async () => {
    const shown = await helpOf('sim-server');
    const expected: Array<[string, string]> = [
      ['--host', JSON.stringify(SIM_DEFAULTS.host)],
      ['--seed', String(SIM_DEFAULTS.seed)],
      ['--output-tokens', String(SIM_DEFAULTS.outputTokens)],
      ['--metrics', JSON.stringify(SIM_DEFAULTS.metrics)],
      ['--model', `${SIM_DEFAULTS.model}, and any name accepted`],
      ['--latency-median-ms', String(SIM_DEFAULTS.latency)],
      ['--stream-tokens-per-second', String(SIM_DEFAULTS.stream.tokensPerSecond)],
      ['--stream-chunk-tokens', String(SIM_DEFAULTS.stream.chunkTokens)],
      ['--decode-tokens-per-second', String(CAPACITY_DEFAULTS.decodeTokensPerSecond)],
      ['--sequence-tokens-per-second', String(CAPACITY_DEFAULTS.sequenceTokensPerSecond)],
      ['--kv-tokens', String(CAPACITY_DEFAULTS.kvTokens)],
      ['--prefill-tokens-per-second', String(CAPACITY_DEFAULTS.prefillTokensPerSecond)],
      ['--output-tokens-median', String(CAPACITY_DEFAULTS.outputTokensMedian)],
      ['--output-tokens-p99', String(CAPACITY_DEFAULTS.outputTokensP99)],
      ['--output-tokens-problem-spread', String(CAPACITY_DEFAULTS.outputTokensProblemSpread)],
      ['--text-chars-per-token', String(CAPACITY_DEFAULTS.textCharsPerToken)],
      ['--time-scale', String(CAPACITY_DEFAULTS.timeScale)],
    ];
    for (const [flag, value] of expected) expect({ flag, help: shown.get(flag) }).toEqual({ flag, help: expect.stringContaining(`(default: ${value})`) });
    expect((await helpOf('run')).get('--sim-output-tokens')).toContain(`(default: ${SIM_DEFAULTS.outputTokens})`);
  });

  test('a server started with only --problems answers as the simulator does with every option left out', async ({ dir }) => {
    const question = 'Compute 6 times 7.';
    const file = path.join(dir, 'problems.jsonl');
    await writeFile(file, `${JSON.stringify({ problem_id: 'a', question, answer: '42' })}\n`);
    const command = await runSimServerCommand({ problems: file, port: 0 }, { stdout: () => undefined });
    const library = await startSimServer({ problems: [{ id: 'a', question, answer: '42' }], roles: SIM_ROLES });
    try {
      const spec = solutionPrompt(
        { type: 'solution.requested', run: 'r', iteration: 1, correlation: 'c', problem: 'a', candidate: 0, source: 'normal', question, rollouts: [], experience: [], guidelines: [] },
        { proof: false },
      );
      const messages = [
        { role: 'system', content: spec.system },
        { role: 'user', content: userText(spec.parts) },
      ];
      for (const stream of [false, true]) {
        const body = { model: 'tmas-sim', messages, stream, ...(stream ? { stream_options: { include_usage: true } } : {}) };
        expect(await replyOf(command, body)).toBe(await replyOf(library, body));
      }
      const [fromCommand, fromLibrary] = await Promise.all([command, library].map(async (server) => (await fetch(`${server.url}/models`)).text()));
      expect(fromCommand?.replace(/"created":\s*\d+/g, '')).toBe(fromLibrary?.replace(/"created":\s*\d+/g, ''));
      expect(new URL(command.url).hostname).toBe(SIM_DEFAULTS.host);
    } finally {
      await Promise.all([command.close(), library.close()]);
    }
  });

  // A problem file of other column names could not be served: its message named --id-column, which sim-server did not take.
  test('--problems is read with the column flags tmas run takes', async ({ dir }) => {
    const file = path.join(dir, 'mine.csv');
    await writeFile(file, 'key,text,gold\nk1,Compute 6 times 7.,42\n');
    let said = '';
    const server = await runSimServerCommand({ problems: file, idColumn: 'key', questionColumn: 'text', answerColumn: 'gold', port: 0 }, { stdout: (line) => (said += line) });
    await server.close();
    expect(said).toContain(': 1 problems');
    await expect(runSimServerCommand({ problems: file, idColumn: ' ', port: 0 }, { stdout: () => undefined })).rejects.toMatchObject({ code: 'TMAS_USAGE', message: expect.stringContaining('--id-column is empty') });
    expect((await helpOf('sim-server')).get('--answer-column')).toContain("the column (or JSON field) of --problems' reference answers");
  });

  test('every field of the configuration is filled, the capacity model with its defaults until it is asked for', () => {
    const config = toSimServerConfig({ problems: 'p.jsonl' });
    expect(config.capacity).toEqual({ ...CAPACITY_DEFAULTS, on: false, continuousUsage: SIM_DEFAULTS.continuousUsage });
    expect(config.server).toEqual({ problems: 'p.jsonl', idColumn: null, questionColumn: null, answerColumn: null, host: SIM_DEFAULTS.host, port: 8000, models: null, requestLog: null, metrics: SIM_DEFAULTS.metrics });
    expect(toSimServerConfig({ problems: 'p.jsonl', capacity: true, kvTokens: 1000 }).capacity).toMatchObject({ on: true, kvTokens: 1000, timeScale: CAPACITY_DEFAULTS.timeScale });
  });

  test('a p99 latency is at least the median: raised to it when left out, refused when given below it', () => {
    expect(toSimServerConfig({ problems: 'p.jsonl', latencyMedianMs: 200 }).pace.latencyP99Ms).toBe(200);
    expect(() => toSimServerConfig({ problems: 'p.jsonl', latencyMedianMs: 200, latencyP99Ms: 100 })).toThrow('--latency-p99-ms 100 is below --latency-median-ms 200');
    expect(toRunConfig(parseRunFlags(['--demo', '--sim-latency-ms', '200']), {}).config.sim.latencyP99Ms).toBe(200);
    expect(() => toRunConfig(parseRunFlags(['--demo', '--sim-latency-ms', '200', '--sim-p99-ms', '100']), {})).toThrow('--sim-p99-ms 100 is below --sim-latency-ms 200');
  });

  test("the simulator's code writes no option's default but SIM_DEFAULTS, and the settings none but the simulator's", () => {
    const read = (file: string) => readFileSync(path.join(REPO, file), 'utf8');
    const simFiles = readdirSync(path.join(REPO, 'src/sim'), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
    // `options.outputTokens ?? 250`: a second statement of a default, free to drift from the one --help shows.
    const options = [...Object.keys(SIM_DEFAULTS), ...Object.keys(SIM_DEFAULTS.stream), ...Object.keys(CAPACITY_DEFAULTS)];
    const redecided = new RegExp(`(options|settings|stream)\\??\\.(${options.join('|')})\\s*\\?\\?\\s*(-?\\d|'|"|\`|true|false)`);
    const found = simFiles.flatMap((file) => read(path.join('src/sim', file)).split('\n').flatMap((line, i) => (redecided.test(line) ? [`src/sim/${file}:${i + 1}: ${line.trim()}`] : [])));
    expect(found).toEqual([]);
    for (const file of ['src/settings/sections/sim-server.settings.ts', 'src/settings/sections/sim.settings.ts']) expect({ file, literal: read(file).match(/default:\s*-?\d[\d_.]*/g) }).toEqual({ file, literal: null });
  });
});
