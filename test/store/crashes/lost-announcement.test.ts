/**
 * A process killed right after an iteration's save and before its
 * announcement reached the log: the resume announces it, so the message log
 * and metrics.json are those of a run never stopped. The kill lands in that
 * window by chance only (a flaky figure in the durability test), so the test
 * makes the window itself: it puts a finished run's store back as such a kill
 * leaves it.
 */
import { cp, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { readLog, runInProcess, smallProblems, test, writeProblems, runCliInProcess } from '../../fixtures.ts';
import { Store } from '../../../src/store/store.ts';
import { metricsFromLog } from '../../../src/observers/log-metrics.ts';
import { unannouncedIterations } from '../../../src/host/run/lost-announcements.ts';
import type { Envelope } from '../../../src/kernel/protocol.ts';

/**
 * metrics.json's iterations but their timings (the resumed iteration's clock ran on through
 * the stop), each number to 12 digits (the problems are summed in another order).
 */
async function metricsOf(runDir: string): Promise<unknown> {
  const { iterations } = JSON.parse(await readFile(path.join(runDir, 'metrics.json'), 'utf8')) as { iterations: Array<Record<string, unknown>> };
  const figures = iterations.map(({ wallSeconds: _wall, problemSeconds: _problem, ...rest }) => rest);
  return JSON.parse(JSON.stringify(figures, (_, value: unknown) => (typeof value === 'number' ? Number(value.toPrecision(12)) : value)));
}

/**
 * Leaves a finished run's store as a kill between the last iteration's save and its announcement does: the log's
 * tail from that announcement (`bank.updated`, `iteration.completed`) on is lost, as the writes go in order (a log
 * never lacks a message in its middle), the save's mark is not cleared, and the process kept no counts. Resolves the problem and iteration cut,
 * and the types of the messages lost.
 */
async function dropAnnouncement(runDir: string): Promise<{ problem: string; iteration: number; dropped: string[] }> {
  const store = await Store.open(runDir);
  try {
    const log: Array<[string, Envelope['message']]> = [];
    for await (const [key, { message }] of store.messageEntries()) log.push([key, message]);
    let from = log.length - 1;
    while (from > 0 && log[from]?.[1].type !== 'bank.updated') from--;
    const [, { problem, iteration }] = log[from] as [string, Envelope['message']];
    for (const [key] of log.slice(from)) await store.messages().del(key);
    // A process killed before its outputs keeps no counts (their endSeq past the cut): a record that says the log went further is damage now.
    for await (const [key, counts] of store.processes().iterator()) if ((counts as { endSeq: number }).endSeq > Number(log[from]?.[0])) await store.processes().del(key);
    // A kill before the outputs leaves none of its own (the finished run's describe the log before the cut).
    await Promise.all(['metrics.json', 'results.jsonl'].map((name) => rm(path.join(runDir, name))));
    // The save's mark that its announcement is still to come, which the logged announcement cleared.
    await store.unannounced().put(problem as string, iteration);
    // What the metrics would say without it: the problem missing from that iteration.
    const problems = (await metricsFromLog(store)).find((metrics) => metrics.iteration === iteration)?.problems;
    expect(problems).toBe(2);
    return { problem: problem as string, iteration, dropped: log.slice(from).map(([, message]) => message.type) };
  } finally {
    await store.close();
  }
}

/** The iterations the run's store marks saved but not announced. */
async function unannouncedOf(runDir: string): Promise<Map<string, number>> {
  const store = await Store.open(runDir);
  try {
    return await unannouncedIterations(store);
  } finally {
    await store.close();
  }
}

describe('an iteration saved but never announced', () => {
  test('is announced on resume, from its record: the log holds it again and metrics.json is the uninterrupted run’s', async ({ dir }) => {
    const problems = await writeProblems(dir, smallProblems(3));
    const clean = path.join(dir, 'clean');
    await runInProcess(['--input-file', problems, '--output-file', clean, '--no-proof', '--n-candidates', '4', '--n-verifications', '2', '--max-iterations', '2', '--sim-output-tokens', '60', '--seed', '5']);
    expect(await unannouncedOf(clean)).toEqual(new Map());
    const cut = path.join(dir, 'cut');
    await cp(clean, cut, { recursive: true });
    const { problem, iteration, dropped } = await dropAnnouncement(cut);
    expect(dropped.slice(0, 2)).toEqual(['bank.updated', 'iteration.completed']);

    const resumed = await runCliInProcess(['run', '--resume', cut]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/^0 calls issued/m);
    expect(await metricsOf(cut)).toEqual(await metricsOf(clean));
    expect(await unannouncedOf(cut)).toEqual(new Map());
    const announcement = ({ message }: Envelope) => message.problem === problem && message.iteration === iteration && (message.type === 'iteration.completed' || message.type === 'bank.updated');
    const [announced, original] = [(await readLog(cut)).filter(announcement), (await readLog(clean)).filter(announcement)];
    expect(announced.map((envelope) => envelope.message)).toEqual(original.map((envelope) => envelope.message));
  });
});
