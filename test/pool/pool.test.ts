import { readFileSync } from 'node:fs';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import o200k from 'js-tiktoken/ranks/o200k_base';
import p50k from 'js-tiktoken/ranks/p50k_base';
import { createRandom } from '../../src/kernel/prng.ts';
import { describe, expect, test as base } from 'vitest';
import { isUserError } from '../../src/kernel/errors.ts';
import { createPool, type FitPart, type Pool } from '../../src/pool/pool.ts';
import { lendPool } from '../../src/pool/shared-pool.ts';
import { jaccard } from '../../workers/jaccard.worker.ts';
import { MESSAGE_OVERHEAD_TOKENS } from '../../workers/tokenize.worker.ts';
import { longPieces, recordedCounts } from './long-pieces.ts';

// One real pool per file: each thread loads its token ranks once, which is the slow part.
const test = base.extend<{ pool: Pool }>({
  pool: [
    async ({}, use) => {
      const pool = createPool({ threads: 2 });
      await use(pool);
      await pool.close();
    },
    { scope: 'file' },
  ],
});

// js-tiktoken's encoders, the reference counts: each takes about a second of CPU time to build, so once for the file.
const o200kEncoder = new Tiktoken(o200k);
const cl100kEncoder = new Tiktoken(cl100k);
const count = (text: string, encoder = o200kEncoder): number => (text === '' ? 0 : encoder.encode(text, [], []).length);
const promptCount = (system: string, user: string): number =>
  (system === '' ? 0 : count(system) + MESSAGE_OVERHEAD_TOKENS) + count(user) + MESSAGE_OVERHEAD_TOKENS;

function randomWords(random: () => number, vocabulary: string[], length: number): string {
  return Array.from({ length }, () => vocabulary[Math.floor(random() * vocabulary.length)] ?? '').join(' ');
}

/** `words` words of a part named `id`; parts start and end with a word so joins do not merge tokens. */
function wordPart(id: string, words: number, drop?: number): FitPart {
  const text = `${id} ${Array.from({ length: words }, (_, index) => `word${index % 50}`).join(' ')} end`;
  return drop === undefined ? { id, text } : { id, text, drop };
}

describe('fit', () => {
  const system = 'You are a careful mathematician.';

  test('keeps every part, in order, when the prompt fits', async ({ pool }) => {
    const parts = [wordPart('a', 20), wordPart('b', 20, 0), wordPart('c', 20, 1)];
    const result = await pool.fit({ system, parts, budget: 10_000 });
    expect(result.dropped).toEqual([]);
    expect(result.user).toBe(parts.map((part) => part.text).join('\n\n'));
    expect(result.promptTokens).toBe(promptCount(system, result.user));
  });

  test('drops by ascending rank, ties by position, never an undroppable part', async ({ pool }) => {
    const parts = [
      wordPart('A', 100),
      wordPart('B', 100, 2),
      wordPart('C', 100, 1),
      wordPart('D', 100, 1),
      wordPart('E', 100),
      wordPart('F', 100, 0),
    ];
    const kept = [parts[0], parts[1], parts[4]].map((part) => part?.text).join('\n\n');
    const budget = promptCount(system, kept);
    const result = await pool.fit({ system, parts, budget });
    expect(result.dropped).toEqual(['F', 'C', 'D']);
    expect(result.user).toBe(kept);
    expect(result.promptTokens).toBe(budget);

    // Below what the undroppable parts need: everything droppable goes, the rest is returned.
    const tight = await pool.fit({ system, parts, budget: 50 });
    expect(tight.dropped).toEqual(['F', 'C', 'D', 'B']);
    expect(tight.user).toBe(`${parts[0]?.text}\n\n${parts[4]?.text}`);
    expect(tight.promptTokens).toBe(promptCount(system, tight.user));
    expect(tight.promptTokens).toBeGreaterThan(50);
  });

  test('promptTokens is exact, and within budget while a part can still go, at every budget', async ({ pool }) => {
    // Joins where BPE merges across the separator: punctuation and newlines (the
    // per-part sum over-counts), and whitespace runs with tabs (it under-counts).
    const cases: FitPart[][] = [
      [
        { id: 'q', text: '<problem>\nFind all n such that n^2 + 1 divides 2^n.\n</problem>' },
        { id: 'r0', text: 'Solution:\nBy parity, n is even.\n', drop: 0 },
        { id: 'r1', text: '\nSolution:\nTry n = 1; then 2 divides 2.', drop: 1 },
        { id: 'e0', text: '- [pitfall] Forgetting n = 0!', drop: 2 },
        { id: 'tail', text: '</rollouts>' },
      ],
      [
        { id: 'a', text: 'Solution: \t', drop: 0 },
        { id: 'b', text: '\n\t\t\n', drop: 1 },
        { id: 'c', text: 'x = 1.', drop: 2 },
      ],
    ];
    let sawDrops = 0;
    for (const parts of cases) {
      const droppable = parts.filter((part) => part.drop !== undefined).length;
      const full = promptCount('', parts.map((part) => part.text).join('\n\n'));
      for (let budget = 0; budget <= full + 1; budget++) {
        const result = await pool.fit({ system: '', parts, budget });
        expect(result.promptTokens).toBe(promptCount('', result.user));
        if (result.dropped.length < droppable) expect(result.promptTokens).toBeLessThanOrEqual(budget);
        sawDrops += result.dropped.length;
      }
    }
    expect(sawDrops).toBeGreaterThan(0);
  });

  test('drops a 130,000-token rollout and keeps the rest', async ({ pool }) => {
    const random = createRandom(7);
    const vocabulary = Array.from({ length: 500 }, (_, index) => `w${index.toString(36)}`);
    let huge = '';
    while (count(huge) < 130_000) huge += `${randomWords(random, vocabulary, 20_000)}\n`;
    const parts: FitPart[] = [wordPart('question', 50), { id: 'rollout', text: huge, drop: 0 }, wordPart('ask', 20)];
    const result = await pool.fit({ system, parts, budget: 8_000 });
    expect(result.dropped).toEqual(['rollout']);
    expect(result.user).toBe(`${parts[0]?.text}\n\n${parts[2]?.text}`);
    expect(result.promptTokens).toBe(promptCount(system, result.user));
  });

  test('a templated system message (RSE\'s bank): its values drop in one order with the user parts\', it is never left out whole, and it comes back fitted and counted', async ({ pool }) => {
    const records = [0, 1, 2, 3].map((index) => wordPart(`record${index}`, 100).text);
    // Ranks 10, 12, 14, 16 for the records; the user's droppable part B at 11 goes between the first two.
    const template = { id: 'system', template: 'Lead.{% for record in records %} {{ record }}{% endfor %}', variables: { records }, drops: records.map((_, index) => ({ id: `s${index}`, path: ['records', index], drop: 10 + 2 * index })) };
    const parts = [wordPart('A', 50), wordPart('B', 100, 11)];
    const render = (kept: string[]) => `Lead.${kept.map((record) => ` ${record}`).join('')}`;
    const whole = await pool.fit({ system: template, parts, budget: 100_000 });
    expect(whole).toMatchObject({ system: render(records), dropped: [], systemValues: { values: 4, kept: 4, tokens: records.reduce((sum, record) => sum + count(record), 0) } });

    const kept = records.slice(2);
    const budget = promptCount(render(kept), parts[0]?.text ?? '');
    const fitted = await pool.fit({ system: template, parts, budget });
    expect(fitted.dropped).toEqual(['s0', 'B', 's1']);
    expect(fitted.system).toBe(render(kept));
    expect(fitted.user).toBe(parts[0]?.text);
    expect(fitted.promptTokens).toBe(budget);
    expect(fitted.systemValues).toEqual({ values: 4, kept: 2, tokens: whole.systemValues?.tokens, keptTokens: count(kept[0] ?? '') + count(kept[1] ?? '') });

    // Below what the lead and A need: every record goes, the lead stays.
    const tight = await pool.fit({ system: template, parts, budget: 10 });
    expect(tight.system).toBe('Lead.');
    expect(tight.systemValues).toMatchObject({ kept: 0, keptTokens: 0 });
  });

  test('a fit asked for ahead is made before every fit queued earlier without it', async () => {
    // One thread, so that every fit but the first waits in the queue.
    const single = createPool({ threads: 1 });
    try {
      const finished: string[] = [];
      const fitOf = (id: string, ahead: boolean) =>
        single.fit({ system, parts: [wordPart(id, 4_000)], budget: 100_000 }, { ahead }).then(() => {
          finished.push(id);
        });
      const queued = Array.from({ length: 12 }, (_, index) => fitOf(`verification${index}`, false));
      await Promise.all([...queued, fitOf('summary', true)]);
      // The first fit may have reached the thread before the summary was asked for; no other one did.
      expect(finished).toHaveLength(13);
      expect(finished.indexOf('summary')).toBeLessThanOrEqual(1);
    } finally {
      await single.close();
    }
  });

  test('a prompt changed in place after a fit is fitted anew, not answered from the first', async ({ pool }) => {
    const parts = [wordPart('a', 20), wordPart('b', 20)];
    const first = await pool.fit({ system, parts, budget: 10_000 });
    parts[1] = wordPart('c', 40);
    const second = await pool.fit({ system, parts, budget: 10_000 });
    expect(second.user).toBe(`${parts[0]?.text}\n\n${parts[1]?.text}`);
    expect(second.user).not.toBe(first.user);
    (parts[0] as FitPart).text = 'a changed question';
    expect((await pool.fit({ system, parts, budget: 10_000 })).user.startsWith('a changed question')).toBe(true);
  });
});

describe('countTokens', () => {
  const texts = [
    '',
    'Let $x^2 + y^2 = z^2$; show that 60 divides xyz.',
    'Quoted model output: <|endoftext|> is plain text here.',
    'Ünïcödé, 数学, and emoji 🧮 in one line.\n\n\tindented',
  ];

  test('matches js-tiktoken on the main thread', async ({ pool }) => {
    expect(await pool.countTokens(texts)).toEqual(texts.map((text) => count(text)));
  });

  test('counting chunk by chunk, with the counts of chunks seen before, equals js-tiktoken on random texts of tricky characters', async ({ pool }) => {
    // Whitespace runs before letters and newlines, apostrophe suffixes, digit runs, case
    // changes, punctuation with newlines and slashes, non-Latin letters, emoji, special tokens.
    const pieces = [' ', '  ', '\t', '\n', '\r\n', '\n\n', ' \n ', 'a', 'Word', 'WORD', 'wOrd', "'s", "'LL", "n't", '7', '12345', '.', '...\n', '/', '\\frac{1}{2}', '$x^2$', 'é', 'Ünï', '数学', '🧮', '<|endoftext|>', '-', '—', '(', ')'];
    const random = createRandom(11);
    const texts = Array.from({ length: 400 }, () => Array.from({ length: 1 + Math.floor(random() * 60) }, () => pieces[Math.floor(random() * pieces.length)] ?? '').join(''));
    // Twice each: the second pass is answered from the chunk counts the first one kept.
    for (let pass = 0; pass < 2; pass++) {
      expect(await pool.countTokens(texts)).toEqual(texts.map((text) => count(text)));
      expect(await pool.countTokens(texts, { encoding: 'cl100k_base' })).toEqual(texts.map((text) => count(text, cl100kEncoder)));
    }
  });

  test('equals js-tiktoken on long real texts (this repository\'s docs, figures and sources), in both encodings', async ({ pool }) => {
    // Thousands of distinct words, identifiers, figures, LaTeX and punctuation runs: most chunks are merged by byte pairs, not found whole.
    const files = ['README.md', 'docs/guide/keeping-servers-busy.md', 'bench/results.json', 'src/grader/latex/latex-to-mathjs.ts', 'workers/tokenize.worker.ts', 'problems/demo.jsonl'];
    const texts = files.map((file) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8'));
    expect(await pool.countTokens(texts)).toEqual(texts.map((text) => count(text)));
    expect(await pool.countTokens(texts, { encoding: 'cl100k_base' })).toEqual(texts.map((text) => count(text, cl100kEncoder)));
  });

  test('pieces longer than a word (merged through queues, not the rescanning loop) equal js-tiktoken: runs of one or a few characters, letters, CJK, emoji, 33 to 600 bytes, in three encodings', async ({ pool }) => {
    const texts = longPieces();
    const encoders = { o200k_base: o200kEncoder, cl100k_base: cl100kEncoder, p50k_base: new Tiktoken(p50k) };
    // js-tiktoken's counts, kept (long-pieces.ts says why); every tenth text counted by it again here.
    const reference = recordedCounts(texts, encoders);
    for (const [encoding, encoder] of Object.entries(encoders)) {
      const counted = await pool.countTokens(texts, { encoding });
      expect(counted, encoding).toEqual(reference[encoding]);
      for (let index = 0; index < texts.length; index += 10) expect(counted[index], `${encoding} #${index}`).toBe(count(texts[index] as string, encoder));
    }
  });

  test('a megabyte line of one character, and 10 MB of one character whose run the pre-tokenizer\'s regex cannot match in V8, are counted exactly', async ({ pool }) => {
    // js-tiktoken is quadratic in a run's length (2,048 characters of each took it 4.8 s at a load of 13, 1,024 0.8 s), so it
    // counts 1,024, and the long runs follow: "a" x 8 is an o200k token and no longer run of "a" is, so a run of 8k a's is k tokens; "жж" is no token, so each "ж" is one.
    const sample = 1_024;
    expect(count('a'.repeat(sample))).toBe(sample / 8);
    expect(count('ж'.repeat(sample))).toBe(sample);
    // 5,000,000 "ж" (10 MB of UTF-8) is one match of the pattern, past the 4.2 million characters where V8's backtracking stack overflows.
    // A megabyte of "a" is enough to tell a linear count from a quadratic one (which would take hours on it).
    expect(await pool.countTokens(['a'.repeat(2 ** 20), 'ж'.repeat(5_000_000)])).toEqual([2 ** 17, 5_000_000]);
  });

  test('uses the encoding asked for', async ({ pool }) => {
    expect(await pool.countTokens(texts, { encoding: 'cl100k_base' })).toEqual(
      texts.map((text) => count(text, cl100kEncoder)),
    );
  });

  test('an unknown encoding is a TMAS_TOKENIZER user error naming the flag', async ({ pool }) => {
    const error: unknown = await pool.countTokens(['x'], { encoding: 'gpt-5' }).catch((caught: unknown) => caught);
    expect(isUserError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'TMAS_TOKENIZER', message: expect.stringContaining('--tokenizer') });
    await expect(pool.fit({ encoding: 'llama3', system: '', parts: [], budget: 10 })).rejects.toMatchObject({
      code: 'TMAS_TOKENIZER',
    });
    expect(() => createPool({ encoding: 'bert' })).toThrow(expect.objectContaining({ code: 'TMAS_TOKENIZER' }));
  });

  test('pending counts the tasks in flight', async ({ pool }) => {
    const tasks = [pool.countTokens(['one']), pool.countTokens(['two']), pool.dedup({ existing: [], incoming: ['x'], threshold: 0.5 })];
    expect(pool.pending).toBe(3);
    await Promise.all(tasks);
    expect(pool.pending).toBe(0);
  });

  test('an aborted signal rejects the task and the pool stays usable', async ({ pool }) => {
    await expect(pool.countTokens(['x'], { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    expect(pool.pending).toBe(0);
    expect(await pool.countTokens(['hello world'])).toEqual([2]);
  });
});

describe('dedup', () => {
  const bank = [
    'The sum of the roots of x^2 - 5x + 6 is 5 by Vieta.',
    'Pitfall: dividing by n - 1 without checking that n is not 1.',
  ];

  test('drops a near-duplicate and keeps a distinct record', async ({ pool }) => {
    const incoming = [
      'the sum of the roots of x^2 - 5x + 6 is 5, by Vieta!',
      'Induction on n shows every term of the sequence is odd.',
    ];
    expect(await pool.dedup({ existing: bank, incoming, threshold: 0.7 })).toEqual({ keep: [false, true] });
  });

  test('an incoming record is compared with the incoming records kept before it', async ({ pool }) => {
    const incoming = [
      'Modular arithmetic mod 9 settles the digit sum question.',
      'Modular arithmetic mod 9 settles the digit sum question quickly.',
      'Pitfall: dividing by n - 1 without checking that n is not 1.',
    ];
    expect(await pool.dedup({ existing: bank, incoming, threshold: 0.7 })).toEqual({ keep: [true, false, false] });
    // With nothing in the bank, the first of two duplicates stays.
    expect(await pool.dedup({ existing: [], incoming: [bank[0] ?? '', bank[0] ?? ''], threshold: 0.9 })).toEqual({
      keep: [true, false],
    });
  });

  test('the indexed decisions equal brute-force Jaccard on random banks', async ({ pool }) => {
    const random = createRandom(20_260_514);
    // Exact fractions too, where a similarity lands on the threshold itself.
    const thresholds = [1 / 3, 0.5, 2 / 3, 0.75];
    let kept = 0;
    let dropped = 0;
    for (let round = 0; round < 50; round++) {
      const vocabulary = Array.from({ length: 4 + Math.floor(random() * 10) }, (_, index) => `v${index}`);
      const record = (): string => randomWords(random, vocabulary, Math.floor(random() * 14));
      const existing = Array.from({ length: Math.floor(random() * 60) }, record);
      const incoming = Array.from({ length: 1 + Math.floor(random() * 40) }, record);
      const threshold = round < thresholds.length * 3 ? (thresholds[round % thresholds.length] ?? 0.5) : 0.3 + random() * 0.6;
      const shingle = 1 + (round % 3);

      const expected: boolean[] = [];
      const keptTexts = [...existing];
      for (const text of incoming) {
        const keep = keptTexts.every((other) => jaccard(text, other, shingle) < threshold);
        expected.push(keep);
        if (keep) keptTexts.push(text);
      }
      const { keep } = await pool.dedup({ existing, incoming, threshold, shingle });
      expect(keep, `round ${round}`).toEqual(expected);
      kept += expected.filter(Boolean).length;
      dropped += expected.filter((flag) => !flag).length;
    }
    // Both outcomes must occur, or the comparison proves nothing.
    expect(kept).toBeGreaterThan(100);
    expect(dropped).toBeGreaterThan(100);
  });
});

describe('close', () => {
  test('a task still running when the wait for it is over is stopped with its thread: the pool closes, and the task rejects to its caller, no error thrown at the closer', async () => {
    const pool = createPool({ threads: 1, closeTimeoutMs: 50 });
    // Seconds of counting on one thread: still running when the close gives up waiting for it.
    const counting = pool.countTokens(['ж'.repeat(4_000_000)]);
    const outcome = counting.then(
      () => 'counted',
      () => 'rejected',
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    await expect(pool.close()).resolves.toBeUndefined();
    expect(await outcome).toBe('rejected');
  });
});

describe('the pool lent to each run', () => {
  test('a lease closed after its own tasks rejects later calls, while the next lease of the same encoding works on', async () => {
    const first = lendPool();
    const text = 'word '.repeat(50_000);
    const counting = first.countTokens([text]);
    await first.close();
    // close waited for the lease's task: its count is there.
    await expect(Promise.race([counting, Promise.resolve('not yet')])).resolves.toEqual([new Tiktoken(o200k).encode(text).length]);
    await expect(first.countTokens(['late'])).rejects.toMatchObject({ code: 'TMAS_POOL_CLOSED' });
    const second = lendPool({ encoding: 'o200k_base' });
    await expect(second.countTokens(['hello world'])).resolves.toEqual([2]);
    await second.close();
  });
});
