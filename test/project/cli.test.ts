import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { runCli, runCliInProcess, test } from '../fixtures.ts';

const good = JSON.stringify({ problem_id: 'a', question: 'What is 1 + 1?', answer: '2' });

/**
 * Each case: the input file's content (or null for the default good file), extra flags, and what stderr must say.
 * `child`: run as the executable in a process of its own (the others run in this fork, runCliInProcess: a child
 * `tmas run` that refuses at once is 2 CPU-s of start-up); one case shows the executable's refusal end to end.
 */
const badInputs: Array<{ name: string; content: string | null; flags: string[]; says: RegExp; child?: true }> = [
  { name: 'a malformed JSONL line', content: `${good}\n{"problem_id": "b", "question": \n`, flags: [], says: /problems\.jsonl:2:/ },
  { name: 'a missing question', content: `${good}\n${JSON.stringify({ problem_id: 'b', answer: '3' })}\n`, flags: [], says: /problems\.jsonl:2:.*question/ },
  { name: 'a duplicate problem_id', content: `${good}\n${good}\n`, flags: [], says: /problems\.jsonl:2:.*duplicate.*line 1/i },
  { name: 'an empty file', content: '', flags: [], says: /problems\.jsonl.*(empty|no problems)/i },
  { name: 'an unknown flag', content: null, flags: ['--n-candidatez', '3'], says: /unknown option '--n-candidatez'/ },
  { name: 'a flag given twice: the last is used, and said so', content: null, flags: ['--completion-max-tokens', '100', '--completion-max-tokens', '200000'], says: /^tmas: warning: --completion-max-tokens is given more than once: the last one given is used\.\n(.*\n)*tmas: --completion-max-tokens 200000 is not below/m },
  { name: 'ε outside [0, 1]', content: null, flags: ['--epsilon', '1.5'], says: /--epsilon.*1\.5/ },
  { name: 'N < 1', content: null, flags: ['--n-candidates', '0'], says: /--n-candidates.*0/ },
  // A refused connection is what vLLM answers while it starts: waited for unless --wait-for-server 0 (test/gateway/request/server-start.test.ts).
  { name: 'an unreachable endpoint', content: null, flags: ['--base-url', 'http://127.0.0.1:9/v1', '--model-name', 'm', '--wait-for-server', '0'], says: /Cannot reach the model endpoint http:\/\/127\.0\.0\.1:9\/v1 \(from --base-url\): connection failed: connect ECONNREFUSED 127\.0\.0\.1:9\./, child: true },
  // Credentials in a URL would go in the header that carries the API key: refused, the password not printed.
  { name: 'a base URL carrying a password', content: null, flags: ['--base-url', 'http://bob:hunter2@127.0.0.1:9/v1', '--model-name', 'm'], says: /--base-url.*http:\/\/bob:\*\*\*@127\.0\.0\.1:9\/v1.*a URL with credentials \(user:password@\) is not sent as such(?![\s\S]*hunter2)/ },
  { name: 'a pool given by repeating --base-url (a flag meant to repeat)', content: null, flags: ['--base-url', 'http://127.0.0.1:9/v1', '--base-url', 'http://127.0.0.1:10/v1', '--model-name', 'm', '--wait-for-server', '0'], says: /The pool's other replicas do not answer either: http:\/\/127\.0\.0\.1:10\/v1\./ },
  // The routes go after the base URL as given: a query would come before them (GET /v1?api-version=…/models).
  { name: 'a base URL with a query', content: null, flags: ['--base-url', 'http://127.0.0.1:9/openai/deployments/d?api-version=2024-10-21', '--model-name', 'm'], says: /--base-url.*a base URL with a query or fragment \(\?…, #…\) is no base URL: the routes \(\/chat\/completions, \/models\) go after it/ },
  { name: 'a judge URL carrying a user name', content: null, flags: ['--judge-base-url', 'http://bob@127.0.0.1:9/v1', '--model-name', 'm'], says: /--judge-base-url.*a URL with credentials/ },
  // One server spelt two ways is one replica, not two sent twice its share.
  { name: 'a pool naming one server twice, spelt two ways', content: null, flags: ['--base-url', 'HTTP://127.0.0.1:9/v1,http://127.0.0.1:9/v1/', '--base-url', 'http://127.0.0.1:9/v1', '--model-name', 'm', '--wait-for-server', '0'], says: /^tmas: Cannot reach the model endpoint http:\/\/127\.0\.0\.1:9\/v1 \(from --base-url\): connection failed(?:(?!other replicas).)*\[TMAS_ENDPOINT\]$/m },
  { name: 'a pool none of whose replicas answers', content: null, flags: ['--base-url', 'http://127.0.0.1:9/v1,http://127.0.0.1:10/v1', '--model-name', 'm', '--wait-for-server', '0'], says: /127\.0\.0\.1:9\/v1 \(from --base-url\).*The pool's other replicas do not answer either: http:\/\/127\.0\.0\.1:10\/v1\./ },
  { name: '--judge-audit without hybrid grading', content: null, flags: ['--judge-audit', '0.2'], says: /--judge-audit 0\.2 applies with --judge-when unsure only/ },
  { name: 'a whole-number flag given as hex', content: null, flags: ['--n-candidates', '0x10'], says: /--n-candidates.*0x10.*whole number/ },
  { name: 'a whole-number flag left empty', content: null, flags: ['--seed', ''], says: /--seed.*whole number/ },
  { name: 'a completion limit the window cannot hold', content: null, flags: ['--completion-max-tokens', '200000'], says: /--completion-max-tokens 200000 is not below the context window \(--max-tokens 131072\)/ },
  { name: 'an empty --input-file', content: null, flags: ['--input-file', ''], says: /--input-file is empty: give the path of the problem file\. \[TMAS_USAGE\]/ },
  // Majority's samples are --samples (64): an N given to it was recorded and 64 samples a problem drawn.
  { name: 'N to a strategy that does not read it', content: null, flags: ['--strategy', 'majority', '--n-candidates', '4'], says: /^tmas: --n-candidates: the majority strategy does not read it, .*its own are --samples, --vote-pool\)\. Leave --n-candidates out, or choose a --strategy that reads it\. \[TMAS_USAGE\]$/m },
  { name: 'M and ε to pacore, which reads neither', content: null, flags: ['--strategy', 'pacore', '--n-verifications', '2', '--epsilon', '0.3'], says: /--n-verifications and --epsilon: the pacore strategy does not read them.*its own are --round-widths/ },
  // The embedded simulated model starts only where a role has no --base-url: a run at a server's URL ignored these without a word.
  { name: 'a --sim-* flag to a run whose every role has an endpoint', content: null, flags: ['--base-url', 'http://127.0.0.1:9/v1', '--model-name', 'm', '--sim-latency-ms', '300'], says: /^tmas: --sim-latency-ms sets the embedded simulated model, which this run does not start: --base-url names the endpoint of every role\. Leave --sim-latency-ms out; to shape the replies of a tmas sim-server, start it with --latency-median-ms\. \[TMAS_USAGE\]$/m },
  { name: '--demo beside --input-file', content: null, flags: ['--demo'], says: /--demo runs the bundled demo set with its own settings: leave it out to run .*problems\.jsonl \(--input-file\)\. \[TMAS_USAGE\]/ },
];

describe('tmas run refuses bad input', () => {
  for (const { name, content, flags, says, child } of badInputs) {
    test(`${name}: one-paragraph error, exit code 2, no output directory`, async ({ dir }) => {
      const input = path.join(dir, 'problems.jsonl');
      await writeFile(input, content ?? `${good}\n`);
      const output = path.join(dir, 'out');
      // A case that gives its own --input-file gives it alone (a flag given twice is warned of).
      const inputFlags = flags.includes('--input-file') ? [] : ['--input-file', input];
      const result = await (child ? runCli : runCliInProcess)(['run', ...inputFlags, '--output-file', output, '--no-proof', ...flags]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(says);
      expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
      expect(existsSync(output)).toBe(false);
    });
  }

  test('the closing line names what the strategy read: majority its samples and no N or M; pacore N only with --round-widths empty; a resume refuses N to majority', async ({ dir }) => {
    const input = path.join(dir, 'problems.jsonl');
    await writeFile(input, `${good}\n`);
    const majority = path.join(dir, 'majority');
    const ran = await runCliInProcess(['run', '--input-file', input, '--output-file', majority, '--no-proof', '--strategy', 'majority', '--samples', '2', '--max-iterations', '1']);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toMatch(/^1 problem × 1 iteration, majority samples=2 vote-pool=0 T=1:$/m);
    expect(ran.stdout).not.toMatch(/N=\d/);
    const resumed = await runCliInProcess(['run', '--resume', majority, '--n-candidates', '4']);
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toMatch(/--n-candidates: the majority strategy does not read it/);
    const pacore = await runCliInProcess(['run', '--input-file', input, '--output-file', path.join(dir, 'pacore'), '--no-proof', '--strategy', 'pacore', '--round-widths', '', '--n-candidates', '2', '--max-iterations', '1']);
    expect(pacore.code, pacore.stderr).toBe(0);
    expect(pacore.stdout).toMatch(/^1 problem × 1 iteration, pacore round-widths=\(empty\) N=2 T=1:$/m);
  });

  test('snake_case spellings of the reference CLI are accepted', async ({ dir }) => {
    const input = path.join(dir, 'problems.jsonl');
    await writeFile(input, `${good}\n`);
    const output = path.join(dir, 'out');
    const result = await runCliInProcess(['run', '--input_file', input, '--output_file', output, '--no-proof', '--n_candidates', '2', '--n_verifications', '1', '--max_iterations', '1']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/simulated/);
    expect(existsSync(path.join(output, 'results.jsonl'))).toBe(true);
  });

  test('--help explains each run option with its default', async () => {
    const result = await runCliInProcess(['run', '--help']);
    expect(result.code).toBe(0);
    for (const flag of ['--input-file', '--n-candidates', '--epsilon', '--jaccard-threshold', '--verify-base-url', '--guide-model-name', '--tokenizer']) {
      expect(result.stdout).toContain(flag);
    }
    expect(result.stdout).toMatch(/default: 0\.2/);
  });

  test('the options of run and table1, declared only when asked for, are all there however help is asked, and listed as options in tmas --help', async () => {
    // tmas --help as the executable prints it (a child of its own); the others in this fork.
    const [runHelp, helpRun, table1Help, top] = await Promise.all([runCliInProcess(['run', '--help']), runCliInProcess(['help', 'run']), runCliInProcess(['table1', '--help']), runCli(['--help'])]);
    expect(helpRun.stdout).toBe(runHelp.stdout);
    // A strategy's own flag comes from the strategy registry.
    expect(runHelp.stdout).toContain('--samples');
    expect(table1Help.stdout).toContain('--strategies');
    expect(table1Help.stdout).toContain('--samples');
    expect(top.stdout).toMatch(/^ {2}run \[options\] /m);
    expect(top.stdout).toMatch(/^ {2}table1 \[options\] /m);
  });

  test('table1 resumes by the same command: its help offers no --resume, and --resume DIR, alone or with --output-file, says to give the same command with --output-file DIR', async () => {
    const help = await runCliInProcess(['table1', '--help']);
    expect(help.stdout).not.toMatch(/^ +--resume /m);
    // Nor does it offer --strategy (a table's methods are --strategies), or speak of --resume where a flag's help does in a run.
    expect(help.stdout).not.toMatch(/^ +--strategy /m);
    // Nor --view, which served nothing in a table: refused, naming tmas view DIR.
    expect(help.stdout).not.toMatch(/^ +--view /m);
    const viewed = await runCliInProcess(['table1', '--input-file', 'problems/demo.jsonl', '--output-file', '/tmp/table', '--view']);
    expect(viewed.code).toBe(2);
    expect(viewed.stderr).toContain('tmas table1 serves no viewer of its own: leave --view out, and watch its methods while they run with tmas view /tmp/table');
    expect(help.stdout).not.toMatch(/--resume/);
    expect(help.stdout).toContain('--output-file');
    for (const args of [['table1', '--resume', '/tmp/table'], ['table1', '--resume', '/tmp/table', '--output-file', '/tmp/table']]) {
      const refused = await runCliInProcess(args);
      expect(refused.code, args.join(' ')).toBe(2);
      expect(refused.stderr, args.join(' ')).toContain('tmas table1 resumes by itself: give the same tmas table1 command again, with --output-file DIR and without --resume [TMAS_USAGE]');
    }
  });
  // A reader of --help alone learnt of a required option from the error (sim-server --problems, show --problem), and
  // table1's help gave --output-file a default (runs/<input>-<time>) that the command refuses to run without.
  test("--help says which options a command cannot run without, and gives them no default", async () => {
    const helpOf = async (args: string[]) => (await runCliInProcess([...args, '--help'])).stdout;
    const optionLine = (help: string, flag: string) => new RegExp(`^ +${flag} (?:(?!^ +--)[\\s\\S])*`, 'm').exec(help)?.[0].replace(/\s+/g, ' ').trim() ?? '';
    expect(optionLine(await helpOf(['sim-server']), '--problems')).toMatch(/\(required\)/);
    expect(optionLine(await helpOf(['show']), '--problem')).toMatch(/\(required\)/);
    // tmas grade --help did not say what it prints or how it exits: a script had to read the docs for its exit codes.
    expect((await helpOf(['grade'])).replace(/\s+/g, ' ')).toContain('prints equal, not equal or unsure and exits 0, 1 or 2');
    // sim-server's --reasoning read "reasoning_content (the default) … (default: false)": two defaults for one flag.
    expect(optionLine(await helpOf(['sim-server']), '--reasoning')).toMatch(/reasoning_content \(the flag given alone\).*off when the flag is left out/);
    const table1 = optionLine(await helpOf(['table1']), '--output-file');
    expect(table1).toMatch(/\(required\)/);
    expect(table1).not.toMatch(/default/);
    // A run's --output-file has its default, and is not required; a fork's says it once.
    expect(optionLine(await helpOf(['run']), '--output-file')).toMatch(/\(default: runs\/<input>-<time>\)$/);
    expect(optionLine(await helpOf(['fork']), '--output-file').match(/required/g)).toHaveLength(1);
  });
});

// tmas sim-server on a port another process held died with "internal error (please report it): Error: listen EADDRINUSE"
// and its stack; tmas run --view PORT named a --port it does not have, and only once its store was written, so that the
// same command then refused to start ("already holds a tmas run").
test('a port or host a server cannot listen on is a usage error naming the flag, before anything is written', async ({ dir }) => {
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const port = String((holder.address() as AddressInfo).port);
  try {
    const input = path.join(dir, 'problems.jsonl');
    await writeFile(input, `${good}\n`);
    const sim = await runCliInProcess(['sim-server', '--problems', input, '--port', port]);
    expect(sim.code).toBe(2);
    expect(sim.stderr).toContain(`tmas: --port ${port}: the port is in use on 127.0.0.1. Choose another, or 0 for any free port. [TMAS_USAGE]`);
    // 192.0.2.1 is reserved for documentation: no machine has it.
    const host = await runCliInProcess(['sim-server', '--problems', input, '--port', '0', '--host', '192.0.2.1']);
    expect(host.stderr).toContain('tmas: --host 192.0.2.1: no interface of this machine has that address.');
    const output = path.join(dir, 'run');
    const run = await runCliInProcess(['run', '--input-file', input, '--no-proof', '--view', port, '--output-file', output]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`tmas: --view ${port}: the port is in use on 127.0.0.1.`);
    expect(existsSync(output)).toBe(false);
  } finally {
    holder.close();
  }
});

/** Errors of the option parser, on several commands: each as tmas prints its own usage errors. */
const parserErrors: Array<{ name: string; args: string[]; says: string }> = [
  { name: 'an unknown option', args: ['log', '/nowhere', '--bogus'], says: "tmas: unknown option '--bogus' [TMAS_USAGE]" },
  { name: 'a missing argument', args: ['export'], says: "tmas: missing required argument 'dir' [TMAS_USAGE]" },
  { name: "an option's missing value", args: ['run', '--n-candidates'], says: "tmas: option '--n-candidates <n>' argument missing [TMAS_USAGE]" },
  { name: 'an invalid value', args: ['run', '--concurrency', 'abc'], says: "tmas: option '--concurrency <n>' argument 'abc' is invalid. expected a whole number from 1 to 100000 [TMAS_USAGE]" },
  { name: 'an unknown command', args: ['bogus'], says: "tmas: unknown command 'bogus' [TMAS_USAGE]" },
];

describe("the option parser's errors carry TMAS_USAGE", () => {
  for (const { name, args, says } of parserErrors) {
    test(`${name} (tmas ${args.join(' ')}): its line names the code, exit 2`, async () => {
      // The unknown command as the executable prints it, in a child (a third of a CPU-s); the others in this fork.
      const result = await (args[0] === 'bogus' ? runCli : runCliInProcess)(args);
      expect(result.code).toBe(2);
      expect(result.stderr.split('\n')[0]).toBe(says);
      expect(result.stdout).toBe('');
    });
  }
});

describe('an unknown flag that holds the words of one of ours is named', () => {
  // Commander suggests a flag a few letters away: --model, --input, --iterations (other tools' names) got no suggestion.
  const cases: Array<[string[], string]> = [
    [['run', '--model', 'm'], '--model-name'],
    [['run', '--input', 'p.jsonl'], '--input-file'],
    [['run', '--output', 'runs/x'], '--output-file'],
    [['run', '--iterations', '4'], '--max-iterations'],
    [['run', '--judge-url', 'http://127.0.0.1:9/v1'], '--judge-base-url'],
    [['run', '--temp', '0.6'], '--temperature'],
    [['run', '--n', '4'], '--n-candidates or --n-verifications'],
    // Commander's own suggestion stands where ours has none.
    [['log', '/nowhere', '--roles', 'judge'], '--role'],
  ];
  for (const [args, meant] of cases) {
    test(`tmas ${args.join(' ')}: did you mean ${meant}`, async () => {
      const result = await runCliInProcess(args);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`tmas: unknown option '${args.find((arg) => arg.startsWith('--'))}'\n(Did you mean ${meant}?) [TMAS_USAGE]`);
    });
  }
});

// A value that is not an Error, thrown by code tmas does not own, reached the top wrapped in an Error of main.ts's:
// 'Error: 42' (a string or a number?), 'Error: undefined', an object as its keys without their values, each with a
// stack of main.ts, where it was caught. main's output is where such a value can be thrown into it from outside.
describe('a thrown value that is not an Error, reaching the top', () => {
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  const cases: Array<[string, unknown, string]> = [
    ['a string', 'boom', 'the string "boom"'],
    ['a number', 42, 'the number 42'],
    ['a number as a string', '42', 'the string "42"'],
    ['undefined', undefined, 'undefined'],
    ['an object', { code: 7, reason: 'over quota' }, 'an object {"code":7,"reason":"over quota"}'],
    ['an object whose toString throws', { toString: () => { throw new Error('no text'); } }, 'an object with keys toString whose message and text could not be read'],
    ['a revoked Proxy', revoked.proxy, 'an object whose message and text could not be read'],
    ['a string of 50,000 characters', 'x'.repeat(50_000), `the string "${'x'.repeat(2000)}"… (48000 more characters)`],
  ];
  for (const [name, value, said] of cases) {
    test(`${name}: one line saying what was thrown, bounded, exit 1`, async () => {
      const { main } = await import('../../src/cli/main.ts');
      const stderr: string[] = [];
      const thrower = () => {
        throw value;
      };
      const code = await main(['--version'], { stdout: thrower, stderr: (line) => stderr.push(line), stream: thrower });
      expect(code).toBe(1);
      expect(stderr).toEqual([`tmas: internal error (please report it): a value that is not an Error was thrown, ${said} (it carries no stack trace)`]);
    });
  }
});
