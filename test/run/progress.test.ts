import { PassThrough } from 'node:stream';
import { Subject } from 'rxjs';
import { describe, expect, test } from 'vitest';
import { showProgress } from '../../src/observers/progress.ts';
import type { Envelope, Message } from '../../src/kernel/protocol.ts';

const probe = { inFlight: () => 7, queued: () => 3, retries: () => 2, retriesByCause: () => ({ '429': 2 }), pass1: () => ({ iteration: 0, value: 0.5 }) };

describe('progress when stderr is not a terminal', () => {
  test('prints plain lines with counts, requests in flight and queued, retries, errors and Pass@1', () => {
    const bus = new Subject<Envelope>();
    const lines: string[] = [];
    const progress = showProgress(bus, { totalProblems: 2, totalIterations: 2, probe, write: (line) => lines.push(line), intervalMs: 60_000 });
    let seq = 0;
    const send = (message: Message) => bus.next({ seq: seq++, at: 0, from: 'log', to: 'log', message });
    const base = { run: 'r', problem: 'p1', iteration: 0, correlation: 'c' };
    send({ type: 'solution.completed', ...base, candidate: 0, source: 'normal', text: '', answer: '1', call: { key: 'k', usage: { promptTokens: 10, completionTokens: 5 }, finishReason: 'stop' } });
    send({ type: 'llm.failed', ...base, role: 'verification', index: 0, code: 'TMAS_CALL_FAILED', error: 'HTTP 503' });
    send({ type: 'iteration.completed', ...base, candidates: [] });
    progress.stop();
    progress.stop();
    expect(lines).toHaveLength(1);
    const line = lines[0] ?? '';
    expect(line).toContain('problem-iterations 1/4 (25%)');
    expect(line).toContain('in flight 7 queued 3');
    expect(line).toContain('retries 2 (429: 2) failed 1');
    expect(line).toContain('Pass@1 it0 50.0%');
    expect(line).toContain('solution 1');
    expect(line).not.toMatch(/\u001b\[/);
  });

  test('a resumed run counts the iterations an earlier process completed', () => {
    const bus = new Subject<Envelope>();
    const lines: string[] = [];
    const progress = showProgress(bus, { totalProblems: 2, totalIterations: 3, probe, write: (line) => lines.push(line), intervalMs: 60_000 });
    let seq = 0;
    const send = (message: Message) => bus.next({ seq: seq++, at: 0, from: 'log', to: 'log', message });
    // p1 had finished iteration 0 and p2 iterations 0 and 1 before the crash.
    send({ type: 'problem.started', run: 'r', problem: 'p1', iteration: 1, correlation: 'p1/start', fromIteration: 1 });
    send({ type: 'problem.started', run: 'r', problem: 'p2', iteration: 2, correlation: 'p2/start', fromIteration: 2 });
    send({ type: 'iteration.completed', run: 'r', problem: 'p1', iteration: 1, correlation: 'c', candidates: [] });
    // p2's iteration 1, saved but never announced before the stop, announced again by the resume (before or after its start): counted once.
    send({ type: 'iteration.completed', run: 'r', problem: 'p2', iteration: 1, correlation: 'c', candidates: [] });
    progress.stop();
    expect(lines[0]).toContain('problem-iterations 4/6 (67%)');
  });
});

describe('progress on a terminal', () => {
  test("a phase bar ends full when a problem carried fewer calls than declared (its cut solution was not verified)", () => {
    const bus = new Subject<Envelope>();
    const terminal = Object.assign(new PassThrough(), { isTTY: true, columns: 160 }) as unknown as NodeJS.WriteStream;
    let drawn = '';
    terminal.on('data', (chunk: Buffer) => (drawn += chunk.toString()));
    const expectedCalls = new Map([['p1', { verification: 4 }], ['p2', { verification: 4 }]]);
    const progress = showProgress(bus, { totalProblems: 2, totalIterations: 1, probe, write: () => {}, terminal, expectedCalls, intervalMs: 60_000 });
    let seq = 0;
    const send = (message: Message) => bus.next({ seq: seq++, at: 0, from: 'log', to: 'log', message });
    const call = { key: 'k', usage: { promptTokens: 10, completionTokens: 5 }, finishReason: 'stop' as const };
    const verify = (problem: string, index: number) => send({ type: 'verification.completed', run: 'r', problem, iteration: 0, correlation: 'c', candidate: 0, index, score: 1, analysis: '', call });
    // p1's candidate was cut: none of its four verifications were asked. p2 had all four.
    send({ type: 'problem.completed', run: 'r', problem: 'p1', iteration: 0, correlation: 'c', iterations: 1 });
    for (let index = 0; index < 4; index++) verify('p2', index);
    send({ type: 'problem.completed', run: 'r', problem: 'p2', iteration: 0, correlation: 'c', iterations: 1 });
    progress.stop();
    const last = drawn.split('verification').at(-1) ?? '';
    expect(last).toMatch(/ 4\/4 calls/);
  });
});
