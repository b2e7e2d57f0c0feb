import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import type { Envelope } from '../../src/kernel/protocol.ts';
import { hashOf } from '../../src/kernel/prng.ts';
import { runLogCommand } from '../../src/cli/inspect/log.command.ts';
import { checkStore } from '../../src/store/repair/check.ts';
import { repairStore } from '../../src/store/repair/repair.ts';
import { STORE_FORMAT, Store, type CallRecord, type Manifest } from '../../src/store/store.ts';
import { chunkText, TEXT_MIN_CHARS } from '../../src/store/texts.ts';
import { test, runCliInProcess } from '../fixtures.ts';

/** Prose that does not repeat itself (so that chunking cannot share its parts), different per seed. */
function prose(seed: number, chars: number): string {
  let state = seed;
  const words: string[] = [];
  let length = 0;
  while (length < chars) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    const word = (state >>> 8).toString(36);
    words.push(word);
    length += word.length + 1;
  }
  return words.join(state % 3 === 0 ? '\n' : ' ').slice(0, chars);
}

/** A configuration as tmas 0.1.0 wrote it (the run's settings are not what these tests are about, but they must read). */
const CONFIG = (JSON.parse(readFileSync(new URL('../fixtures/manifests/flat-0.1.0.json', import.meta.url), 'utf8')) as Record<string, { config: unknown }>).plain?.config;
// Its configHash as every tmas wrote it: the hash of the configuration beside it (store/repair/manifest-check.ts checks it).
const MANIFEST = { run: 'r1', config: CONFIG, configHash: hashOf(CONFIG), tmasVersion: 'test', journalVersion: 4, simulated: true, strategy: 'tmas', createdAt: '' } as unknown as Manifest;

function call(index: number, prompt: string, output: string): CallRecord {
  return {
    key: `p1/0/verification/${index}/k`,
    role: 'verification',
    problem: 'p1',
    iteration: 0,
    index,
    request: { baseUrl: 'http://sim', model: 'm', messages: [{ role: 'system', content: 'short' }, { role: 'user', content: prompt }], maxTokens: 100, temperature: null, seed: index },
    fit: { promptTokens: 10, dropped: [] },
    response: { content: output, reasoning: null, finishReason: 'stop' },
    usage: { promptTokens: 10, completionTokens: 10 },
    timings: { startedAt: 0, latencyMs: 1 },
    attempts: 1,
  };
}

function verificationRequested(seq: number, solution: string): Envelope {
  return {
    seq,
    at: 1000 + seq,
    from: 'problem:p1',
    to: 'role:verification',
    message: { type: 'verification.requested', run: 'r1', problem: 'p1', iteration: 0, correlation: `p1/0/verification/${seq}`, candidate: 0, index: seq, question: 'Q?', solution },
  };
}

async function newRun(runDir: string): Promise<Store> {
  const store = await Store.open(runDir, { create: true });
  // The problem its records name: a store whose journal has calls of a problem it holds no record of is damaged.
  await store.startRun(MANIFEST, [{ id: 'p1', question: 'Q?', answer: '1', extra: {} }]);
  return store;
}

async function logLines(runDir: string): Promise<string[]> {
  const lines: string[] = [];
  await runLogCommand(runDir, {}, (line) => void lines.push(line));
  return lines;
}

async function count(entries: AsyncIterable<unknown>): Promise<number> {
  let n = 0;
  for await (const _ of entries) n++;
  return n;
}

const M = 8;

describe('texts are stored once', () => {
  test('a solution carried by M messages and the M calls that share a prompt: each text is stored once, and every record reads back byte for byte', async ({ dir }) => {
    const runDir = path.join(dir, 'run');
    const solution = prose(1, 40_000);
    const prompt = `<problem>\nQ?\n</problem>\n\n<solution>\n${solution}\n</solution>`;
    const outputs = Array.from({ length: M }, (_, i) => prose(100 + i, 20_000));
    const envelopes = Array.from({ length: M }, (_, seq) => verificationRequested(seq, solution));
    const calls = outputs.map((output, index) => call(index, prompt, output));

    const store = await newRun(runDir);
    for (const envelope of envelopes) store.logMessage(envelope);
    for (const record of calls) await store.putCall(record);
    await store.flushed();

    // Distinct texts: the solution, the prompt and the M outputs; nothing more.
    expect(await count(store.texts().keys())).toBe(2 + M);
    let chunkChars = 0;
    for await (const chunk of store.chunks().values()) chunkChars += (chunk as string).length;
    const distinct = solution.length + prompt.length + outputs.reduce((sum, output) => sum + output.length, 0);
    expect(chunkChars).toBeLessThanOrEqual(distinct);
    // The solution inside the prompt shares its chunks with the solution: all but the edges of the prompt are stored once.
    expect(chunkChars).toBeLessThan(distinct - solution.length + 2 * 8192);
    // Records hold digests, not texts.
    for await (const stored of store.messages().values()) expect(JSON.stringify(stored).length).toBeLessThan(TEXT_MIN_CHARS);

    const read: CallRecord[] = [];
    for await (const record of store.callRecords()) read.push(record);
    expect(read.map((record) => JSON.stringify(record))).toEqual(calls.map((record) => JSON.stringify(record)));
    expect(JSON.stringify(await store.getCall(calls[3]?.key ?? ''))).toBe(JSON.stringify(calls[3]));
    await store.close();

    expect(await logLines(runDir)).toEqual(envelopes.map((envelope) => JSON.stringify(envelope)));
  });

  test('a text is cut at the same places wherever it appears, so a text inside another shares its chunks', () => {
    const text = prose(7, 30_000);
    const inner = chunkText(text).digests;
    const outer = new Set(chunkText(`header ${prose(8, 3000)}\n${text}\nfooter`).digests);
    const shared = inner.filter((digest) => outer.has(digest)).length;
    expect(shared).toBeGreaterThanOrEqual(inner.length - 2);
    expect(chunkText(text).chunks.join('')).toBe(text);
  });
});

describe('a reader of outlines reads only the texts it asks for', () => {
  test('the metrics read a long answer and leave solutions and summaries unread; a blank solution stays inline, so its outline still says it is empty', async ({ dir }) => {
    const runDir = path.join(dir, 'run');
    const answer = `\\frac{${'1'.repeat(TEXT_MIN_CHARS)}}{2}`;
    const summary = prose(3, 20_000);
    const blank = ' \n'.repeat(TEXT_MIN_CHARS);
    const candidate = { candidate: 0, source: 'normal', answer, verificationScores: [1], summary, summaryScore: 1, correct: true, judge: null, correctJudge: null, failures: [] };
    const completed: Envelope = { seq: 0, at: 1000, from: 'problem:p1', to: 'run', message: { type: 'iteration.completed', run: 'r1', problem: 'p1', iteration: 0, correlation: 'p1/0', candidates: [candidate] } } as unknown as Envelope;
    const solved = (seq: number, text: string): Envelope => ({ seq, at: 1000 + seq, from: 'role:solution', to: 'problem:p1', message: { type: 'solution.completed', run: 'r1', problem: 'p1', iteration: 0, correlation: `p1/0/solution/${seq}`, candidate: seq, text } }) as unknown as Envelope;

    const store = await newRun(runDir);
    for (const envelope of [completed, solved(1, prose(4, 30_000)), solved(2, blank)]) store.logMessage(envelope);
    await store.flushed();
    const answers = (type: string, textPath: Array<string | number>) => type === 'iteration.completed' && textPath[3] === 'answer';
    const read: Envelope[] = [];
    for await (const envelope of store.envelopeOutlines(answers)) read.push(envelope);
    await store.close();

    const [first, second, third] = read.map((envelope) => envelope.message as unknown as Record<string, unknown>);
    const [readCandidate] = first?.['candidates'] as Array<Record<string, unknown>>;
    expect(readCandidate?.['answer']).toBe(answer);
    expect(readCandidate?.['summary']).not.toBe(summary);
    expect(String(readCandidate?.['summary']).length).toBeLessThan(100);
    expect(String(second?.['text']).length).toBeLessThan(100);
    expect(String(second?.['text']).trim()).not.toBe('');
    expect(third?.['text']).toBe(blank);
  });
});

describe('a reference to a missing text is damage', () => {
  test('the check names it with TMAS_STORE_DAMAGED, a read never yields an empty text, and repair drops the record that lost it', async ({ dir }) => {
    const runDir = path.join(dir, 'run');
    const solution = prose(2, 10_000);
    const store = await newRun(runDir);
    store.logMessage(verificationRequested(0, 'short'));
    store.logMessage(verificationRequested(1, solution));
    await store.flushed();
    // Lose every chunk of the solution, as a lost table would.
    for (const digest of chunkText(solution).digests) await store.chunks().del(digest);
    await store.close();

    await expect(checkStore(runDir)).rejects.toMatchObject({ code: 'TMAS_STORE_DAMAGED', message: expect.stringMatching(/message record 000000000001.*tmas repair/s) });
    const reader = await Store.open(runDir);
    try {
      await expect(reader.getMessage(1)).rejects.toMatchObject({ code: 'TMAS_STORE_DAMAGED' });
      expect((await reader.getMessage(0))?.message).toMatchObject({ solution: 'short' });
      // A stream reads records many at a time: it still yields those before and names the one that lost its text.
      const streamed: number[] = [];
      const streaming = (async () => {
        for await (const envelope of reader.envelopes()) streamed.push(envelope.seq);
      })();
      await expect(streaming).rejects.toMatchObject({ code: 'TMAS_STORE_DAMAGED', message: expect.stringMatching(/message record 000000000001/) });
      expect(streamed).toEqual([0]);
    } finally {
      await reader.close();
    }

    const logged = await runCliInProcess(['log', runDir]);
    expect(logged.code).toBe(2);
    // The store is not read whole before a command starts: the damage stops the log where it is met, after the one record before it.
    expect(logged.stderr).toMatch(/message record 000000000001 refers to text .* does not hold whole.*TMAS_STORE_DAMAGED/s);
    expect(logged.stdout.trim().split('\n')).toHaveLength(1);
    expect(logged.stdout).toContain('short');

    const report = await repairStore(runDir);
    expect(report.dropped).toEqual([expect.stringMatching(/^message record 000000000001/)]);
    await checkStore(runDir);
    expect(await logLines(runDir)).toEqual([JSON.stringify(verificationRequested(0, 'short'))]);
  });
});

describe('stores of the format before texts', () => {
  test('records with their texts inline read as they were, and a resume adds records in the new format beside them', async ({ dir }) => {
    const runDir = path.join(dir, 'run');
    const solution = prose(3, 12_000);
    const old = [verificationRequested(0, solution), verificationRequested(1, solution)];
    const oldCall = call(0, `<solution>\n${solution}\n</solution>`, prose(4, 9000));
    // Written as the previous tmas wrote them: the manifest without a format key, every text inline.
    const store = await Store.open(runDir, { create: true });
    await store.manifest().put('manifest', MANIFEST);
    await store.problems().put('000000', { id: 'p1', question: 'Q?', answer: '1', extra: {} });
    for (const envelope of old) await store.messages().put(String(envelope.seq).padStart(12, '0'), envelope);
    await store.calls().put(oldCall.key, oldCall);
    await store.close();

    await checkStore(runDir);
    expect(await logLines(runDir)).toEqual(old.map((envelope) => JSON.stringify(envelope)));

    const resumed = await Store.open(runDir);
    expect(JSON.stringify(await resumed.getCall(oldCall.key))).toBe(JSON.stringify(oldCall));
    const added = verificationRequested(2, solution);
    resumed.logMessage(added);
    await resumed.flushed();
    expect(await resumed.manifest().get('format')).toBe(STORE_FORMAT);
    await resumed.close();
    expect(await logLines(runDir)).toEqual([...old, added].map((envelope) => JSON.stringify(envelope)));
  });

  test('a store of a newer format is refused with TMAS_STORE_FORMAT', async ({ dir }) => {
    const runDir = path.join(dir, 'run');
    const store = await newRun(runDir);
    await store.manifest().put('format', STORE_FORMAT + 1);
    await store.close();
    await expect(Store.open(runDir)).rejects.toMatchObject({ code: 'TMAS_STORE_FORMAT' });
  });
});
